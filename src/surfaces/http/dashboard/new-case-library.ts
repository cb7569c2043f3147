import { isDocpipeError } from '../../../base/errors/index.js';
import {
  companyLibrary,
  resolveTemplate,
  type DocumentLibrary,
} from '../../../document/library/index.js';
import type { Preparer } from '../../../render/prepare/index.js';

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
}

/**
 * The fields a library document's current version needs filled, as GET /v3/api/documents/{id}
 * answers them (the preparer's `fields`, in the library as the company sees it); undefined for
 * a document the company does not have. A list's columns are not fields of their own.
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
    return fields.map((f) => ({
      tag: f.tag,
      ...(f.description !== undefined ? { name: f.description } : {}),
      // An undeclared placeholder takes text; an undeclared section is shown or not.
      type: f.type ?? (f.kind === 'section' ? 'boolean' : 'text'),
      ...(f.format !== undefined ? { format: f.format } : {}),
    }));
  } catch (err) {
    if (isDocpipeError(err)) return undefined;
    throw err;
  }
}
