import type { FailureDetail } from '../../base/errors/index.js';
import {
  declarationOf,
  declaredTypeMessage,
  FIELD_TYPES,
  type FieldDeclarations,
  type FieldType,
} from './field-declarations.js';
import { formatValue } from './format-value.js';
import type { ResolvedCell } from './list-row.js';
import { resolveList, type ListContext } from './list-value.js';
import type { ResolvedLocale } from './locale.js';
import { TagListBounds } from './tag-bounds.js';
import { TAG_INPUT_MEMBERS } from './tag-input-schema.js';
import { DEFAULT_VALUE_LIMITS, type ValueLimits } from './value-limits.js';
import { previewValue, tagLabel } from './value-preview.js';

export const TAG_TYPES = FIELD_TYPES;
export type TagType = FieldType;

/** A TagInput ready for the template: a {@link ResolvedCell} with its tag and position. */
export interface ResolvedTag extends ResolvedCell {
  tag: string;
  /** Position in the input array, for field paths. */
  index: number;
}

export interface ValueContext {
  locale: ResolvedLocale;
  timeZone: string;
  /** @defaultValue DEFAULT_VALUE_LIMITS */
  values?: ValueLimits;
  /** Declared field types: a TagInput of another type is refused. @defaultValue none */
  fields?: FieldDeclarations;
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
  listContext: ListContext;
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
  const listContext = { locale: context.locale, timeZone: context.timeZone, limits };
  const state: ListState = { field, ctx: context, listContext, limits, bounds, values, problems };
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
  const declared = declarationOf(state.ctx.fields, name);
  if (declared && isTagType(type) && declared.type !== type)
    found.push({
      field: `${at}.type`,
      message: `${label}: ${declaredTypeMessage('this field', declared.type, type)}`,
    });
  // A named value with problems still claims its tag, so that the template check does not
  // also call the tag missing.
  const claim = (cell: ResolvedCell) => {
    // Written out rather than spread: a spread here cost a third of resolving a tag list.
    const { type: as, text, truthy, rows } = cell;
    if (name) values.set(name, { tag: name, index, type: as, text, truthy, rows });
  };
  if (found.length > 0) {
    problems.push(...found);
    return claim(unusable(type));
  }
  const given = (format as string | null | undefined) || undefined;
  if (type === 'list') {
    if (given !== undefined) {
      problems.push({ field: `${at}.format`, message: `${label}: a list takes no format` });
      return claim(unusable(type));
    }
    const place = { field: at, label: name, owner: at };
    const list = resolveList(value, declared, place, state.listContext);
    problems.push(...list.problems);
    return claim(list.cell);
  }
  const scalar = type as Exclude<TagType, 'list'>;
  const resolved = formatValue(scalar, value, given ?? declared?.format, state.ctx, state.limits);
  for (const p of resolved.problems)
    problems.push({
      field: `${at}.${p.on === 'format' && given === undefined ? 'value' : p.on}`,
      message: `${label}: ${p.message}`,
    });
  claim({ type: scalar, text: resolved.text, truthy: resolved.truthy, rows: undefined });
}

/** What a refused value stands as: nothing to show; a list with no rows, so loops stay hidden. */
function unusable(type: unknown): ResolvedCell {
  return type === 'list'
    ? { type: 'list', text: '', truthy: false, rows: [] }
    : { type: 'text', text: '', truthy: false, rows: undefined };
}

function isTagType(type: unknown): type is TagType {
  return typeof type === 'string' && (TAG_TYPES as readonly string[]).includes(type);
}

function shapeProblems(item: Record<string, unknown>, at: string, label: string): FailureDetail[] {
  const problems: FailureDetail[] = [];
  for (const key of Object.keys(item)) {
    if (!TAG_INPUT_MEMBERS.has(key))
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
  if (!isTagType(type)) {
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
