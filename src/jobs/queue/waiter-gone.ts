import type { Failure } from '../../base/errors/index.js';

/**
 * When a job's waiter stopped waiting (its `waitUntil`), if that has passed: a worker that takes
 * such a job skips it, since nobody reads its answer. A job without one (a batch's, or one from
 * a producer before `waitUntil`) is always done.
 */
export function waiterGoneSince(data: unknown, now = Date.now()): number | undefined {
  const waitUntil: unknown = (data as { waitUntil?: unknown } | undefined)?.waitUntil;
  return typeof waitUntil === 'number' && Number.isFinite(waitUntil) && waitUntil < now
    ? waitUntil
    : undefined;
}

/**
 * The skipped job's end, for a waiter that is still there after all (its clock behind the
 * worker's): nothing was rendered, and the same request sent again is.
 */
export function waiterGoneFailure(field: string, waitUntil: number): Failure {
  return {
    error: 'document-conversion-failed',
    details: [
      {
        field,
        message: `not rendered: its waiter stopped waiting at ${new Date(waitUntil).toISOString()}, before a worker took the job; send the request again`,
      },
    ],
    retryable: true,
  };
}
