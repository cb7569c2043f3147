import { newSecretToken, secretTokenHash } from '../accounts/index.js';

/**
 * A new link token and its SHA-256, the only thing stored: the same 256-bit random tokens as a
 * log-in link's (service/accounts' secret-token.ts), as the link is the person's only credential.
 */
export function newWebflowToken(): { token: string; hash: Buffer } {
  const token = newSecretToken();
  return { token, hash: secretTokenHash(token) };
}

/** What is stored for a link's token. */
export const hashWebflowToken = secretTokenHash;

/** The page where a person answers: `/flow/<token>` under this service's public URL. */
export function webflowUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/flow/${token}`;
}
