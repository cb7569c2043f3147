import type { FailureDetail } from '../../base/errors/index.js';
import {
  declarationOf,
  declaredTypeMessage,
  FIELD_TYPES,
  type FieldDeclaration,
  type FieldType,
} from './field-declarations.js';
import { formatValue, type FormatContext, type ScalarType } from './format-value.js';
import { ListRow, type ResolvedCell } from './list-row.js';
import type { ValueLimits } from './value-limits.js';
import { previewValue, tagLabel } from './value-preview.js';

export interface ListContext extends FormatContext {
  limits: ValueLimits;
}

/** Where a list sits: its holder's path (`tags[3]`) and its name as the template loops over it. */
export interface ListPlace {
  /** The TagInput or typed cell that holds the list: `tags[3]`, `tags[3].value[1].items`. */
  field: string;
  /** The list as a template author names it: `lines`, `lines[1].items`. */
  label: string;
  /**
   * The TagInput the list is in: `tags[3]`. Messages start with it and the label
   * (`tags[3] (lines[1].amount): ...`); the detail's field has the whole path.
   */
  owner: string;
}

export interface ResolvedList {
  cell: ResolvedCell;
  problems: FailureDetail[];
}

const TYPED_CELL_MEMBERS = new Set(['value', 'type', 'format']);

/**
 * Checks and formats a list value: an array of rows, each an object of cells. A cell is a typed
 * cell `{value, type, format?}` or a plain value (string, number, boolean, null) typed by its
 * column's declaration, else text (a JSON boolean: boolean); a typed cell of type list nests. Every problem is collected,
 * each by its path (`tags[3].value[2].amount`). Sizes and nesting were bounded before this runs
 * (TagListBounds), so the recursion is shallow.
 */
export function resolveList(
  value: unknown,
  declared: FieldDeclaration | undefined,
  place: ListPlace,
  ctx: ListContext,
): ResolvedList {
  const problems: FailureDetail[] = [];
  if (!Array.isArray(value)) {
    problems.push({
      field: `${place.field}.value`,
      message: `${tagLabel(place.owner, place.label)}: a list's value is an array of rows (objects); got ${previewValue(value)}`,
    });
    return { cell: { type: 'list', text: '', truthy: false, rows: [] }, problems };
  }
  const rows: ListRow[] = [];
  for (let i = 0; i < value.length; i++) {
    const row = resolveRow(value[i] as unknown, declared, place, i, ctx, problems);
    if (row) rows.push(row);
  }
  return { cell: { type: 'list', text: '', truthy: rows.length > 0, rows }, problems };
}

function resolveRow(
  row: unknown,
  declared: FieldDeclaration | undefined,
  place: ListPlace,
  index: number,
  ctx: ListContext,
  problems: FailureDetail[],
): ListRow | undefined {
  const field = `${place.field}.value[${index}]`;
  const label = `${place.label}[${index}]`;
  const name = tagLabel(place.owner, label);
  if (!isRecord(row)) {
    problems.push({
      field,
      message: `${name}: ${previewValue(row)} is not a row; a row is an object of cells by name`,
    });
    return undefined;
  }
  const cells = new Map<string, ResolvedCell>();
  for (const key of Object.keys(row)) {
    const cellName = key.trim();
    const at = `${field}.${key}`;
    if (cellName === '' || cells.has(cellName)) {
      const why =
        cellName === '' ? 'a cell needs a name' : `"${cellName}" is given twice in this row`;
      problems.push({ field: at, message: `${name}: ${why}` });
      continue;
    }
    const column = declarationOf(declared?.columns, cellName);
    const cellPlace = { field: at, label: `${label}.${cellName}`, owner: place.owner };
    cells.set(cellName, resolveCell(row[key], column, cellPlace, ctx, problems));
  }
  return new ListRow(cells, field, label, place.owner);
}

const EMPTY: ResolvedCell = { type: 'text', text: '', truthy: false, rows: undefined };

function resolveCell(
  cell: unknown,
  column: FieldDeclaration | undefined,
  place: ListPlace,
  ctx: ListContext,
  problems: FailureDetail[],
): ResolvedCell {
  const name = tagLabel(place.owner, place.label);
  if (isRecord(cell)) return resolveTypedCell(cell, column, place, ctx, problems);
  if (Array.isArray(cell)) {
    problems.push({
      field: place.field,
      message: `${name}: an array is not a cell; a list in a row is a typed cell {"value": [...], "type": "list"}`,
    });
    return EMPTY;
  }
  // Without a declaration a plain cell is text, but a JSON boolean stays one: as the text
  // "false" it would show a {#vat} section.
  const type = column?.type ?? (typeof cell === 'boolean' ? 'boolean' : 'text');
  if (type === 'list') {
    problems.push({
      field: place.field,
      message: `${name}: document.json declares the column ${columnPath(place.label)} "list"; send a typed cell {"value": [...], "type": "list"}`,
    });
    return EMPTY;
  }
  return formatCell(type, cell, column?.format, place.field, name, ctx, problems);
}

function resolveTypedCell(
  cell: Record<string, unknown>,
  column: FieldDeclaration | undefined,
  place: ListPlace,
  ctx: ListContext,
  problems: FailureDetail[],
): ResolvedCell {
  const name = tagLabel(place.owner, place.label);
  const found = typedCellShapeProblems(cell, place.field, name, column, place.label);
  if (found.length > 0) {
    problems.push(...found);
    return EMPTY;
  }
  const type = cell.type as FieldType;
  const format = (cell.format as string | null | undefined) || column?.format;
  if (type !== 'list')
    return formatCell(type, cell.value, format, `${place.field}.value`, name, ctx, problems, {
      format: cell.format ? `${place.field}.format` : undefined,
    });
  if (cell.format) {
    problems.push({ field: `${place.field}.format`, message: `${name}: a list takes no format` });
    return EMPTY;
  }
  const nested = resolveList(cell.value, column, place, ctx);
  problems.push(...nested.problems);
  return nested.cell;
}

function typedCellShapeProblems(
  cell: Record<string, unknown>,
  at: string,
  name: string,
  column: FieldDeclaration | undefined,
  label: string,
): FailureDetail[] {
  const problems: FailureDetail[] = [];
  for (const key of Object.keys(cell))
    if (!TYPED_CELL_MEMBERS.has(key))
      problems.push({
        field: `${at}.${key}`,
        message: `${name}: unknown field ${previewValue(key)} (a typed cell has value, type and format; other values are plain text, numbers, booleans or null)`,
      });
  if (!('value' in cell))
    problems.push({ field: `${at}.value`, message: `${name}: value is required (null for empty)` });
  const { type, format } = cell;
  if (typeof type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(type))
    problems.push({
      field: `${at}.type`,
      message:
        typeof type === 'string'
          ? `${name}: unknown type ${previewValue(type)} (one of ${FIELD_TYPES.join(', ')})`
          : `${name}: type is required: one of ${FIELD_TYPES.join(', ')}`,
    });
  else if (column && column.type !== type)
    problems.push({
      field: `${at}.type`,
      message: `${name}: ${declaredTypeMessage(`the column ${columnPath(label)}`, column.type, type)}`,
    });
  if (format !== undefined && format !== null && typeof format !== 'string')
    problems.push({ field: `${at}.format`, message: `${name}: format must be a string` });
  return problems;
}

function formatCell(
  type: ScalarType,
  value: unknown,
  format: string | undefined,
  valueField: string,
  name: string,
  ctx: ListContext,
  problems: FailureDetail[],
  paths: { format?: string | undefined } = {},
): ResolvedCell {
  const formatted = formatValue(type, value, format, ctx, ctx.limits);
  for (const p of formatted.problems)
    problems.push({
      // A declared format's problem belongs to the declaration, which fill checks on its own.
      field: p.on === 'format' && paths.format ? paths.format : valueField,
      message: `${name}: ${p.message}`,
    });
  return { type, text: formatted.text, truthy: formatted.truthy, rows: undefined };
}

/** `lines[1].items[0].qty` as a column: `lines[].items[].qty`. */
export function columnPath(label: string): string {
  return label.replace(/\[\d+\]/g, '[]');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
