import { EXIT_UNAVAILABLE, OUTAGES, outageOf } from '../../base/errors/index.js';
import { InputError } from '../../base/files/index.js';

/** What the docpipe command's exit status means. Scripts branch on these. */
export const EXIT = {
  /** Everything asked for succeeded. */
  ok: 0,
  /** A document failed with a typed failure (or was refused by sniff). */
  failed: 1,
  /** Bad usage: unknown option, missing argument, unreadable input file, invalid JSON, no Redis set. */
  usage: 2,
  /**
   * The queue is not there (Redis does not answer, or no worker is running), or the storage is
   * not (the S3 bucket is missing, refuses the credentials or does not answer). Apart from bad
   * usage because a script should retry this one later, and fix the other. Every outage's
   * status is the outage table's (OUTAGES in src/base/errors): see outageExit.
   */
  unavailable: EXIT_UNAVAILABLE,
  /**
   * docpipe failed internally: a bug, reported in one line (the stack at
   * DOCPIPE_LOG_LEVEL=debug). 70 is EX_SOFTWARE of sysexits.h.
   */
  internal: 70,
} as const;

/**
 * A mistake in how docpipe was called, reported on stderr with exit status 2, as every
 * `InputError` (an unreadable file, a malformed manifest) is.
 */
export class UsageError extends InputError {
  override readonly name = 'UsageError';
}

/**
 * The exit status of an outage (the queue or the storage not there, the company's line full),
 * as the outage table gives it; undefined for any other error.
 */
export function outageExit(err: unknown): number | undefined {
  const kind = outageOf(err);
  return kind === undefined ? undefined : OUTAGES[kind].exit;
}
