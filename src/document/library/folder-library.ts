import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { DocpipeError } from '../../base/errors/index.js';
import type { DocumentJson } from './document-json-schema.js';
import { DocumentJsonError, readDocumentJson, type DocumentSettings } from './document-json.js';
import type { DocumentLibrary, LibraryDocument, LibraryVersion } from './library.js';

/** Folder and version ids: lower-case names, so that an id can never walk out of the library. */
const ID = /^[a-z0-9][a-z0-9._-]{0,127}$/;

/**
 * A library in a folder: one sub-folder per document with `template.docx` and `document.json`
 * (name, description, locale, delimiters, versions). The same folders `docpipe check` tests.
 */
export class FolderLibrary implements DocumentLibrary {
  constructor(readonly root: string) {}

  async list(): Promise<LibraryDocument[]> {
    let names: string[];
    try {
      names = await readdir(this.root);
    } catch {
      return [];
    }
    const documents: LibraryDocument[] = [];
    for (const name of names.sort()) {
      if (!ID.test(name)) continue;
      const doc = await this.read(name).catch(() => undefined);
      if (doc) documents.push(doc.document);
    }
    return documents;
  }

  async get(documentId: string, field = 'documentId'): Promise<LibraryDocument> {
    return (await this.find(documentId, field)).document;
  }

  async getVersion(
    documentId: string,
    versionId: string | undefined,
    field = 'versionId',
  ): Promise<LibraryVersion> {
    const { document, meta, settings } = await this.find(
      documentId,
      field.replace(/versionId$/, 'documentId'),
    );
    const version = versionId ?? document.currentVersion;
    const versions = this.versions(meta);
    // Own properties only: a version id such as "constructor" is not a version.
    const file =
      ID.test(version) && Object.hasOwn(versions, version) ? versions[version] : undefined;
    if (!file) {
      throw new DocpipeError('document-version-not-found', [
        {
          field,
          message: `version "${version}" does not belong to document "${documentId}" (versions: ${document.versions.join(', ')})`,
        },
      ]);
    }
    return {
      document,
      versionId: version,
      bytes: await readFile(join(this.root, documentId, file)),
      options: settings.options,
    };
  }

  private async find(
    documentId: string,
    field: string,
  ): Promise<{ document: LibraryDocument; meta: DocumentJson; settings: DocumentSettings }> {
    const found = ID.test(documentId)
      ? await this.read(documentId).catch((err: unknown) => {
          // A document that is there but whose settings are wrong cannot be produced; saying
          // "not found" would send its author looking in the wrong place.
          if (err instanceof DocumentJsonError)
            throw new DocpipeError('document-production-failed', [
              {
                field,
                message: `document "${documentId}" has a broken ${basename(err.file)}: ${err.problems.join('; ')}`,
              },
            ]);
          return undefined;
        })
      : undefined;
    if (!found)
      throw new DocpipeError('document-not-found', [
        { field, message: `no document "${documentId}" in the library` },
      ]);
    return found;
  }

  private versions(meta: DocumentJson): Record<string, string> {
    const versions = meta.versions ?? { '1': 'template.docx' };
    // Version files stay inside the document's folder.
    return Object.fromEntries(
      Object.entries(versions).filter(
        ([id, file]) => ID.test(id) && !file.includes('..') && !file.startsWith('/'),
      ),
    );
  }

  private async read(
    id: string,
  ): Promise<{ document: LibraryDocument; meta: DocumentJson; settings: DocumentSettings }> {
    const dir = join(this.root, id);
    if (!(await stat(dir)).isDirectory()) throw new Error(`${dir} is not a folder`);
    const settings = await readDocumentJson(dir);
    const meta = settings.meta;
    const versions = Object.keys(this.versions(meta)).filter((v) =>
      existsSync(join(dir, this.versions(meta)[v]!)),
    );
    if (versions.length === 0) throw new Error(`${dir} has no template`);
    const current =
      meta.current && versions.includes(meta.current)
        ? meta.current
        : versions[versions.length - 1]!;
    return {
      document: {
        id,
        name: meta.name ?? id,
        description: meta.description,
        versions,
        currentVersion: current,
        ...(meta.companies ? { companies: meta.companies } : {}),
        ...(meta.signers ? { signers: meta.signers } : {}),
      },
      meta,
      settings,
    };
  }
}
