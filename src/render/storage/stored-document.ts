/**
 * The stored-document URL: what an upload answers, and what the convert endpoint, the queue and
 * the pre-signed URL endpoint accept as a document source. It lives beside storage, not in the
 * HTTP layer, so that the queue and the client can read it too.
 *
 *   URL:  <publicUrl>/v3/company/<company, percent-encoded>/file/<sha256>.<pdf|docx>
 *   key:  companies/<company as UTF-8 hex>/uploads/<sha256>.<pdf|docx>
 *
 * The URL is unsigned: it names a document, it does not give access to it. Only a caller with a
 * key of that company turns it into bytes (a pre-signed URL or a conversion). The storage key
 * holds the company, so a URL naming one company can never resolve to another's document; the
 * company is hex-encoded because storage keys are lower-case [a-z0-9._-] and company ids are not.
 */

/** The kinds an upload may be: what the bytes were sniffed as. */
export type StoredDocumentType = 'pdf' | 'docx';

export interface StoredDocumentRef {
  company: string;
  /** `<sha256>.<pdf|docx>`: the last segment of the URL and of the key. */
  id: string;
  key: string;
  type: StoredDocumentType;
}

/** Company ids longer than this (in UTF-8 bytes) would not fit a storage key once encoded. */
export const MAX_COMPANY_BYTES = 128;

const ID = /^([0-9a-f]{64})\.(pdf|docx)$/;
const KEY = /^companies\/((?:[0-9a-f]{2})+)\/uploads\/([0-9a-f]{64}\.(?:pdf|docx))$/;

/** Why a company id cannot name stored documents, or undefined when it can. */
export function companyProblem(company: string): string | undefined {
  if (company.length === 0) return 'the company id is empty';
  const bytes = Buffer.byteLength(company, 'utf8');
  if (bytes > MAX_COMPANY_BYTES)
    return `the company id has ${bytes} bytes; at most ${MAX_COMPANY_BYTES} are supported`;
  return undefined;
}

/** The storage key of a company's uploaded document. */
export function storedDocumentKey(
  company: string,
  sha256: string,
  type: StoredDocumentType,
): string {
  const problem = companyProblem(company);
  if (problem) throw new Error(problem);
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a sha256 in hex: ${sha256}`);
  return `companies/${Buffer.from(company, 'utf8').toString('hex')}/uploads/${sha256}.${type}`;
}

/** The URL an upload answers for a stored key (see the file comment for the format). */
export function storedDocumentUrl(publicUrl: string, key: string): string {
  const ref = parseStoredDocumentKey(key);
  if (!ref) throw new Error(`not a stored document key: ${key}`);
  return `${publicUrl.replace(/\/+$/, '')}/v3/company/${encodeURIComponent(ref.company)}/file/${ref.id}`;
}

/** The company, id and type of a stored document key; undefined for any other key (renders...). */
export function parseStoredDocumentKey(key: string): StoredDocumentRef | undefined {
  const match = KEY.exec(key);
  if (!match) return undefined;
  const company = Buffer.from(match[1]!, 'hex').toString('utf8');
  // A hex string that is not UTF-8 decodes to replacement characters: not a key docpipe made.
  if (Buffer.from(company, 'utf8').toString('hex') !== match[1] || companyProblem(company))
    return undefined;
  const id = match[2]!;
  return { company, id, key, type: ID.exec(id)![2] as StoredDocumentType };
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
  const id = ID.exec(match[2]!);
  if (!id || companyProblem(company)) return undefined;
  return {
    company,
    key: storedDocumentKey(company, id[1]!, id[2] as StoredDocumentType),
  };
}
