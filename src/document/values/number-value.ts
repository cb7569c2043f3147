import { memoizeByString } from './memoize.js';
import { previewValue } from './value-preview.js';
/** A number as an exact decimal string (`-45250.5`), so that no digit is lost to floating point. */
export type Decimal = string;

const DECIMAL = /^[+-]?\d+(\.\d+)?$/;

/**
 * Accepts a JSON number or a plain decimal string with `.` as the decimal point. Locale-formatted
 * strings (`45.250,50`) are refused: which mark is the decimal one cannot be known.
 */
export function parseNumberValue(value: unknown): Decimal {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return `${previewValue(value)} is not a finite number`;
    return numberToDecimal(value);
  }
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (DECIMAL.test(trimmed)) return trimmed.replace(/^\+/, '');
  }
  return `${previewValue(value)} is not a number; send a JSON number or a decimal string such as 45250.50`;
}

/**
 * Most digits before the decimal point a number is printed with. Contract amounts have far
 * fewer; past this a value is a mistake (1e308 would print 309 digits), and Intl.NumberFormat
 * prints a decimal string beyond the range of doubles as "∞".
 */
export const MAX_INTEGER_DIGITS = 30;

/** Why a number cannot be printed with a format (too many digits), or undefined. */
export function numberRangeProblem(
  value: Decimal,
  format: NumberFormat | undefined,
): string | undefined {
  const scaled = format?.percent ? timesHundred(value) : value;
  const integer = scaled
    .replace(/^-/, '')
    .split('.')[0]!
    .replace(/^0+(?=\d)/, '');
  if (integer.length <= MAX_INTEGER_DIGITS) return undefined;
  return (
    `has ${integer.length} digits before the decimal point${format?.percent ? ' as a percentage' : ''}; ` +
    `numbers are printed with at most ${MAX_INTEGER_DIGITS}`
  );
}

/**
 * A JSON number as the decimal it was written as: JavaScript's shortest form (`1e+27`) with the
 * exponent moved into the digits. BigInt(1e27) would give the double's binary expansion,
 * 1000000000000000013287555072, which is not what was sent.
 */
function numberToDecimal(n: number): Decimal {
  const s = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign = '', lead = '', rest = '', exponent = '0'] = m;
  const digits = lead + rest;
  const point = 1 + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Moves the decimal point two places right, exactly: a percent pattern shows 0.125 as 12.5. */
function timesHundred(d: Decimal): Decimal {
  const negative = d.startsWith('-');
  const [int = '0', frac = ''] = (negative ? d.slice(1) : d).split('.');
  const padded = frac.padEnd(2, '0');
  const newInt = (int + padded.slice(0, 2)).replace(/^0+(?=\d)/, '');
  const newFrac = padded.slice(2);
  return (negative ? '-' : '') + newInt + (newFrac ? `.${newFrac}` : '');
}

export interface NumberFormat {
  prefix: string;
  suffix: string;
  minInteger: number;
  minFraction: number;
  maxFraction: number;
  grouping: boolean;
  percent: boolean;
}

/**
 * Compiles a number pattern such as `#,##0.00`, `0.0##`, `#,##0 kr.` or `0.0 %`. `0` is a digit
 * always shown, `#` a digit shown when needed, `,` turns on grouping and `.` separates the
 * fraction; the marks printed follow the locale. Text around the number is kept; quote it
 * (`'#'`) to print a pattern character. `%` multiplies by 100.
 */
export const compileNumberFormat: (format: string) => NumberFormat | string =
  memoizeByString(compile);

function compile(pattern: string): NumberFormat | string {
  if (pattern.trim() === '') return 'number format is empty';
  const p = previewValue(pattern);
  // Split into quoted literals and pattern text first, so that quoted '#' stays text.
  const pieces: { text: string; quoted: boolean }[] = [];
  let i = 0;
  while (i < pattern.length) {
    if (pattern[i] === "'") {
      if (pattern[i + 1] === "'") {
        pieces.push({ text: "'", quoted: true });
        i += 2;
        continue;
      }
      const close = pattern.indexOf("'", i + 1);
      if (close === -1) return `number format ${p} has an unclosed quote at position ${i + 1}`;
      pieces.push({ text: pattern.slice(i + 1, close), quoted: true });
      i = close + 1;
    } else {
      const next = pattern.indexOf("'", i);
      const end = next === -1 ? pattern.length : next;
      pieces.push({ text: pattern.slice(i, end), quoted: false });
      i = end;
    }
  }
  let prefix = '';
  let suffix = '';
  let core = '';
  let percent = false;
  for (const piece of pieces) {
    if (piece.quoted) {
      if (core) suffix += piece.text;
      else prefix += piece.text;
      continue;
    }
    let text = piece.text;
    if (text.includes('%')) percent = true;
    if (!core) {
      const m = /[#0][#0,]*(?:\.[#0]+)?/.exec(text);
      if (m) {
        prefix += text.slice(0, m.index);
        core = m[0];
        text = text.slice(m.index + m[0].length);
      } else {
        prefix += text;
        continue;
      }
    }
    if (/[#0]/.test(text)) return `number format ${p} has more than one number in it`;
    suffix += text;
  }
  if (!core) return `number format ${p} has no digits (use 0 or #)`;
  const [intPart = '', fracPart = ''] = core.split('.');
  if (intPart.endsWith(',')) return `number format ${p} ends its integer part with ","`;
  const intDigits = intPart.replace(/,/g, '');
  if (/0#/.test(intDigits)) return `number format ${p}: "#" cannot follow "0" in the integer part`;
  if (/#0/.test(fracPart)) return `number format ${p}: "0" cannot follow "#" in the fraction`;
  const minInteger = (intDigits.match(/0/g) ?? []).length;
  const minFraction = (fracPart.match(/0/g) ?? []).length;
  const maxFraction = fracPart.length;
  if (minInteger > 21 || maxFraction > 20) return `number format ${p} asks for too many digits`;
  return {
    prefix,
    suffix,
    minInteger: Math.max(1, minInteger),
    minFraction,
    maxFraction,
    grouping: intPart.includes(','),
    percent,
  };
}

const intlCache = new Map<string, Intl.NumberFormat>();

function intl(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = intlCache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    intlCache.set(key, f);
  }
  return f;
}

/**
 * Formats exactly: Intl.NumberFormat takes the decimal string itself (no float round trip),
 * rounds half away from zero and prints the locale's grouping and decimal marks.
 */
export function formatNumber(
  value: Decimal,
  format: NumberFormat | undefined,
  locale: string,
): string {
  // Intl.NumberFormat accepts decimal strings exactly; the typings still say number | bigint.
  const exact = (v: Decimal) => v as unknown as number;
  if (!format) return intl(locale, {}).format(exact(value));
  const scaled = format.percent ? timesHundred(value) : value;
  const body = intl(locale, {
    minimumIntegerDigits: format.minInteger,
    minimumFractionDigits: format.minFraction,
    maximumFractionDigits: format.maxFraction,
    useGrouping: format.grouping,
  }).format(exact(scaled));
  return format.prefix + body + format.suffix;
}
