import { DocpipeError } from '../../base/errors/index.js';
import type { DocumentLibrary, LibraryDocument, LibraryVersion } from './library.js';

/** Whether `company`'s keys see `document`: a document naming no companies is shared by all. */
export function visibleTo(document: LibraryDocument, company: string): boolean {
  return document.companies === undefined || document.companies.includes(company);
}

/** `library.get`, for one company: another company's document is absent (see companyLibrary). */
export async function visibleDocument(
  library: Pick<DocumentLibrary, 'get'>,
  company: string,
  documentId: string,
  field = 'documentId',
): Promise<LibraryDocument> {
  const document = await library.get(documentId, field);
  if (!visibleTo(document, company))
    throw new DocpipeError('document-not-found', [
      { field, message: `no document "${documentId}" in the library` },
    ]);
  return document;
}

/**
 * The library as one company sees it: the shared documents and its own (document.json's
 * `companies`). Another company's document is `document-not-found` with the same words as an
 * absent one, so that a key cannot learn what other companies keep (spec 7.2: "absent or not
 * visible"). Every door a tenant's request comes through reads the library through this view;
 * the worker trusts the document ids of jobs, which those doors checked.
 */
export function companyLibrary(library: DocumentLibrary, company: string): DocumentLibrary {
  return {
    async list(): Promise<LibraryDocument[]> {
      return (await library.list()).filter((d) => visibleTo(d, company));
    },
    get: (documentId: string, field = 'documentId') =>
      visibleDocument(library, company, documentId, field),
    async getVersion(
      documentId: string,
      versionId: string | undefined,
      field = 'versionId',
    ): Promise<LibraryVersion> {
      // The document first, so that another company's version ids are not told apart either.
      await visibleDocument(
        library,
        company,
        documentId,
        field.replace(/versionId$/, 'documentId'),
      );
      return library.getVersion(documentId, versionId, field);
    },
  };
}
