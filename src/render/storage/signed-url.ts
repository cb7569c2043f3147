import { createHmac, timingSafeEqual } from 'node:crypto';
import { checkKey } from './storage.js';

/**
 * Expiring links to stored objects: `<base>/files/<key>?expires=<unix s>&signature=<hmac>`. The
 * HMAC-SHA256 covers key and expiry, so neither can be changed without the secret.
 */
export function signUrl(base: string, key: string, expiresAt: Date, secret: string): string {
  checkKey(key);
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${base.replace(/\/$/, '')}/files/${key}?expires=${expires}&signature=${sign(key, expires, secret)}`;
}

export type SignedUrlCheck =
  { ok: true; key: string } | { ok: false; reason: 'malformed' | 'expired' | 'bad-signature' };

export function verifySignedUrl(url: string, secret: string, now = new Date()): SignedUrlCheck {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://docpipe.invalid');
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const match = /\/files\/(.+)$/.exec(parsed.pathname);
  const expires = Number(parsed.searchParams.get('expires'));
  const signature = parsed.searchParams.get('signature') ?? '';
  if (!match || !Number.isSafeInteger(expires)) return { ok: false, reason: 'malformed' };
  const key = match[1]!;
  try {
    checkKey(key);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const expected = Buffer.from(sign(key, expires, secret), 'hex');
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'bad-signature' };
  if (expires * 1000 < now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, key };
}

function sign(key: string, expires: number, secret: string): string {
  if (secret.length < 16) throw new Error('the signing secret must have at least 16 characters');
  return createHmac('sha256', secret).update(`${key}\n${expires}`).digest('hex');
}
