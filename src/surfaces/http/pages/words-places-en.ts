/**
 * The words of placing signatures on a draft's pages, in English: the `places` section of words-en.ts, in a file of its own so
 * that each area's pages and words change together. words-places-da.ts has the same keys (its type
 * is this one's).
 */
export const PLACES_EN = {
  title: 'Place signatures',
} as const;
