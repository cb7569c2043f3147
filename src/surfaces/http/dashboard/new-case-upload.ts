import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Preparer } from '../../../render/prepare/index.js';
import type { UnsupportedReason } from '../../../formats/sniff/index.js';
import {
  parseStoredDocumentUrl,
  storedDocumentKey,
  storedDocumentUrl,
  writeDocumentMetaOnce,
  type Storage,
  type StoredDocumentType,
} from '../../../render/storage/index.js';
import { documentName } from '../common/files-disposition.js';
import { readMultipartForm, type MultipartLimits } from '../files/multipart-form.js';

/** The most document rows the form takes (each may carry a file). */
export const MAX_DOCUMENT_ROWS = 20;

/**
 * How far the New case form is read: every row's file up to the pipeline's input limit
 * (config.limits.maxInputBytes, as the v3 upload endpoint holds it), the body to a few of them,
 * and enough text fields for the recipients, documents and their tag values.
 */
export function newCaseFormLimits(maxInputBytes: number): MultipartLimits {
  return {
    bodyBytes: 4 * maxInputBytes + 1024 * 1024,
    fileBytes: maxInputBytes,
    fieldBytes: 64 * 1024,
    files: MAX_DOCUMENT_ROWS,
    parts: 2000,
    outsideBytes: 512 * 1024,
  };
}

/** A file chosen in a document row, as it arrived. */
export interface PostedFile {
  filename: string;
  bytes: Buffer;
}

/** The files of each form read, by row, kept apart from its body (which holds text only). */
const files = new WeakMap<FastifyRequest, Map<number, PostedFile>>();

const FILE_PART = /^documents\.(\d+)\.file$/;

/**
 * The content-type parser of the New case form when it is sent as multipart/form-data (it is,
 * since its rows have file inputs): text fields become the body, as an url-encoded post's would
 * (the CSRF token among them, checked by the pages' hook), and each row's `documents.N.file` is
 * kept for {@link postedFiles}. A file input left empty arrives as an empty part: no file.
 */
export function newCaseFormParser(maxInputBytes: number) {
  const limits = newCaseFormLimits(maxInputBytes);
  return async (request: FastifyRequest, payload: Readable): Promise<Record<string, string>> => {
    const parts = await readMultipartForm(request.headers, payload, limits);
    // No prototype: a part named __proto__ is a field like any other.
    const body = Object.create(null) as Record<string, string>;
    const byRow = new Map<number, PostedFile>();
    for (const part of parts) {
      const row = FILE_PART.exec(part.name);
      if (part.isFile) {
        if (row && part.bytes.byteLength > 0)
          byRow.set(Number(row[1]), { filename: part.filename ?? '', bytes: part.bytes });
      } else body[part.name] = part.bytes.toString('utf8');
    }
    files.set(request, byRow);
    return body;
  };
}

/** The files the form carried, by document row; empty for an url-encoded post. */
export function postedFiles(request: FastifyRequest): ReadonlyMap<number, PostedFile> {
  return files.get(request) ?? new Map();
}

/** An upload kept for the form: its stored document's URL (a document source) and its name. */
export type StoredUpload =
  | { url: string; name: string }
  /** `reason`: the sniff's, which the page words in its language; `problem` is the English. */
  | { problem: string; reason: UnsupportedReason };

const MEDIA_TYPES: Record<StoredDocumentType, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/**
 * A row's file kept as the company's upload, exactly as POST /v3/company/{company}/file/upload
 * keeps one (spec 4.3): sniffed by the pipeline's own sniff (a PDF or a real .docx), stored
 * content-addressed under the company's prefix, and named by its URL. So the case's document is
 * that URL, as a v3 body's uploaded document is, and the file outlives the form's re-renders.
 * Anything else answers the sniff's reason, for the row.
 */
export async function storeUpload(
  deps: { preparer: Pick<Preparer, 'sniff'>; storage: Storage; publicUrl: string },
  company: string,
  file: PostedFile,
  maxInputBytes: number,
): Promise<StoredUpload> {
  if (file.bytes.byteLength > maxInputBytes)
    return { problem: `the file is larger than ${maxInputBytes} bytes`, reason: 'too-large' };
  const sniffed = await deps.preparer.sniff(file.bytes);
  if (sniffed.kind === 'unsupported')
    return { problem: `${sniffed.reason}: ${sniffed.message}`, reason: sniffed.reason };
  const type = sniffed.kind;
  const sha256 = createHash('sha256').update(file.bytes).digest('hex');
  const key = storedDocumentKey(company, sha256, type);
  const name = documentName(file.filename || `document.${type}`);
  await deps.storage.put(key, file.bytes, MEDIA_TYPES[type]);
  await writeDocumentMetaOnce(deps.storage, key, { name });
  return { url: storedDocumentUrl(deps.publicUrl, key, name), name };
}

/**
 * A posted upload reference, when it is one of `company`'s: a hidden field is the browser's to
 * change, and another company's URL must never become this company's document (the service
 * refuses it too; here it is simply not carried).
 */
export function ownUpload(url: string, publicUrl: string, company: string): string {
  if (url === '') return '';
  return parseStoredDocumentUrl(url, publicUrl)?.company === company ? url : '';
}
