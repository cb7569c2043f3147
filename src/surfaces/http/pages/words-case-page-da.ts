import type { Words } from './words-en.js';

/** The words of a case's page (/dashboard/cases/{id}) and its actions, in Danish: the same keys as words-case-page-en.ts. */
export const CASE_PAGE_DA: Words['casePage'] = {
  title: 'Sag {title}',
};
