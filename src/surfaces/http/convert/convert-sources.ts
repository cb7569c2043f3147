import { DocpipeError, type FailureDetail } from '../../../base/errors/index.js';
import type { TagInput } from '../../../document/values/index.js';
import type { DocumentInput } from '../../../jobs/queue/index.js';
import type { Storage } from '../../../render/storage/index.js';

/**
 * Turns a docpipe-issued URL (an upload URL or a signed download URL) into the storage key it
 * stands for, or undefined when docpipe did not issue it for this company (or it expired).
 */
export type ResolveDocumentUrl = (
  url: string,
  company: string,
) => Promise<{ key: string } | undefined>;

export interface SourceDeps {
  resolveDocumentUrl: ResolveDocumentUrl;
  /** Where resolved keys are looked for: the storage the upload route writes to and workers read. */
  storage: Storage;
}

/** Standard base64 without line breaks' whitespace; its length is a multiple of four. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Anything with a scheme is meant as a URL: base64 has no ':'. */
const HAS_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * Each `documents[i]` of a convert request as the queue's input, every problem of every
 * document collected and named by its path (`documents[1].file`) before anything is queued.
 * docpipe never fetches a host a caller names: a URL counts only when docpipe issued it, and the
 * worker reads its bytes from docpipe's own storage, by reference: no copy is made.
 */
export async function convertInputs(
  documents: { file: string; name: string }[],
  tags: TagInput[] | undefined,
  company: string,
  deps: SourceDeps,
): Promise<DocumentInput[]> {
  const problems: FailureDetail[] = [];
  const inputs = await Promise.all(
    documents.map(async (doc, i): Promise<DocumentInput> => {
      const field = `documents[${i}].file`;
      const input: DocumentInput = HAS_SCHEME.test(doc.file)
        ? { name: doc.name, storageKey: await storedKey(doc.file, field, company, deps, problems) }
        : { name: doc.name, content: decodedContent(doc.file, field, problems) };
      if (tags !== undefined) input.tags = tags;
      return input;
    }),
  );
  if (problems.length > 0) {
    // Promise.all settles in any order: the answer lists documents in the request's order.
    problems.sort((a, b) => a.field.localeCompare(b.field, 'en', { numeric: true }));
    throw new DocpipeError('validation-failed', problems);
  }
  return inputs;
}

function decodedContent(file: string, field: string, problems: FailureDetail[]): Uint8Array {
  // MIME encoders wrap base64 at 76 characters; the line breaks are not content.
  const text = file.includes('\n') || file.includes('\r') ? file.replace(/[\r\n]/g, '') : file;
  const bytes = Buffer.from(text, 'base64');
  // Node's decoder skips what is not base64, so the bytes alone prove nothing; encoding them
  // back to the very text does (a fifth of the regex's time on a 10 MB document). Text that is
  // valid but not canonical (nonzero bits after the last byte) falls through to the regex.
  if (bytes.toString('base64') !== text && (!BASE64.test(text) || text.length % 4 !== 0)) {
    problems.push({
      field,
      message:
        'is neither base64 content nor a URL: send the .docx or PDF as standard base64 (A-Z, a-z, 0-9, +, /, = padding), or a URL docpipe issued',
    });
    return new Uint8Array();
  }
  if (bytes.byteLength === 0) problems.push({ field, message: 'is empty: no document bytes' });
  return bytes;
}

async function storedKey(
  url: string,
  field: string,
  company: string,
  deps: SourceDeps,
  problems: FailureDetail[],
): Promise<string> {
  const resolved = await deps.resolveDocumentUrl(url, company);
  if (!resolved) {
    problems.push({
      field,
      message:
        'is a URL docpipe did not issue for this company, or one that expired: docpipe never fetches a host a caller names. Send the content as base64, or upload it (POST /v3/company/{company}/file/upload) and send the url that answers',
    });
    return '';
  }
  // Looked at, not read: the worker reads it.
  if (!(await deps.storage.stat(resolved.key))) {
    problems.push({
      field,
      message: 'names a stored document that is no longer there: upload it again',
    });
    return '';
  }
  return resolved.key;
}
