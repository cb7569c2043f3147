import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signing API's CSRF token: an HMAC of the signing token's hash under the server's secret,
 * the same on every server and for the link's whole life, so it needs no storage. The page gets
 * it from the API's load answer (same origin only: the API sends no CORS headers) and sends it
 * back in `X-CSRF-Token`; another site can neither read it nor send that header without a CORS
 * preflight this server never grants, so it cannot make a signer's browser sign or deny.
 */
export function csrfTokenFor(secret: string, signingToken: string): string {
  const tokenHash = createHash('sha256').update(signingToken).digest();
  return createHmac('sha256', secret)
    .update('docpipe signing csrf\0')
    .update(tokenHash)
    .digest('base64url');
}

/** Whether `given` is the CSRF token of `signingToken`, compared in constant time. */
export function csrfTokenMatches(secret: string, signingToken: string, given: unknown): boolean {
  if (typeof given !== 'string' || given.length === 0 || given.length > 128) return false;
  const expected = Buffer.from(csrfTokenFor(secret, signingToken));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
