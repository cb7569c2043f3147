import { FAILURES, isFailureSlug, type FailureSlug } from './registry.js';

/** One problem, located by a path into the request payload (`documents[1]`, `tags[0].value`). */
export interface FailureDetail {
  field: string;
  message: string;
}

/** The wire form of a failure, as the spec's v3 envelope: `{error, details}`. */
export interface Failure {
  error: FailureSlug;
  details: FailureDetail[];
  /**
   * Present when this failure's retryability differs from its slug's (a busy converter under
   * `document-conversion-failed` is worth retrying). Internal: the HTTP envelope leaves it out.
   */
  retryable?: boolean;
}

/**
 * A typed failure. Every failure docpipe reports is one of these; anything else that escapes is a
 * bug and is reported as such by the adapters.
 */
export class DocpipeError extends Error {
  override readonly name = 'DocpipeError';
  readonly slug: FailureSlug;
  readonly details: FailureDetail[];
  private readonly retryableOverride: boolean | undefined;

  constructor(
    slug: FailureSlug,
    details: FailureDetail[],
    options?: { cause?: unknown; retryable?: boolean },
  ) {
    super(summarize(slug, details), options);
    this.slug = slug;
    this.details = details;
    this.retryableOverride = options?.retryable;
  }

  get status(): number {
    return FAILURES[this.slug].status;
  }

  get retryable(): boolean {
    return this.retryableOverride ?? FAILURES[this.slug].retryable;
  }

  toFailure(): Failure {
    const failure: Failure = { error: this.slug, details: this.details.map((d) => ({ ...d })) };
    if (
      this.retryableOverride !== undefined &&
      this.retryableOverride !== FAILURES[this.slug].retryable
    ) {
      failure.retryable = this.retryableOverride;
    }
    return failure;
  }

  /** Rebuilds the class from the wire form, for failures that crossed a thread or process. */
  static fromFailure(failure: Failure): DocpipeError {
    return new DocpipeError(failure.error, failure.details, { retryable: failure.retryable });
  }
}

function summarize(slug: FailureSlug, details: FailureDetail[]): string {
  if (details.length === 0) return slug;
  const first = details[0]!;
  const more = details.length > 1 ? ` (+${details.length - 1} more)` : '';
  return `${slug}: ${first.field}: ${first.message}${more}`;
}

/** Checks the shape of a failure that arrived from another thread, process or the queue. */
export function isFailure(value: unknown): value is Failure {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { error?: unknown; details?: unknown };
  return (
    isFailureSlug(v.error) &&
    Array.isArray(v.details) &&
    v.details.every(
      (d: unknown) =>
        typeof d === 'object' &&
        d !== null &&
        typeof (d as FailureDetail).field === 'string' &&
        typeof (d as FailureDetail).message === 'string',
    )
  );
}

/**
 * Errors from other threads lose their class (see BullMQ's worker), so this checks the name and
 * the shape as well as `instanceof`.
 */
export function isDocpipeError(err: unknown): err is DocpipeError {
  if (err instanceof DocpipeError) return true;
  return (
    typeof err === 'object' &&
    err !== null &&
    (err as { name?: unknown }).name === 'DocpipeError' &&
    isFailureSlug((err as { slug?: unknown }).slug) &&
    Array.isArray((err as { details?: unknown }).details)
  );
}

/** Prefixes every detail's field with the path of the document it belongs to. */
export function withFieldPrefix(details: FailureDetail[], prefix: string): FailureDetail[] {
  if (!prefix) return details;
  return details.map((d) => ({
    field: d.field ? (d.field.startsWith('[') ? prefix + d.field : `${prefix}.${d.field}`) : prefix,
    message: d.message,
  }));
}
