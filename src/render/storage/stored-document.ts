/**
 * The stored-document URL: what an upload answers, and what the convert endpoint, the queue and
 * the pre-signed URL endpoint accept as a document source. It lives beside storage, not in the
 * HTTP layer, so that the queue and the client can read it too.
 *
 *   URL:  <publicUrl>/v3/company/<company, percent-encoded>/file/<sha256>.<pdf|docx>
 *   key:  the upload's storage key (storage-keys.ts)
 *
 * The URL is unsigned: it names a document, it does not give access to it. Only a caller with a
 * key of that company turns it into bytes (a pre-signed URL or a conversion). The storage key
 * holds the company, so a URL naming one company can never resolve to another's document.
 */
import { parseStoredDocumentKey, parseUploadId, storedDocumentKey } from './storage-keys.js';
import { isCompanyId } from '../../base/tenancy/index.js';

/** The URL an upload answers for a stored key (see the file comment for the format). */
export function storedDocumentUrl(publicUrl: string, key: string): string {
  const ref = parseStoredDocumentKey(key);
  if (!ref) throw new Error(`not a stored document key: ${key}`);
  return `${publicUrl.replace(/\/+$/, '')}/v3/company/${encodeURIComponent(ref.company)}/file/${ref.id}`;
}

/**
 * The stored document a URL names, when docpipe issued it under `publicUrl`: same scheme, host,
 * port and base path, no query, fragment or credentials. Anything else (another host, a signed
 * download URL, a render) is undefined: docpipe never fetches a URL a caller names.
 */
export function parseStoredDocumentUrl(
  url: string,
  publicUrl: string,
): { company: string; key: string } | undefined {
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
  const match = /^([^/]+)\/file\/([^/]+)$/.exec(given.pathname.slice(prefix.length));
  if (!match) return undefined;
  let company: string;
  try {
    company = decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
  const id = parseUploadId(match[2]!);
  if (!id || !isCompanyId(company)) return undefined;
  return { company, key: storedDocumentKey(company, id.sha256, id.type) };
}
