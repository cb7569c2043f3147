import { declarationOf, type FieldDeclarations } from '../values/index.js';
import type { TemplateField } from './template-fields.js';

/**
 * The fields a caller fills, as a listing shows them: a declared list's columns are left out of
 * the top level, where they would stand with only `within` and no type, since their values come
 * from each row and they are listed under the list (`inner`, `lines[].amount`). A tag the
 * declarations also name at the top level stays: it is a value of its own too. Without
 * declarations nothing says which section is a list, and every tag stays.
 */
export function withoutListColumns(
  fields: TemplateField[],
  declarations: FieldDeclarations | undefined,
): TemplateField[] {
  if (declarations === undefined) return fields;
  return fields.filter((field) => !isListColumn(field, declarations));
}

function isListColumn(field: TemplateField, declarations: FieldDeclarations): boolean {
  if (field.within.length === 0 || declarationOf(declarations, field.tag)) return false;
  // The declared lists around the tag, outermost first: a nested list is its parent's column.
  const lists: FieldDeclarations[] = [];
  for (const section of field.within) {
    let declared = undefined;
    for (let i = lists.length - 1; i >= 0 && !declared; i--)
      declared = declarationOf(lists[i], section);
    declared ??= declarationOf(declarations, section);
    if (declared?.type === 'list' && declared.columns) lists.push(declared.columns);
  }
  return lists.some((columns) => declarationOf(columns, field.tag) !== undefined);
}
