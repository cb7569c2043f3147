/**
 * Dates and times as the people reading a case write them: one style per language for every
 * place docpipe shows one to a person (the signing page, the e-mails and SMS, the date stamped
 * at a signature and the audit trail), so that a case never reads "December 31, 2026" on one
 * page and `2026-12-31` on the next. A time always says its zone.
 */

/** The languages docpipe writes for people in; any other case language is written in English. */
export type WrittenLanguage = 'da' | 'en';

/** `da` for `da`, `da-DK`, `DA_dk`; `en` for everything else. */
export function writtenLanguage(language: string | null | undefined): WrittenLanguage {
  return (language ?? '').trim().toLowerCase().split(/[-_]/)[0] === 'da' ? 'da' : 'en';
}

/** Danish as Danes write it (`31. december 2026`, `kl. 14.05`); British English (`31 December 2026`, `14:05`). */
const LOCALES: Record<WrittenLanguage, string> = { da: 'da-DK', en: 'en-GB' };

/** The day `date` falls on in `timeZone`: `31. december 2026`, `31 December 2026`. */
export function writtenDate(date: Date, language: WrittenLanguage, timeZone: string): string {
  return formatter(`date ${language} ${timeZone}`, () => ({
    locale: LOCALES[language],
    options: { dateStyle: 'long', timeZone },
  })).format(date);
}

/**
 * The day and the time in `timeZone`, the zone written as its offset from UTC at that moment
 * (which a reader anywhere can convert, and which says whether summer time applied):
 * `31. december 2026 kl. 14.05 (UTC+1)`, `31 December 2026 at 14:05 (UTC+1)`. With `seconds`
 * the time has them (the audit trail's record of when a signer acted).
 */
export function writtenDateTime(
  date: Date,
  language: WrittenLanguage,
  timeZone: string,
  options: { seconds?: boolean } = {},
): string {
  const seconds = options.seconds === true;
  const time = formatter(`time ${language} ${timeZone} ${seconds}`, () => ({
    locale: LOCALES[language],
    options: {
      hour: '2-digit',
      minute: '2-digit',
      ...(seconds ? { second: '2-digit' } : {}),
      hourCycle: 'h23',
      timeZone,
    },
  })).format(date);
  const day = writtenDate(date, language, timeZone);
  const zone = utcOffset(date, timeZone);
  return language === 'da' ? `${day} kl. ${time} (${zone})` : `${day} at ${time} (${zone})`;
}

/** `UTC`, `UTC+1`, `UTC-3:30`: how far `timeZone`'s clocks were from UTC at `date`. */
export function utcOffset(date: Date, timeZone: string): string {
  const parts = formatter(`offset ${timeZone}`, () => ({
    locale: 'en-GB',
    options: {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZone,
    },
  })).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  const minutes = Math.round((wall - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
  if (minutes === 0) return 'UTC';
  const sign = minutes > 0 ? '+' : '-';
  const hours = Math.floor(Math.abs(minutes) / 60);
  const rest = Math.abs(minutes) % 60;
  return `UTC${sign}${hours}${rest === 0 ? '' : `:${String(rest).padStart(2, '0')}`}`;
}

/**
 * Making a DateTimeFormat costs far more than using one (a percent of delivery's CPU): two
 * languages, a few kinds and the installation's zone are a handful, kept for the process.
 */
const FORMATS = new Map<string, Intl.DateTimeFormat>();

function formatter(
  key: string,
  make: () => { locale: string; options: Intl.DateTimeFormatOptions },
): Intl.DateTimeFormat {
  let format = FORMATS.get(key);
  if (!format) {
    const { locale, options } = make();
    format = new Intl.DateTimeFormat(locale, options);
    FORMATS.set(key, format);
  }
  return format;
}
