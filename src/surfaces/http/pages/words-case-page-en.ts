/**
 * The words of a case's page (/dashboard/cases/{id}) and its actions, in English: the `casePage` section of words-en.ts, in a file of its own so
 * that each area's pages and words change together. words-case-page-da.ts has the same keys (its type
 * is this one's).
 */
export const CASE_PAGE_EN = {
  title: 'Case {title}',
} as const;
