import type { Language } from '../pages/index.js';

/**
 * The dashboard's times: day, month, year and minute in the page's language, in UTC and saying
 * so (the server does not know the reader's zone, and a time without its zone misleads).
 */
const FORMATS: Record<Language, Intl.DateTimeFormat> = {
  da: new Intl.DateTimeFormat('da-DK', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }),
  en: new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }),
};

/** `at` as a person reads it (`2 Dec 2026, 07:27 UTC`). */
export function shownTime(language: Language, at: Date): string {
  return `${FORMATS[language].format(at)} UTC`;
}
