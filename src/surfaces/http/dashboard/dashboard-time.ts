import { utcOffset } from '../../../base/util/index.js';
import type { Language } from '../pages/index.js';

/**
 * Who reads a time: the page's language, and the installation's zone (`DOCPIPE_TIME_ZONE`), the
 * zone the audit trail, the signature stamps and the e-mails write their times in, so that the
 * dashboard and a sealed document's audit page say the same time for the same moment.
 */
export interface TimeReader {
  language: Language;
  timeZone: string;
}

const LOCALES: Record<Language, string> = { da: 'da-DK', en: 'en-GB' };

/** One formatter per language and zone: making an Intl.DateTimeFormat costs far more than using one. */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(language: Language, timeZone: string): Intl.DateTimeFormat {
  const key = `${language} ${timeZone}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALES[language], {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone,
    });
    formats.set(key, format);
  }
  return format;
}

/**
 * `at` as a person reads it: day, month, year and minute in the reader's language and zone, the
 * zone named as its offset from UTC at that moment, as the audit trail names it
 * (`1 Jul 2026, 12:30 UTC+2`; in UTC `2 Dec 2026, 07:27 UTC`).
 */
export function shownTime(reader: TimeReader, at: Date): string {
  return `${formatOf(reader.language, reader.timeZone).format(at)} ${utcOffset(at, reader.timeZone)}`;
}

/** The zone's name, for a time's `title` (`Europe/Copenhagen`). */
export function zoneName(reader: TimeReader): string {
  return reader.timeZone;
}

/** The calendar day `at` falls on in the reader's zone, `YYYY-MM-DD`. */
export function dayOf(reader: TimeReader, at: Date): string {
  // en-CA writes the ISO order; the zone decides the day (a late evening in UTC is tomorrow east).
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: reader.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}
