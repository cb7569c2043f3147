import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes: the link is the person's only credential. */
const TOKEN_BYTES = 32;

/** A new link token (base64url, in the link only) and its SHA-256 (the only thing stored). */
export function newWebflowToken(): { token: string; hash: Buffer } {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, hash: hashWebflowToken(token) };
}

export function hashWebflowToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** The page where a person answers: `/flow/<token>` under this service's public URL. */
export function webflowUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/flow/${token}`;
}
