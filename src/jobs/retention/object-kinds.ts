import { documentMetaKey, parseStoredDocumentKey } from '../../render/storage/index.js';

/**
 * What a stored object is, for retention:
 * - `uploads`: a company's uploaded document `companies/<hex>/uploads/<sha256>.<pdf|docx>` and
 *   its name sidecar `<same>.meta.json`;
 * - `job-inputs`: a document the queue's client stored for a job because it was too large to
 *   travel inline, `uploads/<sha256>.bin`;
 * - `renders`: a rendered PDF `renders/<xx>/<hash>.pdf` and its marker `<same>.kept`;
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
export const SWEPT_FOLDERS = ['companies/', 'uploads/', 'renders/'] as const;

export interface ClassifiedKey {
  kind: ObjectKind;
  /**
   * The key of the object the group is named after (the upload, the PDF): an object and its
   * companions (sidecar, marker) share it, are aged together and removed together.
   */
  group: string;
}

const META_SUFFIX = documentMetaKey('');
const JOB_INPUT = /^uploads\/[0-9a-f]{64}\.bin$/;
const RENDER = /^renders\/([0-9a-f]{2})\/(([0-9a-f]{2})[0-9a-f]{62})\.(pdf|kept)$/;

export function classifyKey(key: string): ClassifiedKey {
  const upload = key.endsWith(META_SUFFIX) ? key.slice(0, -META_SUFFIX.length) : key;
  if (parseStoredDocumentKey(upload)) return { kind: 'uploads', group: upload };
  if (JOB_INPUT.test(key)) return { kind: 'job-inputs', group: key };
  const render = RENDER.exec(key);
  // The folder is the hash's first two characters: anything else is not a key docpipe made.
  if (render && render[1] === render[3])
    return { kind: 'renders', group: `renders/${render[1]}/${render[2]}.pdf` };
  return { kind: 'other', group: key };
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
    case 'renders':
      return [group, group.replace(/\.pdf$/, '.kept')];
    case 'job-inputs':
    case 'other':
      return [group];
  }
}
