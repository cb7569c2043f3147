import { createHmac, timingSafeEqual } from 'node:crypto';
import { checkKey } from './storage.js';

/**
 * Expiring links to stored objects:
 * `<base>/files/<key>?expires=<unix s>&name=<document name>&signature=<hmac>`. The HMAC-SHA256
 * covers key, expiry and name, so none of them can be changed without the secret: the name a URL
 * was issued with is the name it downloads as, whatever is uploaded or renamed later.
 *
 * `name` is optional: URLs issued before names were signed (`?expires&signature`) still verify,
 * and their download takes the name stored beside the object.
 */
export function signUrl(
  base: string,
  key: string,
  expiresAt: Date,
  secret: string,
  name?: string,
): string {
  checkKey(key);
  const expires = Math.floor(expiresAt.getTime() / 1000);
  const named = name === undefined ? '' : `&name=${encodeURIComponent(name)}`;
  return `${base.replace(/\/$/, '')}/files/${key}?expires=${expires}${named}&signature=${sign(key, expires, name, secret)}`;
}

/**
 * `malformed`: the URL lacks its expires or signature parameter (not a signed URL at all);
 * `bad-signature`: it has them, but the URL is not the one they were made for (its path, expiry,
 * name or signature changed, or a parameter given twice).
 */
export type SignedUrlCheck =
  | { ok: true; key: string; name?: string }
  | { ok: false; reason: 'malformed' | 'bad-signature' }
  /** The signature was right: `key` is the one docpipe signed, so the refusal can say what renews it. */
  | { ok: false; reason: 'expired'; key: string };

const SIGNED_PARAMS = ['expires', 'name', 'signature'] as const;

export function verifySignedUrl(url: string, secret: string, now = new Date()): SignedUrlCheck {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://docpipe.invalid');
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const query = parsed.searchParams;
  if (!query.get('expires') || !query.get('signature')) return { ok: false, reason: 'malformed' };
  // A second value would be read by one reader and not another: no longer the URL signed.
  if (SIGNED_PARAMS.some((p) => query.getAll(p).length > 1))
    return { ok: false, reason: 'bad-signature' };
  const expires = Number(query.get('expires'));
  const match = /\/files\/(.+)$/.exec(parsed.pathname);
  // A path that is no key any more was changed after signing: the signature is for another URL.
  if (!match || !Number.isSafeInteger(expires) || !isKey(match[1]!))
    return { ok: false, reason: 'bad-signature' };
  const key = match[1]!;
  const name = query.get('name') ?? undefined;
  const expected = Buffer.from(sign(key, expires, name, secret), 'hex');
  const given = Buffer.from(query.get('signature')!, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'bad-signature' };
  if (expires * 1000 < now.getTime()) return { ok: false, reason: 'expired', key };
  return name === undefined ? { ok: true, key } : { ok: true, key, name };
}

function isKey(key: string): boolean {
  try {
    checkKey(key);
    return true;
  } catch {
    return false;
  }
}

/** Keys hold no line break and expiries are integers, so the three lines never run together. */
function sign(key: string, expires: number, name: string | undefined, secret: string): string {
  if (secret.length < 16) throw new Error('the signing secret must have at least 16 characters');
  const message = name === undefined ? `${key}\n${expires}` : `${key}\n${expires}\n${name}`;
  return createHmac('sha256', secret).update(message).digest('hex');
}
