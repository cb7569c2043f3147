import { randomBytes } from 'node:crypto';

/** 32 random bytes: HMAC-SHA256's block of key material, and more than can be guessed. */
const SECRET_BYTES = 32;

/** A new signing secret for a webhook (on adding it, and on rotating it). */
export function newWebhookSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}
