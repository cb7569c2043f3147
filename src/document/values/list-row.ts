import type { FieldType } from './field-declarations.js';

/** A value ready for the template: its text for placeholders, its truth for sections. */
export interface ResolvedCell {
  type: FieldType;
  /** The formatted text; empty for a list, which is never shown as text. */
  text: string;
  /** A section on it shows: a non-empty text, a non-zero number, any date, true, a list with rows. */
  truthy: boolean;
  /**
   * For a list: its rows, in order; undefined for any other type. Fill sets it either way, so
   * that every cell has one shape.
   */
  rows?: ListRow[] | undefined;
}

/**
 * One member of a list value, as the template's loop sees it: each cell by name, and where the
 * row came from, so that a cell the template shows but the row lacks is named by its path. The
 * loop hands this object to docxtemplater as the row's scope; the value parser knows it by class.
 */
export class ListRow {
  constructor(
    readonly cells: ReadonlyMap<string, ResolvedCell>,
    /** The row's path in the request: `tags[3].value[1]`. */
    readonly field: string,
    /** The row as a template author names it: `lines[1]`, `lines[1].items[0]`. */
    readonly label: string,
    /** The TagInput the row is in: `tags[3]`, which messages name first. */
    readonly owner: string,
  ) {}
}
