import type { FailureDetail } from '../errors/index.js';
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
import { TagListBounds } from './tag-bounds.js';
import { sanitizeText } from './text-value.js';
import { DEFAULT_VALUE_LIMITS, VALUE_LIMIT_VARIABLES, type ValueLimits } from './value-limits.js';
import { previewValue, tagLabel } from './value-preview.js';

export const TAG_TYPES = ['text', 'number', 'date', 'boolean'] as const;
export type TagType = (typeof TAG_TYPES)[number];

/** A tag value as the service's API sends it (spec section 2.1). */
export interface TagInput {
  tag: string;
  value: unknown;
  type: string;
  format?: string | null;
}

const TAG_INPUT_FIELDS = new Set(['tag', 'value', 'type', 'format']);

/** A value ready for the template: its text for placeholders, its truth for sections. */
export interface ResolvedTag {
  tag: string;
  type: TagType;
  /** Position in the input array, for field paths. */
  index: number;
  text: string;
  truthy: boolean;
}

export interface ValueContext {
  locale: ResolvedLocale;
  timeZone: string;
  /** @defaultValue DEFAULT_VALUE_LIMITS */
  values?: ValueLimits;
}

export interface ResolvedTags {
  values: Map<string, ResolvedTag>;
  problems: FailureDetail[];
  /**
   * The list as a whole was refused (too many tags, too many characters): values past that
   * point were not looked at, so the template need not be checked against them.
   */
  refused: boolean;
}

/** Tag names are matched without surrounding spaces: `{ name }` and `{name}` are one tag. */
export function normalizeTagName(name: string): string {
  return name.trim();
}

interface ListState {
  field: string;
  ctx: ValueContext;
  limits: ValueLimits;
  bounds: TagListBounds;
  values: Map<string, ResolvedTag>;
  problems: FailureDetail[];
}

/**
 * Checks and formats every TagInput, collecting every problem with its field path
 * (`tags[2].format`, `tags[0].value`) instead of stopping at the first. Each message names the
 * TagInput and its tag (`tags[13] (pets_allowed): "yes" is not true or false`), so that it says
 * which value it means when read alone. Values are data: they are parsed as their declared type
 * and never evaluated.
 */
export function resolveTagInputs(
  input: unknown,
  context: ValueContext,
  field = 'tags',
): ResolvedTags {
  const values = new Map<string, ResolvedTag>();
  if (input === undefined || input === null) return { values, problems: [], refused: false };
  if (!Array.isArray(input)) {
    const message = 'must be an array of {tag, value, type, format}';
    return { values, problems: [{ field, message }], refused: true };
  }
  const limits = context.values ?? DEFAULT_VALUE_LIMITS;
  const bounds = new TagListBounds(limits, field);
  const problems = bounds.count(input.length);
  const state: ListState = { field, ctx: context, limits, bounds, values, problems };
  for (let index = 0; index < input.length && !bounds.refused; index++)
    resolveItem(state, input[index] as unknown, index);
  return { values, problems, refused: bounds.refused };
}

function resolveItem(state: ListState, item: unknown, index: number): void {
  const { problems, values } = state;
  const at = `${state.field}[${index}]`;
  const bounded = state.bounds.item(item, index);
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    problems.push(...bounded, {
      field: at,
      message: `${at}: ${previewValue(item)} is not a TagInput; send an object {tag, value, type, format}`,
    });
    return;
  }
  const record = item as Record<string, unknown>;
  const label = tagLabel(at, record.tag);
  const { tag, value, type, format } = record;
  const found = [...bounded, ...shapeProblems(record, at, label)];
  const name = typeof tag === 'string' ? normalizeTagName(tag) : '';
  const earlier = name ? values.get(name) : undefined;
  if (earlier) {
    problems.push(...found, {
      field: `${at}.tag`,
      message: `${label}: "${name}" is given twice (also at ${state.field}[${earlier.index}])`,
    });
    return;
  }
  // A named value with problems still claims its tag, so that the template check does not
  // also call the tag missing.
  const claim = (text: string, truthy: boolean) => {
    if (name) values.set(name, { tag: name, type: type as TagType, index, text, truthy });
  };
  if (found.length > 0) {
    problems.push(...found);
    return claim('', false);
  }
  const resolved = formatValue(
    type as TagType,
    value,
    (format as string | null | undefined) || undefined,
    state.ctx,
    state.limits,
  );
  for (const p of resolved.problems)
    problems.push({ field: `${at}.${p.on}`, message: `${label}: ${p.message}` });
  claim(resolved.text, resolved.truthy);
}

function shapeProblems(item: Record<string, unknown>, at: string, label: string): FailureDetail[] {
  const problems: FailureDetail[] = [];
  for (const key of Object.keys(item)) {
    if (!TAG_INPUT_FIELDS.has(key))
      problems.push({
        field: `${at}.${key}`,
        message: `${label}: unknown field ${previewValue(key)} (a TagInput has tag, value, type and format)`,
      });
  }
  const { tag, type, format } = item;
  if (typeof tag !== 'string' || normalizeTagName(tag) === '')
    problems.push({ field: `${at}.tag`, message: `${label}: tag is required: a non-empty string` });
  if (!('value' in item))
    problems.push({
      field: `${at}.value`,
      message: `${label}: value is required (null for an empty text)`,
    });
  if (typeof type !== 'string' || !(TAG_TYPES as readonly string[]).includes(type)) {
    problems.push({
      field: `${at}.type`,
      message:
        typeof type === 'string'
          ? `${label}: unknown type ${previewValue(type)} (one of ${TAG_TYPES.join(', ')})`
          : `${label}: type is required: one of ${TAG_TYPES.join(', ')}`,
    });
  }
  if (format !== undefined && format !== null && typeof format !== 'string')
    problems.push({ field: `${at}.format`, message: `${label}: format must be a string` });
  return problems;
}

interface Formatted {
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
function formatValue(
  type: TagType,
  value: unknown,
  format: string | undefined,
  ctx: ValueContext,
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

function formatByType(
  type: TagType,
  value: unknown,
  format: string | undefined,
  ctx: ValueContext,
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

function formatNumberValue(value: unknown, format: string | undefined, ctx: ValueContext) {
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

function formatDateValue(value: unknown, format: string | undefined, ctx: ValueContext) {
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

function formatBooleanValue(value: unknown, format: string | undefined, ctx: ValueContext) {
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
