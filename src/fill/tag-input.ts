import type { FailureDetail } from '../errors/index.js';
import { compileBooleanFormat, parseBooleanValue } from './boolean-value.js';
import { compileDateFormat, formatDate, formatDateDefault, parseDateValue } from './date-value.js';
import type { ResolvedLocale } from './locale.js';
import { compileNumberFormat, formatNumber, parseNumberValue } from './number-value.js';
import { sanitizeText } from './text-value.js';

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
}

export interface ResolvedTags {
  values: Map<string, ResolvedTag>;
  problems: FailureDetail[];
}

/** Tag names are matched without surrounding spaces: `{ name }` and `{name}` are one tag. */
export function normalizeTagName(name: string): string {
  return name.trim();
}

/**
 * Checks and formats every TagInput, collecting every problem with its field path
 * (`tags[2].format`, `tags[0].value`) instead of stopping at the first. Values are data: they
 * are parsed as their declared type and never evaluated.
 */
export function resolveTagInputs(
  input: unknown,
  context: ValueContext,
  field = 'tags',
): ResolvedTags {
  const values = new Map<string, ResolvedTag>();
  const problems: FailureDetail[] = [];
  if (input === undefined || input === null) return { values, problems };
  if (!Array.isArray(input)) {
    problems.push({ field, message: 'must be an array of {tag, value, type, format}' });
    return { values, problems };
  }
  input.forEach((item: unknown, index) => {
    const at = `${field}[${index}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push({ field: at, message: 'must be an object {tag, value, type, format}' });
      return;
    }
    const problemCount = problems.length;
    for (const key of Object.keys(item)) {
      if (!TAG_INPUT_FIELDS.has(key))
        problems.push({ field: `${at}.${key}`, message: 'unknown field' });
    }
    const { tag, value, type, format } = item as Record<string, unknown>;
    if (typeof tag !== 'string' || normalizeTagName(tag) === '') {
      problems.push({ field: `${at}.tag`, message: 'required: a non-empty string' });
    }
    if (!('value' in item)) problems.push({ field: `${at}.value`, message: 'required' });
    if (typeof type !== 'string' || !(TAG_TYPES as readonly string[]).includes(type)) {
      problems.push({
        field: `${at}.type`,
        message:
          typeof type === 'string'
            ? `unknown type "${type}" (one of ${TAG_TYPES.join(', ')})`
            : `required: one of ${TAG_TYPES.join(', ')}`,
      });
    }
    if (format !== undefined && format !== null && typeof format !== 'string') {
      problems.push({ field: `${at}.format`, message: 'must be a string' });
    }
    const name = typeof tag === 'string' ? normalizeTagName(tag) : '';
    const earlier = name ? values.get(name) : undefined;
    if (earlier) {
      problems.push({
        field: `${at}.tag`,
        message: `"${name}" is given twice (also at ${field}[${earlier.index}])`,
      });
      return;
    }
    // A named value with problems still claims its tag, so that the template check does not
    // also call the tag missing.
    const claim = (text: string, truthy: boolean) => {
      if (name) values.set(name, { tag: name, type: type as TagType, index, text, truthy });
    };
    if (problems.length > problemCount) return claim('', false);
    const resolved = formatValue(
      type as TagType,
      value,
      (format as string | null | undefined) || undefined,
      context,
    );
    for (const p of resolved.problems)
      problems.push({ field: `${at}.${p.on}`, message: p.message });
    claim(resolved.text, resolved.truthy);
  });
  return { values, problems };
}

interface Formatted {
  text: string;
  truthy: boolean;
  problems: { on: 'value' | 'format'; message: string }[];
}

function formatValue(
  type: TagType,
  value: unknown,
  format: string | undefined,
  ctx: ValueContext,
): Formatted {
  const fail = (on: 'value' | 'format', message: string): Formatted => ({
    text: '',
    truthy: false,
    problems: [{ on, message }],
  });
  switch (type) {
    case 'text': {
      if (format !== undefined) return fail('format', 'text values take no format');
      if (value === null) return { text: '', truthy: false, problems: [] };
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
        return fail('value', 'must be a string');
      }
      const text = sanitizeText(String(value));
      return { text, truthy: text !== '', problems: [] };
    }
    case 'number': {
      const compiled = format === undefined ? undefined : compileNumberFormat(format);
      const parsed = parseNumberValue(value);
      const problems: Formatted['problems'] = [];
      if (typeof compiled === 'string') problems.push({ on: 'format', message: compiled });
      if (!/^-?\d/.test(parsed)) problems.push({ on: 'value', message: parsed });
      if (problems.length > 0) return { text: '', truthy: false, problems };
      return {
        text: formatNumber(parsed, compiled as Exclude<typeof compiled, string>, ctx.locale.tag),
        truthy: !/^-?0+(\.0+)?$/.test(parsed),
        problems: [],
      };
    }
    case 'date': {
      const compiled = format === undefined ? undefined : compileDateFormat(format);
      const parsed = parseDateValue(value, ctx.timeZone);
      const problems: Formatted['problems'] = [];
      if (typeof compiled === 'string') problems.push({ on: 'format', message: compiled });
      if (typeof parsed === 'string') problems.push({ on: 'value', message: parsed });
      if (problems.length > 0 || typeof parsed === 'string' || typeof compiled === 'string') {
        return { text: '', truthy: false, problems };
      }
      const text = compiled
        ? formatDate(parsed, compiled, ctx.locale.tag)
        : formatDateDefault(parsed, ctx.locale.tag);
      return { text, truthy: true, problems: [] };
    }
    case 'boolean': {
      const compiled = format === undefined ? undefined : compileBooleanFormat(format);
      const parsed = parseBooleanValue(value);
      const problems: Formatted['problems'] = [];
      if (typeof compiled === 'string') problems.push({ on: 'format', message: compiled });
      if (typeof parsed === 'string') problems.push({ on: 'value', message: parsed });
      if (problems.length > 0 || typeof parsed === 'string' || typeof compiled === 'string') {
        return { text: '', truthy: false, problems };
      }
      const [yes, no] = compiled ? [compiled.yes, compiled.no] : ctx.locale.booleanWords;
      return { text: sanitizeText(parsed ? yes : no), truthy: parsed, problems: [] };
    }
  }
}
