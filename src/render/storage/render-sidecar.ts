import type { SignaturePlace } from '../../document/anchors/index.js';
import type { Storage } from './storage.js';
import { renderPlacesKey } from './storage-keys.js';

/** A filled value with characters no installed font draws (the notice characters-not-drawn). */
export interface ValueNotDrawn {
  tag: string;
  characters: string[];
}

/** What is kept beside a render's PDF because it cannot be read from the PDF again. */
export interface RenderSidecar {
  places: SignaturePlace[];
  /** Tags whose filled values the PDF's text layer does not show (value-not-shown). */
  notShown: string[];
  /** Values with characters no installed font has (characters-not-drawn). */
  notDrawn: ValueNotDrawn[];
}

const EMPTY: RenderSidecar = { places: [], notShown: [], notDrawn: [] };

/** Whether a render has anything to keep beside its PDF. */
export function sidecarNeeded(sidecar: RenderSidecar): boolean {
  return sidecar.places.length > 0 || sidecar.notShown.length > 0 || sidecar.notDrawn.length > 0;
}

/**
 * A render's signature places and what fill knew of its values (those not shown, those with
 * characters no font draws), kept beside its PDF (`<hash>.places.json`) because they cannot be
 * read from it again: the markers they were measured from are gone, and which values were filled
 * is fill's to know. Written before the PDF, and only when there is something to keep, so that a
 * render whose PDF is stored has its sidecar stored too; a cache hit reads it with the PDF.
 * Retention ages and removes it with its PDF. Empty members are left out.
 */
export async function writeRenderSidecar(
  storage: Storage,
  hash: string,
  sidecar: RenderSidecar,
): Promise<void> {
  const { places, notShown, notDrawn } = sidecar;
  const kept = {
    places,
    ...(notShown.length > 0 ? { notShown } : {}),
    ...(notDrawn.length > 0 ? { notDrawn } : {}),
  };
  await storage.put(renderPlacesKey(hash), Buffer.from(JSON.stringify(kept)), 'application/json');
}

/**
 * A render's sidecar: empty when none was written, undefined when it is not readable (a damaged
 * file: the render is made again). A sidecar written before `notShown` or `notDrawn` existed has
 * none of them.
 */
export async function readRenderSidecar(
  storage: Storage,
  hash: string,
): Promise<RenderSidecar | undefined> {
  const bytes = await storage.get(renderPlacesKey(hash));
  if (!bytes) return EMPTY;
  try {
    const parsed = JSON.parse(bytes.toString('utf8')) as {
      places?: unknown;
      notShown?: unknown;
      notDrawn?: unknown;
    } | null;
    const places = parsed?.places;
    const notShown = parsed?.notShown ?? [];
    const notDrawn = parsed?.notDrawn ?? [];
    if (!Array.isArray(places) || !places.every(isPlace)) return undefined;
    if (!Array.isArray(notShown) || !notShown.every((t) => typeof t === 'string')) return undefined;
    if (!Array.isArray(notDrawn) || !notDrawn.every(isNotDrawn)) return undefined;
    return { places, notShown, notDrawn };
  } catch {
    return undefined;
  }
}

function isNotDrawn(value: unknown): value is ValueNotDrawn {
  const v = value as Partial<ValueNotDrawn> | null;
  return (
    typeof v?.tag === 'string' &&
    Array.isArray(v.characters) &&
    v.characters.every((c) => typeof c === 'string')
  );
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
