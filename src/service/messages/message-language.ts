/** The languages messages are written in; a case in any other language gets English. */
export type MessageLanguage = 'da' | 'en';

export function messageLanguage(language: string): MessageLanguage {
  return language.trim().toLowerCase().split(/[-_]/)[0] === 'da' ? 'da' : 'en';
}

/** A date as people write it in the language (`27. november 2026`, `27 November 2026`). */
export function formatDate(date: Date, language: MessageLanguage, timeZone: string): string {
  return new Intl.DateTimeFormat(language === 'da' ? 'da-DK' : 'en-GB', {
    dateStyle: 'long',
    timeZone,
  }).format(date);
}
