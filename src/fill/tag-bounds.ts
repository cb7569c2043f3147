import type { FailureDetail } from '../errors/index.js';
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
 */
export class TagListBounds {
  private used = 0;
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
    const measured = measure(item, this.limits.maxTagsChars - this.used);
    if (measured.tooDeep !== undefined) {
      const where = measured.tooDeep === '' ? at : `${at}.${measured.tooDeep}`;
      problems.push({
        field: where,
        message: `${label}: nested more than ${MAX_TAG_NESTING} levels deep; a value is text, a number, a date or a boolean`,
      });
    }
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
  /** The item's key under which nesting went too deep (`''` for the item itself). */
  tooDeep: string | undefined;
}

/**
 * Walks an item with an explicit stack: each node costs at least one character and children are
 * taken only while the budget lasts, so a walk never visits more nodes than the budget allows,
 * however wide or deep the value.
 */
function measure(item: unknown, budget: number): Measured {
  const state = { chars: 0, tooDeep: undefined as string | undefined };
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
  state: { chars: number },
  budget: number,
): void {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length && state.chars <= budget; i++) {
      state.chars += 1;
      stack.push({ node: node[i] as unknown, depth: depth + 1, key: key ?? '' });
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
