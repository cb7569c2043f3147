import type { Failure } from '../../base/errors/index.js';
import {
  parseStorageKey,
  parseStoredDocumentKey,
  parseStoredDocumentUrl,
  S3Storage,
  verifySignedUrl,
  type Storage,
} from '../../render/storage/index.js';
import { companyCaseFolder, isCaseDocumentKey } from './case-storage.js';

/**
 * What a case document's `url` is to docpipe:
 * - `stored`: a document docpipe keeps (an upload, a render, a case's document), read from
 *   storage by its key and produced like `content`; `read` is how the pipeline takes it (by its
 *   key, or its bytes for a case's document, which the queue does not know);
 * - `foreign`: any other host's URL, kept by reference and never fetched (spec 2.2);
 * - `refused`: a URL docpipe issued that names nothing this company may use (another company's
 *   upload, a changed or expired signature): kept by reference, it would be a dead link.
 */
export type CaseDocumentUrl =
  | { kind: 'stored'; key: string; read: 'key' | 'bytes' }
  | { kind: 'foreign' }
  | { kind: 'refused'; failure: Failure };

export interface CaseDocumentUrlContext {
  company: string;
  /** The base of every URL this docpipe issues (config.http.publicUrl). */
  publicUrl: string;
  /** The HMAC secret of its signed `/files/` URLs; absent: such a URL cannot be verified. */
  signingSecret?: string;
  /** On S3 storage, the URLs S3 pre-signed for docpipe are its downloads too. */
  storage: Storage;
  now: Date;
}

const UPLOAD_HINT =
  'upload the document (POST /v3/company/{company}/file/upload) and send the url that answers, or send its bytes as content';

/**
 * Recognises docpipe's own URLs without fetching anything: an upload URL
 * (`<public>/v3/company/<company>/file/<id>`), a signed download URL (`<public>/files/<key>?...`)
 * and, on S3 storage, a URL S3 pre-signed for docpipe. Tenancy: an upload or a case document is
 * the company's own or it is not found (the same answer whether another company has it or
 * nobody does); a render is not company-scoped, so its URL is a capability, taken only while its
 * signature holds. A signed URL of the company's own upload or case document that expired is
 * still taken: the signature proves docpipe issued it and the key proves whose it is, which the
 * caller's API key already proves it may read.
 */
export async function caseDocumentUrl(
  url: string,
  field: string,
  context: CaseDocumentUrlContext,
): Promise<CaseDocumentUrl> {
  const at = `${field}.url`;
  const refused = (error: Failure['error'], message: string): CaseDocumentUrl => ({
    kind: 'refused',
    failure: { error, details: [{ field: at, message }] },
  });
  const notFound: CaseDocumentUrl = { kind: 'refused', failure: notStored(field) };
  const upload = parseStoredDocumentUrl(url, context.publicUrl);
  if (upload) return upload.company === context.company ? stored(upload.key) : notFound;

  if (isUnder(url, `${context.publicUrl.replace(/\/+$/, '')}/files/`)) {
    if (context.signingSecret === undefined)
      return refused(
        'validation-failed',
        `is a docpipe download URL, which cannot be checked here: ${UPLOAD_HINT}`,
      );
    const signed = verifySignedUrl(url, context.signingSecret, context.now);
    if (!signed.ok && signed.reason !== 'expired')
      return refused(
        'validation-failed',
        `is a docpipe download URL that was changed after it was issued (its signature does not match): send it as docpipe answered it, or ${UPLOAD_HINT}`,
      );
    const key = signed.ok || signed.reason === 'expired' ? signed.key : '';
    const owned = ownedKey(key, context.company);
    if (owned === 'other') return notFound;
    if (owned === 'render' && !signed.ok)
      return refused(
        'validation-failed',
        `is a download URL that expired: ${UPLOAD_HINT}, or ask for a fresh URL and send it at once`,
      );
    return stored(key);
  }
  if (isUnder(url, context.publicUrl))
    return refused(
      'validation-failed',
      `is a URL of this docpipe that names no document: ${UPLOAD_HINT}`,
    );

  const s3 = context.storage instanceof S3Storage ? context.storage : undefined;
  if (s3 && hasParam(url, 'X-Amz-Signature')) {
    const live = await s3.verifyPresignedGet(url, context.now);
    // At the epoch every URL is within its lifetime: what verifies then is docpipe's, expired.
    const key = live ?? (await s3.verifyPresignedGet(url, new Date(0)));
    if (key !== undefined) {
      const owned = ownedKey(key, context.company);
      if (owned === 'other') return notFound;
      if (owned === 'render' && live === undefined)
        return refused(
          'validation-failed',
          `is a download URL that expired: ${UPLOAD_HINT}, or ask for a fresh URL and send it at once`,
        );
      return stored(key);
    }
  }
  return { kind: 'foreign' };
}

/**
 * A URL naming no document this company has: another company's, never uploaded, or removed
 * since. One answer for all three, so that it says nothing of another company's documents.
 */
export function notStored(field: string): Failure {
  return {
    error: 'document-not-found',
    details: [
      {
        field: `${field}.url`,
        message: `names no document this company has stored (another company's, never uploaded, or removed since): ${UPLOAD_HINT}`,
      },
    ],
  };
}

function stored(key: string): CaseDocumentUrl {
  return { kind: 'stored', key, read: isCaseDocumentKey(key) ? 'bytes' : 'key' };
}

/**
 * Whose a key is: `own` (the company's upload or case document), `render` (anybody's who holds
 * its signed URL), `other` (another company's, or no document at all: a job input, a sidecar).
 */
function ownedKey(key: string, company: string): 'own' | 'render' | 'other' {
  if (isCaseDocumentKey(key)) return key.startsWith(companyCaseFolder(company)) ? 'own' : 'other';
  const kind = parseStorageKey(key)?.kind;
  if (kind === 'render') return 'render';
  if (kind === 'upload') return parseStoredDocumentKey(key)!.company === company ? 'own' : 'other';
  return 'other';
}

/** Whether `url` is at or below `base` (same origin, and its path under base's path). */
function isUnder(url: string, base: string): boolean {
  let given: URL;
  let root: URL;
  try {
    given = new URL(url);
    root = new URL(base);
  } catch {
    return false;
  }
  if (given.origin !== root.origin) return false;
  const path = root.pathname.endsWith('/') ? root.pathname : `${root.pathname}/`;
  return given.pathname.startsWith(path) || `${given.pathname}/` === path;
}

function hasParam(url: string, name: string): boolean {
  try {
    return new URL(url).searchParams.has(name);
  } catch {
    return false;
  }
}
