import type { FailureDetail } from '../../base/errors/index.js';
import {
  MAX_TAG_NESTING,
  VALUE_LIMIT_VARIABLES as VARIABLE,
  type ValueLimits,
} from './value-limits.js';
import { previewValue, tagLabel } from './value-preview.js';

/**
 * Checks the sizes and the nesting of a TagInput list before any value is parsed, item by item,
 * without recursion: a request nested 100,000 levels deep is measured on a heap stack and
 * refused, and no item is walked past what the whole list may hold. Once the list passes its
 * limits it is `refused` and nothing after is looked at.
 *
 * A list value's rows count with the TagInputs against `maxTags`: each row repeats a piece of
 * the template, so rows, not characters, are what make a document long. Cells are bounded by
 * the characters (`maxTagsChars`, and `maxValueChars` each).
 */
export class TagListBounds {
  private used = 0;
  /** TagInputs and list rows so far. */
  private counted = 0;
  private refusedList = false;

  constructor(
    private readonly limits: ValueLimits,
    private readonly field: string,
  ) {}

  get refused(): boolean {
    return this.refusedList;
  }

  /** Problems of the list's length. */
  count(length: number): FailureDetail[] {
    this.counted = length;
    if (length <= this.limits.maxTags) return [];
    this.refusedList = true;
    return [
      {
        field: this.field,
        message: `${length} tags; a list may have at most ${this.limits.maxTags} (${VARIABLE.maxTags})`,
      },
    ];
  }

  /** Problems of one item's size and nesting, the list's total included. */
  item(item: unknown, index: number): FailureDetail[] {
    const at = `${this.field}[${index}]`;
    const record = isRecord(item) ? item : undefined;
    const label = tagLabel(at, record?.tag);
    const problems: FailureDetail[] = [];
    const rows = record?.type === 'list' && Array.isArray(record.value) ? record.value.length : 0;
    // A list of 100,000 rows is refused by its length alone, before anything walks it.
    if (this.counted + rows > this.limits.maxTags) return this.tooManyRows(at, label, rows);
    const measured = measure(item, this.limits.maxTagsChars - this.used);
    if (measured.tooDeep !== undefined) {
      const where = measured.tooDeep === '' ? at : `${at}.${measured.tooDeep}`;
      problems.push({
        field: where,
        message:
          record?.type === 'list'
            ? `${label}: nested more than ${MAX_TAG_NESTING} levels deep; a list's rows hold cells, and a cell holds a value or another list`
            : `${label}: nested more than ${MAX_TAG_NESTING} levels deep; a value is text, a number, a date or a boolean`,
      });
    }
    this.counted += measured.rows;
    if (this.counted > this.limits.maxTags) return [...problems, ...this.tooManyRows(at, label)];
    for (const key of ['value', 'format'] as const) {
      const text = record?.[key];
      if (typeof text === 'string' && text.length > this.limits.maxValueChars) {
        problems.push({
          field: `${at}.${key}`,
          message: `${label}: ${key === 'format' ? 'format ' : ''}${previewValue(text)} has ${text.length} characters; a value may have at most ${this.limits.maxValueChars} (${VARIABLE.maxValueChars})`,
        });
      }
    }
    this.used += measured.chars;
    if (this.used > this.limits.maxTagsChars) {
      this.refusedList = true;
      problems.push({
        field: at,
        message: `${label}: the tag list passes its limit of ${this.limits.maxTagsChars} characters here (${VARIABLE.maxTagsChars}); send fewer or shorter values`,
      });
    }
    return problems;
  }

  private tooManyRows(at: string, label: string, rows?: number): FailureDetail[] {
    this.refusedList = true;
    const what =
      rows === undefined ? 'its rows (nested lists included) bring' : `${rows} rows bring`;
    return [
      {
        field: `${at}.value`,
        message: `${label}: ${what} the tag list past ${this.limits.maxTags} TagInputs and list rows together (${VARIABLE.maxTags}); send fewer rows`,
      },
    ];
  }
}

/**
 * Checks a whole TagInput list's sizes and nesting (for the queue's job contract, which must
 * refuse a request before anything recurses into it). Anything but an array is left to the
 * caller's shape check.
 */
export function tagListBoundProblems(
  tags: unknown,
  limits: ValueLimits,
  field: string,
): FailureDetail[] {
  if (!Array.isArray(tags)) return [];
  const bounds = new TagListBounds(limits, field);
  const problems = bounds.count(tags.length);
  for (let i = 0; i < tags.length && !bounds.refused; i++)
    problems.push(...bounds.item(tags[i], i));
  return problems;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Measured {
  /** About the characters the item takes as JSON; stops counting past the budget. */
  chars: number;
  /** Objects held in arrays: a list value's rows, nested lists' rows included. */
  rows: number;
  /** The item's key under which nesting went too deep (`''` for the item itself). */
  tooDeep: string | undefined;
}

/**
 * Walks an item with an explicit stack: each node costs at least one character and children are
 * taken only while the budget lasts, so a walk never visits more nodes than the budget allows,
 * however wide or deep the value.
 */
function measure(item: unknown, budget: number): Measured {
  const state = { chars: 0, rows: 0, tooDeep: undefined as string | undefined };
  const stack: Frame[] = [];
  if (isRecord(item)) {
    state.chars += 2;
    pushChildren(item, 0, undefined, stack, state, budget);
  } else stack.push({ node: item, depth: 0, key: '' });
  while (stack.length > 0 && state.chars <= budget) {
    const { node, depth, key } = stack.pop()!;
    if (typeof node === 'string') state.chars += node.length + 2;
    else if (typeof node !== 'object' || node === null) state.chars += String(node).length;
    else if (depth >= MAX_TAG_NESTING) {
      state.tooDeep ??= key;
      state.chars += 2;
    } else {
      state.chars += 2;
      pushChildren(node, depth, key, stack, state, budget);
    }
  }
  return state;
}

interface Frame {
  node: unknown;
  depth: number;
  key: string;
}

/** Children of an object or array; `key` undefined means they are the item's own fields. */
function pushChildren(
  node: object,
  depth: number,
  key: string | undefined,
  stack: Frame[],
  state: { chars: number; rows: number },
  budget: number,
): void {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length && state.chars <= budget; i++) {
      state.chars += 1;
      const child = node[i] as unknown;
      if (isRecord(child)) state.rows += 1;
      stack.push({ node: child, depth: depth + 1, key: key ?? '' });
    }
    return;
  }
  for (const name in node) {
    if (state.chars > budget) return;
    if (!Object.hasOwn(node, name)) continue;
    state.chars += name.length + 4;
    stack.push({
      node: (node as Record<string, unknown>)[name],
      depth: depth + 1,
      key: key ?? name,
    });
  }
}
