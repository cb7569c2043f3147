import { createHash, createHmac, randomBytes } from 'node:crypto';

/** 32 random bytes: the signing link is the recipient's only credential. */
const TOKEN_BYTES = 32;

/** A new signing token (base64url, in the link) and its SHA-256 (the only thing stored). */
export function newSigningToken(): { token: string; hash: Buffer } {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, hash: hashSigningToken(token) };
}

/**
 * The signing token of a recipient, derived from the installation's signing secret and the
 * recipient's id: HMAC-SHA256 under a key of its own (the secret's HMAC of a label, so that a
 * token is never a signed URL's signature). The database keeps only its SHA-256, as for a random
 * token, and the link can still be written again where the secret is, which delivery needs: the
 * invitation a worker sends, and a reminder weeks later, carry the link the creator was given.
 * Without the secret, a stolen database gives no link.
 */
export function signingTokenFor(
  secret: string,
  recipientId: string,
): { token: string; hash: Buffer } {
  const key = createHmac('sha256', secret).update('docpipe signing token v1').digest();
  const token = createHmac('sha256', key).update(recipientId, 'utf8').digest('base64url');
  return { token, hash: hashSigningToken(token) };
}

export function hashSigningToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** A recipient's short public id, unique in its case: 9 random bytes, 12 characters. */
export function newRecipientUid(): string {
  return randomBytes(9).toString('base64url');
}

/**
 * Where a company's people follow their links: its own signing domain when it has one (spec
 * 4.4, rule 7; https unless it says otherwise), else this service's public URL.
 */
export function linkBase(signingDomain: string | null, publicUrl: string): string {
  return signingDomain
    ? /^https?:\/\//.test(signingDomain)
      ? signingDomain
      : `https://${signingDomain}`
    : publicUrl;
}

/** The signing link: `/sign/<token>` under the company's link base (linkBase). */
export function signingUrl(signingDomain: string | null, publicUrl: string, token: string): string {
  return `${linkBase(signingDomain, publicUrl).replace(/\/+$/, '')}/sign/${token}`;
}
