import { stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { readInput, TooLargeInput } from '../../base/files/index.js';
import {
  currentTemplateFile,
  readDocumentJson,
  settingsForTemplate,
  type DocumentFillOptions,
} from './document-json.js';
import type { DocumentLibrary, LibraryDocument } from './library.js';

/**
 * What a template is filled with, from its `document.json`: locale, time zone, delimiters and
 * declared fields (types and formats). The same at every door, so that one template and one set
 * of values give one document whichever way they enter.
 */
export type TemplateSettings = DocumentFillOptions;

/**
 * How a door names a template: a path (a .docx, or a library document's folder) or a document of
 * a library by id (the configured library, resolved where it is served).
 */
export type TemplateReference = { path: string } | { documentId: string; versionId?: string };

/** A template named by path, found: the file to read and its settings, its bytes not read yet. */
export interface TemplateLocation {
  /** The .docx: the path itself, or a document folder's current version. */
  file: string;
  settings: TemplateSettings;
  /** The library document's name (document.json's `name`, else the folder's), for a folder. */
  name?: string;
}

/** A template and its settings, ready to fill. */
export interface ResolvedTemplate {
  bytes: Buffer;
  settings: TemplateSettings;
  /** The library document's name, when a folder or a library id was resolved. */
  name?: string;
  /** The file read, when a path was resolved. */
  file?: string;
  /** The library document and version, when a library id was resolved. */
  documentId?: string;
  versionId?: string;
  document?: LibraryDocument;
}

export interface ResolveTemplateOptions {
  /** The library that `{documentId}` references are resolved in. */
  library?: DocumentLibrary;
  /** A file past this many bytes is refused unread (DOCPIPE_MAX_INPUT_BYTES). @defaultValue none */
  maxBytes?: number;
  /**
   * The document's field path in failures (`documents[0]`): a library reference's failures name
   * `<field>.documentId` and `<field>.versionId`. @defaultValue 'document' for a file,
   * `documentId` and `versionId` for a library reference
   */
  field?: string;
  /**
   * What a library reference's failures name instead, when the caller's request names the
   * document by one parameter (HTTP's `id`).
   */
  libraryField?: string;
}

/**
 * Finds the template a path names and the settings it is filled with: a .docx takes its
 * folder's `document.json` (a library document, any version), a library document's folder its
 * current version. A folder without `document.json` has no settings; a broken one is a
 * DocumentJsonError listing every problem.
 */
export async function locateTemplate(path: string): Promise<TemplateLocation> {
  if (!(await stat(path).catch(() => undefined))?.isDirectory())
    return { file: path, settings: (await settingsForTemplate(path)).options };
  const { meta, options } = await readDocumentJson(path);
  return {
    file: join(path, currentTemplateFile(meta)),
    settings: options,
    name: meta.name ?? basename(resolve(path)),
  };
}

/**
 * The one way into a template, for every door (CLI, batch manifest and rerender, the queue's
 * client and worker, HTTP): its bytes with the settings it is filled with. A library id is read
 * from the library (failing with `document-not-found` or `document-version-not-found`); a path
 * as {@link locateTemplate} finds it. A file past `maxBytes` fails with `unsupported-file-type`
 * (too-large); one that cannot be read is an InputError.
 */
export async function resolveTemplate(
  reference: TemplateReference,
  options: ResolveTemplateOptions = {},
): Promise<ResolvedTemplate> {
  if ('documentId' in reference) {
    if (!options.library) throw new Error('a library id needs the library to resolve it in');
    const version = await options.library.getVersion(
      reference.documentId,
      reference.versionId,
      options.libraryField ??
        (options.field === undefined ? undefined : `${options.field}.versionId`),
    );
    return {
      bytes: version.bytes,
      settings: version.options,
      name: version.document.name,
      documentId: version.document.id,
      versionId: version.versionId,
      document: version.document,
    };
  }
  const location = await locateTemplate(reference.path);
  const bytes = await readInput(location.file, options.maxBytes ?? Number.MAX_SAFE_INTEGER);
  if (bytes instanceof TooLargeInput) throw bytes.toError(options.field);
  return {
    bytes,
    settings: location.settings,
    file: location.file,
    ...(location.name === undefined ? {} : { name: location.name }),
  };
}
