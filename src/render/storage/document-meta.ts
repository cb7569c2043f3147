import type { SignaturePlace } from '../../document/anchors/index.js';
import type { Storage } from './storage.js';
import { documentMetaKey, renderPlacesKey } from './storage-keys.js';

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

/** What is kept beside a render's PDF because it cannot be read from the PDF again. */
export interface RenderSidecar {
  places: SignaturePlace[];
  /** Tags whose filled values the PDF's text layer does not show (value-not-shown). */
  notShown: string[];
}

/**
 * A render's signature places and the tags of its values not shown, kept beside its PDF
 * (`<hash>.places.json`) because they cannot be read from it again: the markers they were
 * measured from are gone, and which values were filled is fill's to know. Written before the PDF,
 * and only when there is something to keep, so that a render whose PDF is stored has its sidecar
 * stored too; a cache hit reads it with the PDF. Retention ages and removes it with its PDF.
 */
export async function writeRenderPlaces(
  storage: Storage,
  hash: string,
  places: readonly SignaturePlace[],
  notShown: readonly string[] = [],
): Promise<void> {
  await storage.put(
    renderPlacesKey(hash),
    Buffer.from(JSON.stringify(notShown.length > 0 ? { places, notShown } : { places })),
    'application/json',
  );
}

/**
 * A render's places: an empty list when none were written, undefined when the sidecar is not
 * readable as places (a damaged file: the render is made again, as for a damaged PDF).
 */
export async function readRenderPlaces(
  storage: Storage,
  hash: string,
): Promise<SignaturePlace[] | undefined> {
  return (await readRenderSidecar(storage, hash))?.places;
}

/**
 * A render's sidecar: empty when none was written, undefined when it is not readable (a damaged
 * file: the render is made again). A sidecar written before `notShown` existed has none.
 */
export async function readRenderSidecar(
  storage: Storage,
  hash: string,
): Promise<RenderSidecar | undefined> {
  const bytes = await storage.get(renderPlacesKey(hash));
  if (!bytes) return { places: [], notShown: [] };
  try {
    const parsed = JSON.parse(bytes.toString('utf8')) as {
      places?: unknown;
      notShown?: unknown;
    } | null;
    const places = parsed?.places;
    const notShown = parsed?.notShown ?? [];
    if (!Array.isArray(places) || !places.every(isPlace)) return undefined;
    if (!Array.isArray(notShown) || !notShown.every((t) => typeof t === 'string')) return undefined;
    return { places, notShown };
  } catch {
    return undefined;
  }
}

function isPlace(value: unknown): value is SignaturePlace {
  const p = value as Partial<SignaturePlace> | null;
  const r = p?.rect;
  return (
    typeof p?.kind === 'string' &&
    typeof p.recipient === 'number' &&
    typeof p.page === 'number' &&
    typeof r?.x === 'number' &&
    typeof r.y === 'number' &&
    typeof r.width === 'number' &&
    typeof r.height === 'number'
  );
}
