import { detailText } from './detail-text.js';
import type { FailureDetail } from './failure-detail.js';
import { FAILURES, isFailureSlug, type FailureSlug } from './registry.js';

export type { FailureDetail } from './failure-detail.js';

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

  /**
   * Rebuilds the class from the wire form, for failures that crossed a thread, a process or the
   * queue. Anything that is not a failure of the registry (an unknown slug, details without a
   * field or message) is refused with a plain Error: it is a bug on the sending side, not a
   * failure to report as typed.
   */
  static fromFailure(failure: Failure): DocpipeError {
    const problem = failureProblem(failure);
    if (problem !== undefined) throw new TypeError(`not a docpipe failure: ${problem}`);
    return new DocpipeError(
      failure.error,
      failure.details.map((d) => ({ field: d.field, message: d.message })),
      { retryable: failure.retryable },
    );
  }
}

function summarize(slug: FailureSlug, details: FailureDetail[]): string {
  if (details.length === 0) return slug;
  const first = details[0]!;
  const more = details.length > 1 ? ` (+${details.length - 1} more)` : '';
  return `${slug}: ${detailText(first)}${more}`;
}

/** Checks the shape of a failure that arrived from another thread, process or the queue. */
export function isFailure(value: unknown): value is Failure {
  return failureProblem(value) === undefined;
}

/** What keeps `value` from being a failure of the registry, in words; undefined if nothing. */
export function failureProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'not an object';
  const v = value as { error?: unknown; details?: unknown; retryable?: unknown };
  if (!isFailureSlug(v.error)) return `unknown slug ${JSON.stringify(v.error) ?? 'undefined'}`;
  if (v.retryable !== undefined && typeof v.retryable !== 'boolean')
    return 'retryable is not a boolean';
  return detailsProblem(v.details);
}

function detailsProblem(details: unknown): string | undefined {
  if (!Array.isArray(details)) return 'details is not a list';
  const bad = details.findIndex(
    (d: unknown) =>
      typeof d !== 'object' ||
      d === null ||
      typeof (d as FailureDetail).field !== 'string' ||
      typeof (d as FailureDetail).message !== 'string',
  );
  return bad < 0 ? undefined : `details[${bad}] has no field and message`;
}

/**
 * Only a real failure: a DocpipeError whose slug is in the registry and whose details are well
 * formed. An error that crossed a thread or process has lost its class and its slug (structured
 * cloning keeps only name, message and stack), so failures cross as `toFailure()` and come back
 * through `DocpipeError.fromFailure`; an object that merely says it is a DocpipeError is not one.
 */
export function isDocpipeError(err: unknown): err is DocpipeError {
  return (
    err instanceof DocpipeError &&
    isFailureSlug(err.slug) &&
    detailsProblem(err.details) === undefined
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
