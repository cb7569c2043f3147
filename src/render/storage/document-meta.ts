import type { Storage } from './storage.js';
import { documentMetaKey } from './storage-keys.js';

/**
 * What a download says about a stored object beside its bytes: the document's name, for
 * `Content-Disposition`. Kept as a small JSON object next to the object (`<key>.meta.json`), so
 * that any storage backend holds it and any HTTP server reads it. Content-addressed objects are
 * shared by every upload of the same bytes, so this is not where an upload's name lives (its URL
 * carries it: stored-document.ts); it is the name of URLs issued before names were in URLs, and
 * it is written once, by the first upload, so that no later upload renames those.
 */
export interface DocumentMeta {
  /** The document's name as its uploader or renderer gave it; never a path. */
  name: string;
}

export async function writeDocumentMeta(
  storage: Storage,
  key: string,
  meta: DocumentMeta,
): Promise<void> {
  await storage.put(documentMetaKey(key), Buffer.from(JSON.stringify(meta)), 'application/json');
}

/**
 * Writes the metadata unless the object already has some: the name an unnamed URL downloads as
 * never changes once given. Two first uploads at once may both write; either name is right.
 */
export async function writeDocumentMetaOnce(
  storage: Storage,
  key: string,
  meta: DocumentMeta,
): Promise<void> {
  if (await storage.stat(documentMetaKey(key))) return;
  await writeDocumentMeta(storage, key, meta);
}

/** The metadata of an object, or undefined when none was written or it is not readable as such. */
export async function readDocumentMeta(
  storage: Storage,
  key: string,
): Promise<DocumentMeta | undefined> {
  const bytes = await storage.get(documentMetaKey(key));
  if (!bytes) return undefined;
  try {
    const value = JSON.parse(bytes.toString('utf8')) as unknown;
    const name = (value as { name?: unknown } | null)?.name;
    return typeof name === 'string' && name !== '' ? { name } : undefined;
  } catch {
    // A damaged sidecar loses only the name; the document itself is still served.
    return undefined;
  }
}
