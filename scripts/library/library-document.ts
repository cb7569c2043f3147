import type { Document } from 'docx';
import { packDocument } from './kit/pack.js';

export type FieldType = 'text' | 'number' | 'date' | 'boolean' | 'list';

/** A field declaration of document.json (src/document/fill/field-declarations.ts). */
export interface Field {
  type: FieldType;
  format?: string;
  description?: string;
  columns?: Record<string, Field>;
}

/**
 * Who signs, in the order of a case's `recipients[]` (document.json's `signers`): an entry is
 * recipient N with its anchors, or with `list` one recipient per row of that list, without places.
 */
export interface SignerMeta {
  role: string;
  /** The field (a list's column, with `list`) that holds the signer's name. */
  name?: string;
  list?: string;
}

/** What document.json holds for a library document. */
export interface DocumentMeta {
  name: string;
  description: string;
  locale: string;
  timeZone: string;
  delimiters?: string;
  signers: SignerMeta[];
  fields: Record<string, Field>;
}

/** A TagInput as the fixtures give it (docs/templates.md). */
export interface TagInput {
  tag: string;
  type: FieldType;
  value: unknown;
  format?: string;
}

export interface Fixture {
  name: string;
  tags: TagInput[];
  /** Snippets the rendered PDF's text must contain. */
  expected: string[];
}

/** One library document: its folder name, settings, Word document and fixtures. */
export interface LibraryDocument {
  id: string;
  meta: DocumentMeta;
  document: () => Document;
  fixtures: Fixture[];
}

const json = (value: unknown): Buffer => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

/** The files of a document's folder, by path relative to the library folder. */
export async function libraryFiles(doc: LibraryDocument): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  files.set(`${doc.id}/template.docx`, await packDocument(doc.document()));
  files.set(`${doc.id}/document.json`, json(doc.meta));
  for (const fixture of doc.fixtures) {
    files.set(`${doc.id}/fixtures/${fixture.name}.tags.json`, json(fixture.tags));
    files.set(
      `${doc.id}/fixtures/${fixture.name}.expected.txt`,
      Buffer.from(`${fixture.expected.join('\n')}\n`),
    );
  }
  return files;
}
