import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The pages' CSRF defence, two checks on every request that changes something:
 *
 * 1. A token in the form (`_csrf`) or in the `X-CSRF-Token` header (htmx sends it from the
 *    page's `hx-headers`): the HMAC, under the server's secret, of a random value kept in an
 *    HttpOnly cookie. Another site can make a browser send the cookie, but cannot read the page
 *    to learn the token, and cannot compute it without the secret (so a cookie planted by a
 *    sibling domain is no use either).
 * 2. The `Origin` header (or, without it, the `Referer`) names this server's public origin.
 *    Browsers send `Origin` on every cross-origin POST; a request that carries neither is
 *    judged by the token alone.
 *
 * The cookie is set on the first page a browser gets, before any log-in, so that the sign-up
 * and log-in forms are covered too (a login CSRF would log a victim into the attacker's
 * account). It is replaced at log-in.
 */
export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';

export function newCsrfSeed(): string {
  return randomBytes(24).toString('base64url');
}

export function isCsrfSeed(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{32}$/.test(value);
}

/** The token a page puts in its forms for the browser whose cookie holds `seed`. */
export function csrfTokenOf(secret: string, seed: string): string {
  return createHmac('sha256', secret)
    .update('docpipe pages csrf\0')
    .update(seed)
    .digest('base64url');
}

/** Whether `given` is the token of `seed`, compared in constant time. */
export function csrfTokenValid(secret: string, seed: unknown, given: unknown): boolean {
  if (!isCsrfSeed(seed) || typeof given !== 'string' || given.length > 128) return false;
  const expected = Buffer.from(csrfTokenOf(secret, seed));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Whether a request's `Origin` (else `Referer`) is this server's: true when it names
 * `publicOrigin`, false when it names another, undefined when it carries neither.
 */
export function sameOrigin(
  publicOrigin: string,
  origin: string | undefined,
  referer: string | undefined,
): boolean | undefined {
  const claimed = origin ?? referer;
  if (claimed === undefined || claimed === '') return undefined;
  if (claimed === 'null') return false;
  try {
    return new URL(claimed).origin === publicOrigin;
  } catch {
    return false;
  }
}
