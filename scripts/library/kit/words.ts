import type { Language } from './look.js';

/** The fixed words of page furniture and signature blocks in each language. */
export interface Words {
  page: string;
  of: string;
  name: string;
  title: string;
  date: string;
  signature: string;
  place: string;
}

export const WORDS: Record<Language, Words> = {
  da: {
    page: 'Side',
    of: 'af',
    name: 'Navn',
    title: 'Titel',
    date: 'Dato',
    signature: 'Underskrift',
    place: 'Sted',
  },
  en: {
    page: 'Page',
    of: 'of',
    name: 'Name',
    title: 'Title',
    date: 'Date',
    signature: 'Signature',
    place: 'Place',
  },
};
