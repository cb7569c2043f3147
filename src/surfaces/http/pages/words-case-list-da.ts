import type { Words } from './words-en.js';

/** The words of the case list (/dashboard/cases), in Danish: the same keys as words-case-list-en.ts. */
export const CASE_LIST_DA: Words['caseList'] = {
  title: 'Sager',
};
