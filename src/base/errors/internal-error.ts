/**
 * The slug of a failure on docpipe's side (a bug, an unreadable library document): spec 7.2 gives
 * 500 a meaning and no slug, and the registry holds only the spec's slugs, so this one is
 * docpipe's own, answered by every v3 surface.
 */
export const INTERNAL_ERROR = 'internal-error';
