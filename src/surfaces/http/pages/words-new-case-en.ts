/**
 * The words of the New case form (/dashboard/cases/new), in English: the `newCase` section of words-en.ts, in a file of its own so
 * that each area's pages and words change together. words-new-case-da.ts has the same keys (its type
 * is this one's).
 */
export const NEW_CASE_EN = {
  title: 'New case',
} as const;
