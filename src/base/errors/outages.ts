/**
 * Outages: a part docpipe needs is not there, or not in time. None is the request's fault (no
 * slug of the failure registry fits, and the same request may well succeed later, unchanged),
 * so each is an error class of its own where it is raised, marked with its kind in `outage`:
 * QueueUnavailableError (platform), DatabaseUnavailableError (platform), CompanyQueueFullError
 * (the queue), StorageUnavailableError (storage), EidBrokerUnavailableError (service/eid), the HTTP convert's deadline and caller gone, and the
 * HTTP service's stop (ServiceStoppingError). This table is how every surface
 * answers each one: the HTTP status, how long a caller is told to wait (`Retry-After`), and the
 * docpipe command's exit status. test/unit/outages.test.ts holds the surfaces to it.
 */

/**
 * The exit status of "not now: try again later" (the CLI's EXIT.unavailable): apart from bad
 * usage (2), because a script retries this one and fixes that one.
 */
export const EXIT_UNAVAILABLE = 3;
/** The exit status of a run its user stopped: 128 + SIGINT, as a shell reports Ctrl-C. */
export const EXIT_INTERRUPTED = 130;

/** How long a caller is told to wait when the queue (Redis, a worker) does not answer. */
export const QUEUE_RETRY_AFTER_S = 30;
/**
 * How long a caller is told to wait when PostgreSQL does not answer: a restart or a fail-over of
 * the server takes seconds to a minute, as Redis's does.
 */
export const DATABASE_RETRY_AFTER_S = 30;
/** How long a caller is told to wait when the document store does not answer. */
export const STORAGE_RETRY_AFTER_S = 30;
/**
 * How long a signer is told to wait when the eID broker does not answer: a broker's own outage
 * lasts minutes, and each try costs the signer a round trip to it.
 */
export const EID_BROKER_RETRY_AFTER_S = 60;
/** How long a caller is told to wait when docpipe is stopping: a restart takes seconds. */
export const STOPPING_RETRY_AFTER_S = 10;
/** How long a refused producer is told to wait: by then some of its company's jobs have started. */
export const QUEUE_FULL_RETRY_AFTER_S = 10;

export interface OutageSpec {
  /** The HTTP status every surface answers it with, in its own body shape. */
  status: number;
  /**
   * `Retry-After`, in seconds. The convert endpoint may be configured otherwise for the queue's
   * outages (its `retryAfterSeconds`).
   */
  retryAfterSeconds: number;
  /** The docpipe command's exit status. */
  exit: number;
  description: string;
}

export const OUTAGES = {
  'queue-unavailable': {
    status: 503,
    retryAfterSeconds: QUEUE_RETRY_AFTER_S,
    exit: EXIT_UNAVAILABLE,
    description: 'Redis does not answer, or no worker takes jobs.',
  },
  'database-unavailable': {
    status: 503,
    retryAfterSeconds: DATABASE_RETRY_AFTER_S,
    exit: EXIT_UNAVAILABLE,
    description:
      'PostgreSQL does not answer: API keys cannot be checked, nor records read or written.',
  },
  'storage-unavailable': {
    status: 503,
    retryAfterSeconds: STORAGE_RETRY_AFTER_S,
    exit: EXIT_UNAVAILABLE,
    description: 'The document store is missing, refuses the credentials, or does not answer.',
  },
  'company-queue-full': {
    status: 429,
    retryAfterSeconds: QUEUE_FULL_RETRY_AFTER_S,
    exit: EXIT_UNAVAILABLE,
    description:
      'The company has as many jobs waiting as it may (DOCPIPE_COMPANY_MAX_QUEUED); nothing was queued.',
  },
  deadline: {
    status: 503,
    retryAfterSeconds: QUEUE_RETRY_AFTER_S,
    exit: EXIT_UNAVAILABLE,
    description:
      "No answer within the request's time: the queue is busier than its workers can take.",
  },
  'eid-broker-unavailable': {
    status: 503,
    retryAfterSeconds: EID_BROKER_RETRY_AFTER_S,
    exit: EXIT_UNAVAILABLE,
    description:
      'The eID broker (OpenID Connect) does not answer: only eID signing waits; cases and draw signatures go on.',
  },
  stopping: {
    status: 503,
    retryAfterSeconds: STOPPING_RETRY_AFTER_S,
    exit: EXIT_UNAVAILABLE,
    description:
      'docpipe is stopping (a restart, an upgrade): a new request, or one the stop cut short, was not done; it answers with `Connection: close`.',
  },
  'caller-gone': {
    // Nobody reads this answer; the status is for the access log and the metrics.
    status: 503,
    retryAfterSeconds: QUEUE_RETRY_AFTER_S,
    exit: EXIT_INTERRUPTED,
    description: 'The caller left before the answer; its jobs that had not started were withdrawn.',
  },
} as const satisfies Record<string, OutageSpec>;

export type OutageKind = keyof typeof OUTAGES;

/** An error that is an outage: its class names which one. */
export interface Outage {
  readonly outage: OutageKind;
}

export function isOutageKind(value: unknown): value is OutageKind {
  return typeof value === 'string' && Object.hasOwn(OUTAGES, value);
}

/**
 * The outage an error is, or undefined. Read from its `outage` member, so that this module knows
 * the classes of every layer above it without importing them.
 */
export function outageOf(err: unknown): OutageKind | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const kind = (err as Partial<Outage>).outage;
  return isOutageKind(kind) ? kind : undefined;
}
