import type { Kysely } from 'kysely';
import type { Storage } from '../../../render/storage/index.js';
import type { Database } from '../../../service/db/index.js';
import { FormRepository } from '../../../service/forms/index.js';
import type { LibraryField } from './new-case-library.js';

/** One document of one of the company's active v2 forms, as the New case form offers it. */
export interface FormDocumentChoice {
  /** `<form id>:<document index>`: what the row posts. */
  ref: string;
  form: string;
  name: string;
}

/** A form document chosen in a row: its name, kind, where its template is, and its form's tags. */
export interface FormDocument {
  name: string;
  kind: 'docx' | 'pdf';
  storageKey: string;
  /** The form's TagDefinitions (spec 2.1) as the row's inputs, each prefilled with its default. */
  fields: LibraryField[];
}

/**
 * Every document of the company's active forms (spec 4.1), for the rows' choice. The v3 body
 * has no member that names a form's document, so a row's choice becomes the document's bytes
 * (`content`) and the form's tags, as form submit sends them to the case service.
 */
export async function formDocumentChoices(
  db: Kysely<Database>,
  company: string,
): Promise<FormDocumentChoice[]> {
  const forms = await new FormRepository(db).list(company);
  return forms
    .filter((f) => f.active)
    .flatMap((f) =>
      f.documents.map((d, i) => ({ ref: `${f.id}:${i}`, form: f.title, name: d.name })),
    );
}

/** The form document a row names, looked up in the company's own forms only; else undefined. */
export async function formDocumentOf(
  db: Kysely<Database>,
  company: string,
  ref: string,
): Promise<FormDocument | undefined> {
  const at = ref.lastIndexOf(':');
  if (at <= 0) return undefined;
  const form = await new FormRepository(db).find(company, ref.slice(0, at));
  const doc = form?.active ? form.documents[Number(ref.slice(at + 1))] : undefined;
  if (!form || !doc) return undefined;
  return {
    name: doc.name,
    kind: doc.kind,
    storageKey: doc.storageKey,
    // A PDF is taken as it is: it has no fields to fill.
    fields:
      doc.kind === 'pdf'
        ? []
        : form.tags.map((t) => ({
            tag: t.tag,
            ...(t.name !== t.tag ? { name: t.name } : {}),
            type: t.type,
            ...(t.value !== null ? { value: String(t.value) } : {}),
          })),
  };
}

/** The form document's template as a v3 body's `content` (base64); undefined when gone. */
export async function formDocumentContent(
  storage: Storage,
  doc: FormDocument,
): Promise<string | undefined> {
  return (await storage.get(doc.storageKey))?.toString('base64');
}
