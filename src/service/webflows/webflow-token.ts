import { createHmac, randomUUID } from 'node:crypto';
import { secretTokenHash } from '../accounts/index.js';

/**
 * The link token of a flow's person, derived from the installation's signing secret and the
 * person's id, as a case's signing token is (service/cases' signingTokenFor) but under a key of
 * its own (the secret's HMAC of another label), so that a flow's token is never a signing token
 * or a signed URL's signature. The database keeps only its SHA-256; the invitation a worker
 * sends and a reminder days later write the same link again where the secret is. Without the
 * secret, a stolen database gives no link.
 */
export function webflowTokenFor(
  secret: string,
  recipientId: string,
): { token: string; hash: Buffer } {
  const key = createHmac('sha256', secret).update('docpipe webflow token v1').digest();
  const token = createHmac('sha256', key).update(recipientId, 'utf8').digest('base64url');
  return { token, hash: secretTokenHash(token) };
}

/** A new person's id, made before the row so that its token can be stored with it. */
export const newWebflowRecipientId = (): string => randomUUID();

/** What is stored for a link's token: its SHA-256, as for every other link token. */
export const hashWebflowToken = secretTokenHash;

/** The page where a person answers: `/flow/<token>` under this service's public URL. */
export function webflowUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/flow/${token}`;
}
