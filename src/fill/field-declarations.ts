/**
 * What a template declares about its fields (a library document's `document.json` `fields`): the
 * type each value must have, the format used when a TagInput gives none, and for a list the types
 * of its columns. A declaration is a contract with the caller: a TagInput of another type is
 * refused, so a date is never shown as the text the caller happened to send.
 */
export interface FieldDeclaration {
  type: 'text' | 'number' | 'date' | 'boolean' | 'list';
  /** Format used when the TagInput (or a list cell) has none. */
  format?: string;
  /** For `list`: each member's fields (columns), by name. */
  columns?: Record<string, FieldDeclaration>;
  /** What the field means, for `fields` and template authors. */
  description?: string;
}

/** Declarations by tag name. */
export type FieldDeclarations = Record<string, FieldDeclaration>;
