import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes: the signing link is the recipient's only credential. */
const TOKEN_BYTES = 32;

/** A new signing token (base64url, in the link) and its SHA-256 (the only thing stored). */
export function newSigningToken(): { token: string; hash: Buffer } {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
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
 * The signing link: the company's own signing domain when it has one (spec 4.4, rule 7), else
 * this service's public URL, then `/sign/<token>`.
 */
export function signingUrl(signingDomain: string | null, publicUrl: string, token: string): string {
  const base = signingDomain
    ? /^https?:\/\//.test(signingDomain)
      ? signingDomain
      : `https://${signingDomain}`
    : publicUrl;
  return `${base.replace(/\/+$/, '')}/sign/${token}`;
}
