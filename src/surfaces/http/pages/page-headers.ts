/**
 * The headers of every page a person sees. The Content-Security-Policy allows scripts and styles
 * from docpipe only, never inline (no `unsafe-inline`, no `unsafe-eval`: htmx is configured not
 * to evaluate), images from docpipe and `data:` (a logo preview), forms posting to docpipe only,
 * and no framing (clickjacking). Pages hold a person's data: never cached.
 */
export const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
} as const;
