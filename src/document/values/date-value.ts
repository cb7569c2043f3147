import { memoizeByString } from './memoize.js';
import { previewValue } from './value-preview.js';
/** A calendar date with an optional wall-clock time, already in the output time zone. */
export interface CalendarDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  hasTime: boolean;
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The years a date may fall in. Formats print four-digit years (`YYYY`), and year 0 and before
 * would need an era that no format prints: such a date would be printed wrong.
 */
export const FIRST_YEAR = 1;
export const LAST_YEAR = 9999;

/**
 * Parses an ISO 8601 date (`2025-03-05`) or date-time. A date-time with an offset (`Z`,
 * `+01:00`) is moved into the output time zone; without one it is taken as wall-clock time.
 * Returns a problem sentence when the value is not such a date, or when it falls outside the
 * years 1 to 9999 (`9999-12-31T23:30:00-05:00` is in the year 10000 in Copenhagen).
 */
export function parseDateValue(value: unknown, timeZone: string): CalendarDateTime | string {
  const shown = previewValue(value);
  if (typeof value !== 'string')
    return `${shown} is not a date; send an ISO 8601 date string such as 2025-03-05`;
  const m = ISO.exec(value.trim());
  if (!m) return `${shown} is not an ISO 8601 date (YYYY-MM-DD, optionally with a time)`;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const hasTime = m[4] !== undefined;
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return `${shown} is not a date that exists`;
  }
  if (hour > 23 || minute > 59 || second > 59) return `${shown} has an impossible time of day`;
  const offset = m[7];
  let date: CalendarDateTime = { year, month, day, hour, minute, second, hasTime };
  if (offset) {
    const instant = Date.parse(value.trim().replace(' ', 'T'));
    if (Number.isNaN(instant)) return `${shown} is not a valid date-time`;
    date = { ...inTimeZone(instant, timeZone), hasTime: true };
  }
  if (date.year < FIRST_YEAR || date.year > LAST_YEAR) {
    return (
      `${shown} falls in the year ${date.year}${offset ? ` in ${timeZone}` : ''}; ` +
      `dates must fall in the years ${FIRST_YEAR} to ${LAST_YEAR}`
    );
  }
  return date;
}

/**
 * Milliseconds since 1970 of a UTC calendar time, for any year: Date.UTC reads years 0 to 99 as
 * 1900 to 1999, which would print 0025-03-05 as 1925 and give it 1925's weekday.
 */
function utcTime(year: number, month: number, day: number, hour = 0, minute = 0, second = 0) {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

function daysInMonth(year: number, month: number): number {
  return new Date(utcTime(year, month + 1, 0)).getUTCDate();
}

const zoneFormatters = new Map<string, Intl.DateTimeFormat>();

function inTimeZone(instant: number, timeZone: string): Omit<CalendarDateTime, 'hasTime'> {
  let formatter = zoneFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      // Years count by era (1 BC, then AD 1); the era tells year 0 and before apart.
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    zoneFormatters.set(timeZone, formatter);
  }
  const parts: Record<string, number> = {};
  let beforeChrist = false;
  for (const p of formatter.formatToParts(instant)) {
    if (p.type === 'era') beforeChrist = p.value === 'BC';
    else if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: beforeChrist ? 1 - parts.year! : parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

type DateToken =
  | 'YYYY'
  | 'YY'
  | 'MMMM'
  | 'MMM'
  | 'MM'
  | 'M'
  | 'DD'
  | 'D'
  | 'dddd'
  | 'ddd'
  | 'HH'
  | 'H'
  | 'hh'
  | 'h'
  | 'mm'
  | 'ss'
  | 'A';

/** Longest first, so that `MMMM` is not read as `MM` twice. */
const TOKENS: readonly DateToken[] = [
  'YYYY',
  'YY',
  'MMMM',
  'MMM',
  'MM',
  'M',
  'DD',
  'D',
  'dddd',
  'ddd',
  'HH',
  'H',
  'hh',
  'h',
  'mm',
  'ss',
  'A',
];

export type DateFormat = ReadonlyArray<{ token: DateToken } | { literal: string }>;

/**
 * Compiles a date format such as `DD-MM-YYYY` or `D. MMMM YYYY`. Letters outside the tokens must
 * sit in square brackets (`[kl.] HH:mm`), so that a typo is an error and not silent text.
 * Returns a problem sentence for a bad format.
 */
export const compileDateFormat: (format: string) => DateFormat | string = memoizeByString(compile);

function compile(format: string): DateFormat | string {
  if (format.trim() === '') return 'date format is empty';
  const shown = previewValue(format);
  const out: ({ token: DateToken } | { literal: string })[] = [];
  let i = 0;
  while (i < format.length) {
    const c = format[i]!;
    if (c === '[') {
      const close = format.indexOf(']', i + 1);
      if (close === -1) return `date format ${shown} has an unclosed "[" at position ${i + 1}`;
      out.push({ literal: format.slice(i + 1, close) });
      i = close + 1;
      continue;
    }
    const token = TOKENS.find((t) => format.startsWith(t, i));
    if (token) {
      out.push({ token });
      i += token.length;
      continue;
    }
    if (/\p{L}/u.test(c)) {
      return `date format ${shown} has an unknown token "${c}" at position ${i + 1}; put literal text in [brackets]`;
    }
    out.push({ literal: c });
    i++;
  }
  if (!out.some((p) => 'token' in p)) return `date format ${shown} has no date tokens`;
  return out;
}

interface LocaleNames {
  months: string[];
  monthsShort: string[];
  weekdays: string[];
  weekdaysShort: string[];
}

const namesCache = new Map<string, LocaleNames>();

/**
 * Month and weekday names in their formatting form (as they appear next to a day number),
 * which some languages inflect differently from the stand-alone form.
 */
function localeNames(locale: string): LocaleNames {
  let names = namesCache.get(locale);
  if (names) return names;
  const part = (options: Intl.DateTimeFormatOptions, type: string, at: number): string =>
    new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' })
      .formatToParts(at)
      .find((p) => p.type === type)?.value ?? '';
  const months: string[] = [];
  const monthsShort: string[] = [];
  for (let m = 0; m < 12; m++) {
    const at = Date.UTC(2021, m, 15);
    months.push(part({ day: 'numeric', month: 'long' }, 'month', at));
    monthsShort.push(part({ day: 'numeric', month: 'short' }, 'month', at));
  }
  const weekdays: string[] = [];
  const weekdaysShort: string[] = [];
  // 2021-02-07 was a Sunday: index 0 is Sunday, as getUTCDay counts.
  for (let d = 0; d < 7; d++) {
    const at = Date.UTC(2021, 1, 7 + d);
    weekdays.push(part({ weekday: 'long' }, 'weekday', at));
    weekdaysShort.push(part({ weekday: 'short' }, 'weekday', at));
  }
  names = { months, monthsShort, weekdays, weekdaysShort };
  namesCache.set(locale, names);
  return names;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

export function formatDate(value: CalendarDateTime, format: DateFormat, locale: string): string {
  const names = localeNames(locale);
  const weekday = new Date(utcTime(value.year, value.month, value.day)).getUTCDay();
  const hour12 = value.hour % 12 === 0 ? 12 : value.hour % 12;
  let out = '';
  for (const piece of format) {
    if ('literal' in piece) {
      out += piece.literal;
      continue;
    }
    switch (piece.token) {
      case 'YYYY':
        out += pad(value.year, 4);
        break;
      case 'YY':
        out += pad(value.year % 100, 2);
        break;
      case 'MMMM':
        out += names.months[value.month - 1];
        break;
      case 'MMM':
        out += names.monthsShort[value.month - 1];
        break;
      case 'MM':
        out += pad(value.month, 2);
        break;
      case 'M':
        out += String(value.month);
        break;
      case 'DD':
        out += pad(value.day, 2);
        break;
      case 'D':
        out += String(value.day);
        break;
      case 'dddd':
        out += names.weekdays[weekday];
        break;
      case 'ddd':
        out += names.weekdaysShort[weekday];
        break;
      case 'HH':
        out += pad(value.hour, 2);
        break;
      case 'H':
        out += String(value.hour);
        break;
      case 'hh':
        out += pad(hour12, 2);
        break;
      case 'h':
        out += String(hour12);
        break;
      case 'mm':
        out += pad(value.minute, 2);
        break;
      case 'ss':
        out += pad(value.second, 2);
        break;
      case 'A':
        out += value.hour < 12 ? 'AM' : 'PM';
        break;
    }
  }
  return out;
}

/** Without a format: the locale's long date (`5. marts 2025`), with the time when one was given. */
export function formatDateDefault(value: CalendarDateTime, locale: string): string {
  const at = utcTime(value.year, value.month, value.day, value.hour, value.minute, value.second);
  return new Intl.DateTimeFormat(locale, {
    timeZone: 'UTC',
    dateStyle: 'long',
    ...(value.hasTime ? { timeStyle: 'short' as const } : {}),
  }).format(at);
}
