import { createHmac, timingSafeEqual } from 'node:crypto';

/** The headers docpipe sets on every delivery; a webhook's own headers cannot replace them. */
export const SIGNATURE_HEADER = 'X-Docpipe-Signature';
export const TIMESTAMP_HEADER = 'X-Docpipe-Timestamp';
export const EVENT_HEADER = 'X-Docpipe-Event';
export const DELIVERY_HEADER = 'X-Docpipe-Delivery';

/** How old a signed timestamp a receiver should accept (docs/webhooks.md): five minutes. */
export const SIGNATURE_TOLERANCE_S = 300;

/**
 * `sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`, DocuSeal's and Stripe's scheme: the
 * timestamp is signed with the body, so a recorded request cannot be replayed later unnoticed.
 */
export function signatureOf(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * Whether `signature` is this body's at this timestamp, and the timestamp within the tolerance
 * of `nowS`: what a receiver checks, here for tests and for the docs' snippet to agree with.
 */
export function verifySignature(
  secret: string,
  timestamp: string,
  body: string,
  signature: string,
  nowS: number = Math.floor(Date.now() / 1000),
  toleranceS: number = SIGNATURE_TOLERANCE_S,
): boolean {
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowS - Number(timestamp)) > toleranceS) return false;
  const expected = Buffer.from(signatureOf(secret, Number(timestamp), body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
