import type { FailureDetail } from '../../base/errors/index.js';
import { declarationProblems, type FieldDeclarations } from '../values/index.js';
import { DEFAULT_SNIFF_LIMITS, type SniffLimits } from '../../formats/sniff/index.js';
import {
  DEFAULT_LOCALE,
  checkTimeZone,
  resolveLocale,
  type ResolvedLocale,
} from '../values/index.js';
import { DEFAULT_DELIMITERS, type Delimiters } from './template.js';
import { DEFAULT_VALUE_LIMITS, valueLimitsProblems, type ValueLimits } from '../values/index.js';

export interface FillOptions {
  /**
   * Locale for month names, boolean words and number marks (`45.250,50` in `da`).
   * @defaultValue 'da'
   */
  locale?: string;
  /**
   * Time zone that date-times with an offset are shown in.
   * @defaultValue 'Europe/Copenhagen'
   */
  timeZone?: string;
  /**
   * Tag delimiters; templates in the wild also use `{{tag}}`.
   * @defaultValue { start: '{', end: '}' }
   */
  delimiters?: Delimiters;
  /**
   * Refuse values for tags the template does not have. The renderer also fills a strict
   * document when no values are given, so that each field it shows must have one (library
   * documents are always strict: spec 4.4, rule 2).
   * @defaultValue false
   */
  strict?: boolean;
  /**
   * Path of this document in the request (`documents[0]`), prefixed to every field path.
   * @defaultValue '' (paths start at `tags`)
   */
  field?: string;
  /** Sniff and zip limits. @defaultValue DEFAULT_SNIFF_LIMITS */
  limits?: SniffLimits;
  /** Value sizes and characters; those not given keep their default. @defaultValue DEFAULT_VALUE_LIMITS */
  values?: Partial<ValueLimits>;
  /**
   * The template's declared field types (a library document's `document.json`): a TagInput of
   * another type is refused, a declared format is used when the TagInput has none, and a list's
   * plain cells take their column's type. @defaultValue none: every TagInput says its own type
   */
  fields?: FieldDeclarations;
}

export interface ResolvedFillOptions {
  locale: ResolvedLocale;
  timeZone: string;
  delimiters: Delimiters;
  strict: boolean;
  field: string;
  tagsField: string;
  templateField: string;
  limits: SniffLimits;
  values: ValueLimits;
  /** Declared field types; undefined when none were given or they had problems. */
  fields: FieldDeclarations | undefined;
}

export const DEFAULT_TIME_ZONE = 'Europe/Copenhagen';

/** Fills in defaults and checks every option, reporting all problems together. */
export function resolveFillOptions(options: FillOptions = {}): {
  resolved: ResolvedFillOptions;
  problems: FailureDetail[];
} {
  const problems: FailureDetail[] = [];
  const field = options.field ?? '';
  const asked = resolveLocale(options.locale ?? DEFAULT_LOCALE);
  let locale: ResolvedLocale;
  if (typeof asked === 'string') {
    problems.push({ field: 'locale', message: asked });
    locale = resolveLocale(DEFAULT_LOCALE) as ResolvedLocale;
  } else locale = asked;
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const zoneProblem = checkTimeZone(timeZone);
  if (zoneProblem) problems.push({ field: 'timeZone', message: zoneProblem });
  const delimiters = options.delimiters ?? DEFAULT_DELIMITERS;
  if (!delimiters.start || !delimiters.end) {
    problems.push({
      field: 'delimiters',
      message: 'start and end delimiters must both be non-empty',
    });
  }
  const given = Object.entries(options.values ?? {}).filter(([, v]) => v !== undefined);
  let values: ValueLimits = { ...DEFAULT_VALUE_LIMITS, ...Object.fromEntries(given) };
  const valueProblems = valueLimitsProblems(values);
  for (const p of valueProblems) problems.push({ field: `values.${p.key}`, message: p.message });
  if (valueProblems.length > 0) values = DEFAULT_VALUE_LIMITS;
  const declared = options.fields === undefined ? [] : declarationProblems(options.fields);
  problems.push(...declared);
  return {
    resolved: {
      locale,
      timeZone: zoneProblem ? DEFAULT_TIME_ZONE : timeZone,
      delimiters,
      strict: options.strict ?? false,
      field,
      tagsField: field ? `${field}.tags` : 'tags',
      templateField: field || 'template',
      limits: options.limits ?? DEFAULT_SNIFF_LIMITS,
      values,
      fields: declared.length > 0 ? undefined : options.fields,
    },
    problems,
  };
}

/** Parses `{{ }}`-style delimiter text from a CLI flag or config: start and end, space-separated. */
export function parseDelimiters(text: string): Delimiters | undefined {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { start: parts[0], end: parts[1] };
}
