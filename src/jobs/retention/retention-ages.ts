import type { ObjectKind } from './object-kinds.js';

/**
 * How old stored objects may get (the configuration's RetentionConfig fits): undefined keeps
 * that kind for ever.
 */
export interface RetentionAges {
  /** Uploads and job inputs: removed this long after they were last written. */
  uploadsMs: number | undefined;
  /** Renders: removed this long after they were last written or reused from the cache. */
  rendersMs: number | undefined;
}

/**
 * Nothing written this recently is ever removed, whatever the ages say: an upload whose job is
 * being added right now, or a render being handed to its requester, is not yet visible as a
 * job's reference. Ten minutes is far longer than either step takes.
 */
export const RECENT_GRACE_MS = 10 * 60_000;

/** The age at which objects of a kind are removed; undefined when they are kept. */
export function ageLimit(kind: ObjectKind, ages: RetentionAges): number | undefined {
  switch (kind) {
    case 'uploads':
    case 'job-inputs':
      return ages.uploadsMs;
    case 'renders':
      return ages.rendersMs;
    case 'other':
      return undefined;
  }
}

/** Whether an object of `kind` last written at `modified` is past its age at `now`. */
export function isExpired(
  kind: ObjectKind,
  modified: Date,
  ages: RetentionAges,
  now: number,
): boolean {
  const limit = ageLimit(kind, ages);
  if (limit === undefined) return false;
  const age = now - modified.getTime();
  return age >= limit && age >= RECENT_GRACE_MS;
}

/** Whether retention removes anything at all with these ages. */
export function retentionOn(ages: RetentionAges): boolean {
  return ages.uploadsMs !== undefined || ages.rendersMs !== undefined;
}
