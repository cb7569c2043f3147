/** The languages messages are written in; a case in any other language gets English. */
export type MessageLanguage = 'da' | 'en';

export function messageLanguage(language: string): MessageLanguage {
  return language.trim().toLowerCase().split(/[-_]/)[0] === 'da' ? 'da' : 'en';
}

/** A date as people write it in the language (`27. november 2026`, `27 November 2026`). */
export function formatDate(date: Date, language: MessageLanguage, timeZone: string): string {
  const key = `${language} ${timeZone}`;
  let format = FORMATS.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language === 'da' ? 'da-DK' : 'en-GB', {
      dateStyle: 'long',
      timeZone,
    });
    // Two languages and the installation's zone: a handful, kept for the process.
    FORMATS.set(key, format);
  }
  return format.format(date);
}

/** Making a DateTimeFormat costs far more than using one (a percent of delivery's CPU). */
const FORMATS = new Map<string, Intl.DateTimeFormat>();
