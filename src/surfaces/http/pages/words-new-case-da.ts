import type { Words } from './words-en.js';

/** The words of the New case form (/dashboard/cases/new), in Danish: the same keys as words-new-case-en.ts. */
export const NEW_CASE_DA: Words['newCase'] = {
  title: 'Ny sag',
};
