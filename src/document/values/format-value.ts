import { bidiControlProblem } from './bidi.js';
import { compileBooleanFormat, parseBooleanValue } from './boolean-value.js';
import { compileDateFormat, formatDate, formatDateDefault, parseDateValue } from './date-value.js';
import type { ResolvedLocale } from './locale.js';
import {
  compileNumberFormat,
  formatNumber,
  numberRangeProblem,
  parseNumberValue,
} from './number-value.js';
import { sanitizeText } from './text-value.js';
import { VALUE_LIMIT_VARIABLES, type ValueLimits } from './value-limits.js';
import { previewValue } from './value-preview.js';

/** The types a single value (a TagInput or a list's cell) may have; `list` is not formatted. */
export type ScalarType = 'text' | 'number' | 'date' | 'boolean';

export interface FormatContext {
  locale: ResolvedLocale;
  timeZone: string;
}

export interface Formatted {
  text: string;
  truthy: boolean;
  problems: { on: 'value' | 'format'; message: string }[];
}

const fail = (on: 'value' | 'format', message: string): Formatted => ({
  text: '',
  truthy: false,
  problems: [{ on, message }],
});

/**
 * Formats a value by its type, then checks what it became: no bidi controls, from the value or
 * from any text a format adds (a boolean's words, a number's or a date's literal text), and no
 * more characters than a value may have.
 */
export function formatValue(
  type: ScalarType,
  value: unknown,
  format: string | undefined,
  ctx: FormatContext,
  limits: ValueLimits,
): Formatted {
  if (!limits.allowBidiControls) {
    const inFormat = format === undefined ? undefined : bidiControlProblem(format);
    if (inFormat) return fail('format', `format ${inFormat}`);
    const inValue = typeof value === 'string' ? bidiControlProblem(value) : undefined;
    if (inValue) return fail('value', inValue);
  }
  const formatted = formatByType(type, value, format, ctx);
  if (formatted.problems.length > 0) return formatted;
  const on = format === undefined ? 'value' : 'format';
  const inText = limits.allowBidiControls ? undefined : bidiControlProblem(formatted.text);
  if (inText) return fail(on, `formatted, it ${inText}`);
  if (formatted.text.length > limits.maxValueChars) {
    return fail(
      on,
      `formatted, it has ${formatted.text.length} characters; a value may have at most ${limits.maxValueChars} (${VALUE_LIMIT_VARIABLES.maxValueChars})`,
    );
  }
  return formatted;
}

/** What is wrong with a format for a type, or undefined when it compiles. */
export function formatProblem(type: ScalarType, format: string): string | undefined {
  switch (type) {
    case 'text':
      return 'text values take no format';
    case 'number': {
      const compiled = compileNumberFormat(format);
      return typeof compiled === 'string' ? compiled : undefined;
    }
    case 'date': {
      const compiled = compileDateFormat(format);
      return typeof compiled === 'string' ? compiled : undefined;
    }
    case 'boolean': {
      const compiled = compileBooleanFormat(format);
      return typeof compiled === 'string' ? compiled : undefined;
    }
  }
}

function formatByType(
  type: ScalarType,
  value: unknown,
  format: string | undefined,
  ctx: FormatContext,
): Formatted {
  switch (type) {
    case 'text':
      return formatText(value, format);
    case 'number':
      return formatNumberValue(value, format, ctx);
    case 'date':
      return formatDateValue(value, format, ctx);
    case 'boolean':
      return formatBooleanValue(value, format, ctx);
  }
}

function formatText(value: unknown, format: string | undefined): Formatted {
  if (format !== undefined) return fail('format', 'text values take no format');
  if (value === null) return { text: '', truthy: false, problems: [] };
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
    return fail('value', `${previewValue(value)} is not text; send a string`);
  const text = sanitizeText(String(value));
  return { text, truthy: text !== '', problems: [] };
}

function formatNumberValue(value: unknown, format: string | undefined, ctx: FormatContext) {
  const compiled = format === undefined ? undefined : compileNumberFormat(format);
  const parsed = parseNumberValue(value);
  const problems: Formatted['problems'] = [];
  if (typeof compiled === 'string') problems.push({ on: 'format', message: compiled });
  if (!/^-?\d/.test(parsed)) problems.push({ on: 'value', message: parsed });
  if (problems.length > 0 || typeof compiled === 'string')
    return { text: '', truthy: false, problems };
  const range = numberRangeProblem(parsed, compiled);
  if (range) return fail('value', `${previewValue(value)} ${range}`);
  const text = sanitizeText(formatNumber(parsed, compiled, ctx.locale.tag));
  // Intl prints what it cannot hold as a double as "∞" or "NaN"; never let that through.
  if (/∞|NaN/.test(text))
    return fail('value', `${previewValue(value)} cannot be printed as a number`);
  return { text, truthy: !/^-?0+(\.0+)?$/.test(parsed), problems: [] };
}

function formatDateValue(value: unknown, format: string | undefined, ctx: FormatContext) {
  const compiled = format === undefined ? undefined : compileDateFormat(format);
  const parsed = parseDateValue(value, ctx.timeZone);
  const problems: Formatted['problems'] = [];
  if (typeof compiled === 'string') problems.push({ on: 'format', message: compiled });
  if (typeof parsed === 'string') problems.push({ on: 'value', message: parsed });
  if (typeof parsed === 'string' || typeof compiled === 'string')
    return { text: '', truthy: false, problems };
  const text = compiled
    ? formatDate(parsed, compiled, ctx.locale.tag)
    : formatDateDefault(parsed, ctx.locale.tag);
  return { text: sanitizeText(text), truthy: true, problems: [] };
}

function formatBooleanValue(value: unknown, format: string | undefined, ctx: FormatContext) {
  const compiled = format === undefined ? undefined : compileBooleanFormat(format);
  const parsed = parseBooleanValue(value);
  const problems: Formatted['problems'] = [];
  if (typeof compiled === 'string') problems.push({ on: 'format', message: compiled });
  if (typeof parsed === 'string') problems.push({ on: 'value', message: parsed });
  if (typeof parsed === 'string' || typeof compiled === 'string')
    return { text: '', truthy: false, problems };
  const [yes, no] = compiled ? [compiled.yes, compiled.no] : ctx.locale.booleanWords;
  return { text: sanitizeText(parsed ? yes : no), truthy: parsed, problems: [] };
}
