/**
 * The stored-document URL: what an upload answers, and what the convert endpoint, the queue and
 * the pre-signed URL endpoint accept as a document source. It lives beside storage, not in the
 * HTTP layer, so that the queue and the client can read it too.
 *
 *   URL:  <publicUrl>/v3/company/<company, percent-encoded>/file/<sha256>.<pdf|docx>/<name, percent-encoded>
 *   key:  the upload's storage key (storage-keys.ts)
 *
 * The bytes are stored once per company (content-addressed), but the URL is the upload's: it
 * carries the name that upload was given, so uploading the same bytes again under another name
 * answers another URL and never renames one already issued (docs/decisions.md, "An upload's name
 * is in its URL"). URLs issued before names were in them (`.../file/<sha256>.<type>`) still
 * name the document; their name is the one stored beside it (document-meta.ts).
 *
 * The URL is unsigned: it names a document, it does not give access to it. Only a caller with a
 * key of that company turns it into bytes (a pre-signed URL or a conversion). The storage key
 * holds the company, so a URL naming one company can never resolve to another's document.
 */
import { parseStoredDocumentKey, parseUploadId, storedDocumentKey } from './storage-keys.js';
import { isCompanyId } from '../../base/tenancy/index.js';

/** The longest name an upload URL may carry, in characters: the upload name's own limit. */
export const STORED_NAME_MAX_CHARS = 255;

/** What an upload URL names: the company, the stored bytes and, when it has one, the upload's name. */
export interface StoredDocumentUrl {
  company: string;
  key: string;
  /** The name the upload was given; undefined for a URL issued before names were in URLs. */
  name?: string;
}

/**
 * The URL an upload answers for a stored key and the name it was uploaded under (see the file
 * comment for the format). The name is shown in downloads as it is: clean it first (a path
 * segment of its own, so never empty, `.` or `..`).
 */
export function storedDocumentUrl(publicUrl: string, key: string, name?: string): string {
  const ref = parseStoredDocumentKey(key);
  if (!ref) throw new Error(`not a stored document key: ${key}`);
  const url = `${publicUrl.replace(/\/+$/, '')}/v3/company/${encodeURIComponent(ref.company)}/file/${ref.id}`;
  if (name === undefined) return url;
  if (!isNameSegment(name))
    throw new Error(`not a document name an upload URL can carry: ${JSON.stringify(name)}`);
  return `${url}/${encodeURIComponent(name)}`;
}

/**
 * The stored document a URL names, when docpipe issued it under `publicUrl`: same scheme, host,
 * port and base path, no query, fragment or credentials. Anything else (another host, a signed
 * download URL, a render) is undefined: docpipe never fetches a URL a caller names.
 */
export function parseStoredDocumentUrl(
  url: string,
  publicUrl: string,
): StoredDocumentUrl | undefined {
  let given: URL;
  let base: URL;
  try {
    given = new URL(url);
    base = new URL(publicUrl);
  } catch {
    return undefined;
  }
  if (given.origin !== base.origin || given.search || given.hash) return undefined;
  if (given.username || given.password) return undefined;
  const prefix = `${base.pathname.replace(/\/+$/, '')}/v3/company/`;
  if (!given.pathname.startsWith(prefix)) return undefined;
  const match = /^([^/]+)\/file\/([^/]+)(?:\/([^/]+))?$/.exec(given.pathname.slice(prefix.length));
  if (!match) return undefined;
  const company = decoded(match[1]!);
  const name = match[3] === undefined ? undefined : decoded(match[3]);
  const id = parseUploadId(match[2]!);
  if (!id || company === undefined || !isCompanyId(company)) return undefined;
  if (match[3] !== undefined && (name === undefined || !isNameSegment(name))) return undefined;
  const key = storedDocumentKey(company, id.sha256, id.type);
  return name === undefined ? { company, key } : { company, key, name };
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** A name that stands as one path segment and fits the upload name's limit. */
function isNameSegment(name: string): boolean {
  return (
    name !== '' &&
    name !== '.' &&
    name !== '..' &&
    !name.includes('/') &&
    Array.from(name).length <= STORED_NAME_MAX_CHARS
  );
}
