import type { Words } from './words-en.js';

/** The words of placing signatures on a draft's pages, in Danish: the same keys as words-places-en.ts. */
export const PLACES_DA: Words['places'] = {
  title: 'Placér underskrifter',
};
