import type { DocumentFillOptions } from './document-json.js';
import type { DocumentJson } from './document-json-schema.js';

/** Who signs a document, in the order of a case's recipients (document.json's `signers`). */
export type DocumentSigner = NonNullable<DocumentJson['signers']>[number];

export interface LibraryDocument {
  id: string;
  name: string;
  description?: string;
  /** Version ids, oldest first. */
  versions: string[];
  /** The version used when none is asked for. */
  currentVersion: string;
  /** The companies that see it (document.json's `companies`); absent: every company. */
  companies?: string[];
  /** Who signs, recipient 1 first (document.json's `signers`); absent when it does not say. */
  signers?: DocumentSigner[];
}

export interface LibraryVersion {
  document: LibraryDocument;
  versionId: string;
  /** The template's bytes. */
  bytes: Buffer;
  /** How this template is filled: its document.json's locale, time zone, delimiters and fields. */
  options: DocumentFillOptions;
}

/**
 * The document library (spec 4.4): read-only documents with versions. `getVersion` fails with
 * `document-not-found` or `document-version-not-found`, naming the given field.
 */
export interface DocumentLibrary {
  list(): Promise<LibraryDocument[]>;
  get(documentId: string, field?: string): Promise<LibraryDocument>;
  getVersion(
    documentId: string,
    versionId: string | undefined,
    field?: string,
  ): Promise<LibraryVersion>;
}
