import type { FailureDetail } from '../../base/errors/index.js';
import { formatProblem } from './format-value.js';
import { MAX_TAG_NESTING } from './value-limits.js';
import { previewValue } from './value-preview.js';

/** The types a field may be declared as: a TagInput's types. */
export const FIELD_TYPES = ['text', 'number', 'date', 'boolean', 'list'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/**
 * What a template declares about its fields (a library document's `document.json` `fields`): the
 * type each value must have, the format used when a TagInput gives none, and for a list the types
 * of its columns. A declaration is a contract with the caller: a TagInput of another type is
 * refused, so a date is never shown as the text the caller happened to send.
 */
export interface FieldDeclaration {
  type: FieldType;
  /** Format used when the TagInput (or a list cell) has none. */
  format?: string;
  /** For `list`: each member's fields (columns), by name. */
  columns?: Record<string, FieldDeclaration>;
  /** What the field means, for `fields` and template authors. */
  description?: string;
}

/** Declarations by tag name. */
export type FieldDeclarations = Record<string, FieldDeclaration>;

/** The declaration of `name`, never one of Object's own members (`constructor`). */
export function declarationOf(
  fields: FieldDeclarations | undefined,
  name: string,
): FieldDeclaration | undefined {
  return fields !== undefined && Object.hasOwn(fields, name) ? fields[name] : undefined;
}

/**
 * What to say of a value sent as another type than `what` (`this field`, `the column
 * lines[].amount`) is declared; the caller puts the TagInput's label before it.
 */
export function declaredTypeMessage(what: string, declared: FieldType, sent: string): string {
  return `document.json declares ${what} "${declared}"; send type "${declared}", not "${sent}"`;
}

const DECLARATION_MEMBERS = new Set(['type', 'format', 'columns', 'description']);

/**
 * Problems with declarations handed to fill, each with its path (`fields.lines.columns.amount
 * .format`). document.json's reader checks its schema first; this also holds for declarations
 * given in code, and checks what only fill knows: that each declared format compiles for its type.
 * Columns nest at most as deep as a value may.
 */
export function declarationProblems(fields: unknown, at = 'fields'): FailureDetail[] {
  const problems: FailureDetail[] = [];
  const pending: { fields: unknown; at: string; depth: number }[] = [{ fields, at, depth: 0 }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (!isRecord(next.fields)) {
      problems.push({ field: next.at, message: 'must be an object of declarations by name' });
      continue;
    }
    if (next.depth > MAX_TAG_NESTING) {
      problems.push({ field: next.at, message: `columns nest more than ${MAX_TAG_NESTING} deep` });
      continue;
    }
    for (const [name, declared] of Object.entries(next.fields)) {
      const where = `${next.at}.${name}`;
      if (name.trim() === '') problems.push({ field: where, message: 'a field name is not empty' });
      problems.push(...oneDeclarationProblems(declared, where));
      if (isRecord(declared) && declared.columns !== undefined)
        pending.push({ fields: declared.columns, at: `${where}.columns`, depth: next.depth + 1 });
    }
  }
  return problems;
}

function oneDeclarationProblems(declared: unknown, at: string): FailureDetail[] {
  if (!isRecord(declared)) return [{ field: at, message: 'must be an object {type, format?}' }];
  const problems: FailureDetail[] = [];
  for (const key of Object.keys(declared))
    if (!DECLARATION_MEMBERS.has(key))
      problems.push({ field: `${at}.${key}`, message: 'unknown member' });
  const { type, format, description, columns } = declared;
  if (typeof type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(type)) {
    problems.push({
      field: `${at}.type`,
      message: `${previewValue(type)} is not one of ${FIELD_TYPES.join(', ')}`,
    });
    return problems;
  }
  if (description !== undefined && typeof description !== 'string')
    problems.push({ field: `${at}.description`, message: 'must be a string' });
  if (columns !== undefined && type !== 'list')
    problems.push({ field: `${at}.columns`, message: `only a list has columns (this is ${type})` });
  if (format === undefined) return problems;
  const problem =
    typeof format !== 'string'
      ? 'must be a string'
      : type === 'list'
        ? 'a list takes no format; give its columns formats'
        : formatProblem(type as Exclude<FieldType, 'list'>, format);
  if (problem) problems.push({ field: `${at}.format`, message: problem });
  return problems;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
