import {
  STORAGE_KEY_FOLDERS,
  documentMetaKey,
  parseStorageKey,
  renderMarkerKey,
  renderPlacesKey,
  type StorageKey,
} from '../../render/storage/index.js';

/**
 * What a stored object is, for retention:
 * - `uploads`: a company's uploaded document `companies/<hex>/uploads/<sha256>.<pdf|docx>` and
 *   its name sidecar `<same>.meta.json`;
 * - `job-inputs`: a document the queue's client stored for a job because it was too large to
 *   travel inline, `uploads/<sha256>.bin`;
 * - `renders`: a rendered PDF `renders/<xx>/<hash>.pdf`, its marker `<same>.kept` and its
 *   signature places `<same>.places.json`;
 * - `other`: anything else (a readiness probe, a file someone put there): never removed.
 */
export type ObjectKind = 'uploads' | 'job-inputs' | 'renders' | 'other';

/** The kinds retention removes, in the order they are reported. */
export const SWEPT_KINDS = ['uploads', 'job-inputs', 'renders'] as const;
export type SweptKind = (typeof SWEPT_KINDS)[number];

/** Every kind, in the order stats report them. */
export const OBJECT_KINDS: readonly ObjectKind[] = [...SWEPT_KINDS, 'other'];

/**
 * The storage folders retention lists. Other folders are never listed, so nothing outside them
 * is ever a candidate.
 */
export const SWEPT_FOLDERS = [
  STORAGE_KEY_FOLDERS.uploads,
  STORAGE_KEY_FOLDERS.jobInputs,
  STORAGE_KEY_FOLDERS.renders,
] as const;

export interface ClassifiedKey {
  kind: ObjectKind;
  /**
   * The key of the object the group is named after (the upload, the PDF): an object and its
   * companions (sidecar, marker) share it, are aged together and removed together.
   */
  group: string;
}

export function classifyKey(key: string): ClassifiedKey {
  const parsed = parseStorageKey(key);
  return parsed ? classified(parsed) : { kind: 'other', group: key };
}

function classified(key: StorageKey): ClassifiedKey {
  switch (key.kind) {
    case 'upload':
      return { kind: 'uploads', group: key.key };
    case 'upload-name':
      return { kind: 'uploads', group: key.of };
    case 'job-input':
      return { kind: 'job-inputs', group: key.key };
    case 'render':
      return { kind: 'renders', group: key.key };
    case 'render-marker':
    case 'render-places':
      return { kind: 'renders', group: key.of };
  }
}

/**
 * Every key a group may have, the one it is named after first: what a removal stats and deletes,
 * including a companion written after the listing (a render's marker, written on its first
 * reuse from the cache).
 */
export function groupKeys(kind: ObjectKind, group: string): string[] {
  switch (kind) {
    case 'uploads':
      return [group, documentMetaKey(group)];
    case 'renders': {
      const render = parseStorageKey(group);
      return render?.kind === 'render'
        ? [group, renderMarkerKey(render.hash), renderPlacesKey(render.hash)]
        : [group];
    }
    case 'job-inputs':
    case 'other':
      return [group];
  }
}
