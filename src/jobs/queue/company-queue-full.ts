import { QUEUE_FULL_RETRY_AFTER_S, type Outage } from '../../base/errors/index.js';

/** How long a refused producer is told to wait before it tries again: the outage table's. */
export { QUEUE_FULL_RETRY_AFTER_S };

/**
 * A company has as many jobs waiting as it may (DOCPIPE_COMPANY_MAX_QUEUED): nothing of the
 * request was queued. Not a document's failure (the same request succeeds once some of the
 * company's jobs have started), so, like QueueUnavailableError, it is its own class: HTTP answers
 * 429 with Retry-After, the CLI exits 3 (try again later).
 */
export class CompanyQueueFullError extends Error implements Outage {
  override readonly name = 'CompanyQueueFullError';
  readonly outage = 'company-queue-full';
  readonly retryAfterSeconds = QUEUE_FULL_RETRY_AFTER_S;

  constructor(
    readonly company: string,
    readonly queued: number,
    readonly asked: number,
    readonly cap: number,
  ) {
    super(
      `company ${company} has ${queued} document jobs waiting, and ${asked} more would pass its cap of ${cap} ` +
        `(DOCPIPE_COMPANY_MAX_QUEUED); nothing was queued. Send them again in ${QUEUE_FULL_RETRY_AFTER_S} s, ` +
        'or in smaller parts as earlier ones finish.',
    );
  }
}

export function isCompanyQueueFullError(err: unknown): err is CompanyQueueFullError {
  return err instanceof CompanyQueueFullError;
}
