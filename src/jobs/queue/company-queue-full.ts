/** How long a refused producer is told to wait before it tries again. */
export const QUEUE_FULL_RETRY_AFTER_S = 10;

/**
 * A company has as many jobs waiting as it may (DOCPIPE_COMPANY_MAX_QUEUED): nothing of the
 * request was queued. Not a document's failure (the same request succeeds once some of the
 * company's jobs have started), so, like QueueUnavailableError, it is its own class: HTTP answers
 * 429 with Retry-After, the CLI exits 3 (try again later).
 */
export class CompanyQueueFullError extends Error {
  override readonly name = 'CompanyQueueFullError';
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
