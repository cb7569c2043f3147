import { companyIdProblem, isCompanyId } from '../../base/tenancy/index.js';
/**
 * Every key docpipe writes to storage, built and read back here alone: the renderer, the queue's
 * client, the upload route and retention all go through this module, so a key's format is
 * written once and a sweep recognises exactly what docpipe wrote.
 *
 *   upload         companies/<company as UTF-8 hex>/uploads/<sha256>.<pdf|docx>
 *   upload name    <upload key>.meta.json
 *   job input      uploads/<sha256>.bin
 *   render         renders/<first two hex of the hash>/<hash>.pdf
 *   render marker  renders/<first two hex of the hash>/<hash>.kept
 *   render places  renders/<first two hex of the hash>/<hash>.places.json
 *
 * Hashes are SHA-256 in lower-case hex. The company is hex-encoded because storage keys are
 * lower-case [a-z0-9._-] and company ids are not; the key holds the company, so an upload of one
 * company can never be named as another's. A render's folder spreads renders over 256 folders.
 */

/** The kinds an upload may be: what the bytes were sniffed as. */
export type StoredDocumentType = 'pdf' | 'docx';

/** A company's uploaded document, as its key names it. */
export interface StoredDocumentRef {
  company: string;
  /** `<sha256>.<pdf|docx>`: the last segment of the upload URL and of the key. */
  id: string;
  key: string;
  type: StoredDocumentType;
}

/** What a key docpipe made stands for; `key` is the key itself. */
export type StorageKey =
  | ({ kind: 'upload'; sha256: string } & StoredDocumentRef)
  /** The name sidecar of the upload at `of`. */
  | { kind: 'upload-name'; key: string; of: string }
  /** A document a queue client stored for a job because it was too large to travel inline. */
  | { kind: 'job-input'; key: string; sha256: string }
  | { kind: 'render'; key: string; hash: string }
  /** The marker of the render at `of`: another request relies on it (see the renderer). */
  | { kind: 'render-marker'; key: string; hash: string; of: string }
  /** The signature places of the render at `of` (see document-meta.ts). */
  | { kind: 'render-places'; key: string; hash: string; of: string };

export type StorageKeyKind = StorageKey['kind'];

/** The top folders docpipe writes keys under, one for each family of kinds. */
export const STORAGE_KEY_FOLDERS = {
  uploads: 'companies/',
  jobInputs: 'uploads/',
  renders: 'renders/',
} as const;

/** Company ids longer than this (in UTF-8 bytes) would not fit a storage key once encoded. */

const SHA256 = /^[0-9a-f]{64}$/;
const UPLOAD_ID = /^([0-9a-f]{64})\.(pdf|docx)$/;
const UPLOAD = /^companies\/((?:[0-9a-f]{2})+)\/uploads\/([0-9a-f]{64}\.(?:pdf|docx))$/;
const NAME_SUFFIX = '.meta.json';
const JOB_INPUT = /^uploads\/([0-9a-f]{64})\.bin$/;
const RENDER = /^renders\/([0-9a-f]{2})\/(([0-9a-f]{2})[0-9a-f]{62})\.(pdf|kept|places\.json)$/;

/** The storage key of a company's uploaded document. */
export function storedDocumentKey(
  company: string,
  sha256: string,
  type: StoredDocumentType,
): string {
  const problem = companyIdProblem(company);
  if (problem) throw new Error(problem);
  return `companies/${Buffer.from(company, 'utf8').toString('hex')}/uploads/${sha(sha256)}.${type}`;
}

/** The key of an upload's name sidecar (see document-meta.ts). */
export function documentMetaKey(uploadKey: string): string {
  return `${uploadKey}${NAME_SUFFIX}`;
}

/** The key a queue client stores a too-large job input under: content-addressed, so a retry is the same object. */
export function jobInputKey(sha256: string): string {
  return `${STORAGE_KEY_FOLDERS.jobInputs}${sha(sha256)}.bin`;
}

/** The key of the PDF rendered from a render cache key's hash. */
export function renderKey(hash: string): string {
  return `${STORAGE_KEY_FOLDERS.renders}${sha(hash).slice(0, 2)}/${hash}.pdf`;
}

/** The key of a render's marker (relied upon by a request other than the one that made it). */
export function renderMarkerKey(hash: string): string {
  return `${STORAGE_KEY_FOLDERS.renders}${sha(hash).slice(0, 2)}/${hash}.kept`;
}

/** The key of a render's signature places, written only for a render that has some. */
export function renderPlacesKey(hash: string): string {
  return `${STORAGE_KEY_FOLDERS.renders}${sha(hash).slice(0, 2)}/${hash}.places.json`;
}

/**
 * What a key stands for, when docpipe made it; undefined for any other key (a readiness probe, a
 * file someone put there, a forged company that is not UTF-8).
 */
export function parseStorageKey(key: string): StorageKey | undefined {
  if (key.endsWith(NAME_SUFFIX)) {
    const of = key.slice(0, -NAME_SUFFIX.length);
    return parseStoredDocumentKey(of) ? { kind: 'upload-name', key, of } : undefined;
  }
  const upload = parseStoredDocumentKey(key);
  if (upload) return { kind: 'upload', sha256: upload.id.slice(0, 64), ...upload };
  const input = JOB_INPUT.exec(key);
  if (input) return { kind: 'job-input', key, sha256: input[1]! };
  const render = RENDER.exec(key);
  // The folder is the hash's first two characters: anything else is not a key docpipe made.
  if (!render || render[1] !== render[3]) return undefined;
  const hash = render[2]!;
  if (render[4] === 'pdf') return { kind: 'render', key, hash };
  return render[4] === 'kept'
    ? { kind: 'render-marker', key, hash, of: renderKey(hash) }
    : { kind: 'render-places', key, hash, of: renderKey(hash) };
}

/** The company, id and type of an upload's key; undefined for any other key (renders...). */
export function parseStoredDocumentKey(key: string): StoredDocumentRef | undefined {
  const match = UPLOAD.exec(key);
  if (!match) return undefined;
  const company = Buffer.from(match[1]!, 'hex').toString('utf8');
  // A hex string that is not UTF-8 decodes to replacement characters: not a key docpipe made.
  if (Buffer.from(company, 'utf8').toString('hex') !== match[1] || !isCompanyId(company))
    return undefined;
  const id = match[2]!;
  return { company, id, key, type: UPLOAD_ID.exec(id)![2] as StoredDocumentType };
}

/** The hash and type of an upload id (`<sha256>.<pdf|docx>`), or undefined for anything else. */
export function parseUploadId(
  id: string,
): { sha256: string; type: StoredDocumentType } | undefined {
  const match = UPLOAD_ID.exec(id);
  return match ? { sha256: match[1]!, type: match[2] as StoredDocumentType } : undefined;
}

function sha(hash: string): string {
  if (!SHA256.test(hash)) throw new Error(`not a sha256 in hex: ${hash}`);
  return hash;
}
