/**
 * The words of the case list (/dashboard/cases), in English: the `caseList` section of words-en.ts, in a file of its own so
 * that each area's pages and words change together. words-case-list-da.ts has the same keys (its type
 * is this one's).
 */
export const CASE_LIST_EN = {
  title: 'Cases',
} as const;
