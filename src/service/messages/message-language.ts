import { writtenDate, writtenLanguage, type WrittenLanguage } from '../../base/util/index.js';

/** The languages messages are written in; a case in any other language gets English. */
export type MessageLanguage = WrittenLanguage;

export function messageLanguage(language: string): MessageLanguage {
  return writtenLanguage(language);
}

/**
 * A date as people write it in the language (`27. november 2026`, `27 November 2026`): the one
 * style the signing page and the sealed documents write too (base/util written-date.ts).
 */
export function formatDate(date: Date, language: MessageLanguage, timeZone: string): string {
  return writtenDate(date, language, timeZone);
}
