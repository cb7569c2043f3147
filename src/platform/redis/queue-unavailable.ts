import type { Outage } from '../../base/errors/index.js';
import { safeUrl } from '../../base/util/index.js';

/** Why a producer cannot get its documents done: no Redis to talk to, or nobody taking jobs. */
export type UnavailableReason = 'redis-unreachable' | 'no-worker';

/**
 * The queue itself is not there: Redis does not answer, or no worker has been connected to it
 * for longer than the client waits. Not a document's failure (no slug of the registry fits, and
 * retrying the same request later may well succeed), so it is its own class; an API server
 * answers it as the outage it is (src/base/errors/outages.ts), the CLI with exit status 3. It never crosses
 * a thread or the queue (it is raised where the queue is found missing), so it is known by its
 * class alone.
 */
export class QueueUnavailableError extends Error implements Outage {
  override readonly name = 'QueueUnavailableError';
  readonly outage = 'queue-unavailable';

  constructor(
    readonly reason: UnavailableReason,
    readonly redisUrl: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** `forMs`: how long it has not answered, when it answered before. */
  static unreachable(redisUrl: string, forMs?: number, cause?: unknown): QueueUnavailableError {
    // A socket's error code says why (ECONNREFUSED: nothing listens); ioredis's own messages
    // about its connection state ("Stream isn't writeable") say nothing to a user.
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    const why = code ? ` (${code})` : '';
    const what =
      forMs === undefined
        ? `cannot reach Redis at ${safeUrl(redisUrl)}${why}. `
        : `Redis at ${safeUrl(redisUrl)} has not answered for ${seconds(forMs)}${why}. `;
    return new QueueUnavailableError(
      'redis-unreachable',
      redisUrl,
      what +
        'Start it ("docpipe start" runs its own; with REDIS_URL, that Redis), then run this again; ' +
        'jobs already queued stay queued.',
      { cause },
    );
  }

  static noWorker(redisUrl: string, forMs: number, enqueued: boolean): QueueUnavailableError {
    return new QueueUnavailableError(
      'no-worker',
      redisUrl,
      `no worker is running: none has been connected to Redis at ${safeUrl(redisUrl)} for ${seconds(forMs)}. ` +
        'Start one with "docpipe start" (or "docpipe worker" beside a running one), then run this again; ' +
        (enqueued ? 'jobs already queued stay queued.' : 'nothing was queued.'),
    );
  }
}

export function isQueueUnavailableError(err: unknown): err is QueueUnavailableError {
  return err instanceof QueueUnavailableError;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
