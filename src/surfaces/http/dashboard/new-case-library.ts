import { isDocpipeError } from '../../../base/errors/index.js';
import {
  companyLibrary,
  resolveTemplate,
  type DocumentLibrary,
} from '../../../document/library/index.js';
import type { InnerField } from '../../../document/fields/index.js';
import type { Preparer } from '../../../render/prepare/index.js';

type ScalarType = 'text' | 'number' | 'date' | 'boolean';

/** A column of a library list, one input in each of its rows on the form. */
export interface LibraryColumn {
  tag: string;
  /** What the column means (document.json's description). */
  name?: string;
  type: ScalarType;
  format?: string;
}

/**
 * One field of a library document as the New case form asks for it: the TagDefinition members
 * (tag, name, type, format, default) the current version declares. Library documents declare no
 * default of their own, so `value` is empty unless a declaration gains one.
 */
export interface LibraryField {
  tag: string;
  /** What the field means (document.json's description), shown as the input's hint. */
  name?: string;
  /** text, number, date or boolean; a list has no input of its own here. */
  type: 'text' | 'number' | 'date' | 'boolean' | 'list';
  format?: string;
  value?: string;
  /**
   * A list's columns as its rows in the template show them, each row an input a column; absent
   * for a list whose rows hold a list of their own, which is written as JSON instead.
   */
  columns?: LibraryColumn[];
}

/**
 * A list's columns from the tags its loop holds: a conditional inside a row is a yes-or-no
 * column; undefined when a row holds a list of its own (or nothing).
 */
function columnsOf(inner: readonly InnerField[] | undefined): LibraryColumn[] | undefined {
  if (!inner || inner.length === 0) return undefined;
  const columns: LibraryColumn[] = [];
  for (const c of inner) {
    const type = c.type ?? (c.kind === 'section' ? 'boolean' : 'text');
    if (type === 'list') return undefined;
    columns.push({
      tag: c.tag,
      ...(c.description !== undefined ? { name: c.description } : {}),
      type,
      ...(c.format !== undefined ? { format: c.format } : {}),
    });
  }
  return columns;
}

/**
 * The fields a library document's current version needs filled, as GET /v3/api/documents/{id}
 * answers them (the preparer's `fields`, in the library as the company sees it); undefined for
 * a document the company does not have. A list's columns are not fields of their own: they
 * are the list's `columns`.
 */
export async function libraryFields(
  deps: { library: DocumentLibrary; preparer: Pick<Preparer, 'fields'> },
  company: string,
  documentId: string,
): Promise<LibraryField[] | undefined> {
  try {
    const template = await resolveTemplate(
      { documentId },
      { library: companyLibrary(deps.library, company) },
    );
    const fields = await deps.preparer.fields(template.bytes, {
      delimiters: template.settings.delimiters,
      fields: template.settings.fields,
    });
    return fields.map((f) => {
      // An undeclared placeholder takes text; an undeclared section is shown or not.
      const type = f.type ?? (f.kind === 'section' ? 'boolean' : 'text');
      const columns = type === 'list' ? columnsOf(f.inner) : undefined;
      return {
        tag: f.tag,
        ...(f.description !== undefined ? { name: f.description } : {}),
        type,
        ...(f.format !== undefined ? { format: f.format } : {}),
        ...(columns ? { columns } : {}),
      };
    });
  } catch (err) {
    if (isDocpipeError(err)) return undefined;
    throw err;
  }
}
