import type { DocumentFillOptions } from './document-json.js';

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
