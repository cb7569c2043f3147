import { createHash, randomBytes } from 'node:crypto';

/**
 * The random tokens a person's browser holds (a session cookie) or is sent (a link in an
 * e-mail): 256 bits from the system's CSPRNG, base64url. docpipe stores only their SHA-256, so
 * that a copy of the database holds nothing that logs in; a random 256-bit token needs no slow
 * hash (see service/keys' hashToken).
 */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored for `token`. */
export function secretTokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Whether `value` has the shape of a token: anything else is refused before a query. */
export function isSecretToken(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}
