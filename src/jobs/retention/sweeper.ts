import type { Logger } from '../../base/log/index.js';
import { connectProducer } from '../../platform/redis/index.js';
import type { Storage } from '../../render/storage/index.js';
import { retentionOn, type RetentionAges } from './retention-ages.js';
import { SWEPT_KINDS } from './object-kinds.js';
import { sweep, type SweepFailure, type SweepOutcome, type SweepReport } from './sweep.js';

/**
 * The first sweep of a starting process comes about this long after start (half to one and a
 * half times it), when its own start-up work is done and machines started together are apart.
 */
export const FIRST_SWEEP_DELAY_MS = 60_000;

/** Each later sweep is this fraction earlier or later than sweepEveryMs, so machines drift apart. */
const JITTER = 0.1;

/** Failures named in a warning; the rest are counted. */
const FAILURES_LOGGED = 5;

/**
 * A sweep of records beside storage's, on the same schedule: the test environment's old cases,
 * which the service deletes (this layer knows no cases). It takes no sweep lock: what it removes
 * must be safe to remove from several machines at once.
 */
export interface RecordSweep {
  /** What it removes, for the log: "test cases". */
  what: string;
  run(signal: AbortSignal): Promise<RecordSweepOutcome>;
}

export interface RecordSweepOutcome {
  removed: number;
  /** What could not be removed; the next sweep tries again. */
  failures: SweepFailure[];
  /** Why it stopped before the end. */
  stopped?: string;
}

export interface RetentionSweeperOptions {
  storage: Storage;
  redisUrl: string;
  /** The queue prefix (`DOCPIPE_QUEUE_PREFIX`). */
  prefix: string;
  /** The configuration's RetentionConfig fits. */
  retention: RetentionAges & { sweepEveryMs: number | undefined };
  logger: Logger;
  /** Before the first sweep. @defaultValue FIRST_SWEEP_DELAY_MS, jittered */
  firstDelayMs?: number;
  /** Told of each sweep's outcome, or its error (tests wait on it). */
  onSweep?: (outcome: SweepOutcome | Error) => void;
  /** Run after storage's at each sweep, even with storage's retention off. */
  records?: RecordSweep;
  /** Told of each record sweep's outcome, or its error (tests wait on it). */
  onRecordSweep?: (outcome: RecordSweepOutcome | Error) => void;
}

/**
 * Sweeps storage every sweepEveryMs in a running docpipe, through the installation's lock, so
 * that however many machines run, one sweeps at a time. A failed sweep is a warning in the log,
 * never the end of the process; the next one tries again.
 */
export class RetentionSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly abort = new AbortController();

  private constructor(
    private readonly options: RetentionSweeperOptions,
    private readonly everyMs: number,
  ) {}

  /**
   * Starts sweeping; undefined when its schedule is off, or when there is nothing to do (storage's
   * retention off and no record sweep).
   */
  static start(options: RetentionSweeperOptions): RetentionSweeper | undefined {
    const { sweepEveryMs } = options.retention;
    if (sweepEveryMs === undefined) return undefined;
    if (!retentionOn(options.retention) && !options.records) return undefined;
    const sweeper = new RetentionSweeper(options, sweepEveryMs);
    sweeper.schedule(options.firstDelayMs ?? jittered(FIRST_SWEEP_DELAY_MS, 0.5));
    return sweeper;
  }

  /** Stops the schedule; a sweep under way stops removing and releases the lock first. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.abort.abort();
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.abort.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.running = this.once().finally(() => {
        this.running = undefined;
        this.schedule(jittered(this.everyMs, JITTER));
      });
    }, ms);
    // A sweep to come never keeps a process alive that has nothing else to do.
    this.timer.unref();
  }

  private async once(): Promise<void> {
    if (retentionOn(this.options.retention)) await this.storageOnce();
    if (this.options.records && !this.abort.signal.aborted)
      await this.recordsOnce(this.options.records);
  }

  private async recordsOnce(records: RecordSweep): Promise<void> {
    const { logger, onRecordSweep } = this.options;
    try {
      const outcome = await records.run(this.abort.signal);
      if (outcome.removed > 0)
        logger.info(
          { removed: outcome.removed, ...(outcome.stopped ? { stopped: outcome.stopped } : {}) },
          `retention sweep removed ${outcome.removed} ${records.what}`,
        );
      if (outcome.failures.length > 0)
        logger.warn(
          { failures: outcome.failures.slice(0, FAILURES_LOGGED), count: outcome.failures.length },
          `retention sweep could not remove some ${records.what}; the next sweep tries again`,
        );
      onRecordSweep?.(outcome);
    } catch (err) {
      logger.warn(
        { err: (err as Error).message },
        `retention sweep of ${records.what} failed; the next sweep tries again`,
      );
      onRecordSweep?.(err as Error);
    }
  }

  private async storageOnce(): Promise<void> {
    const { storage, redisUrl, prefix, retention, logger, onSweep } = this.options;
    try {
      const redis = await connectProducer(redisUrl);
      try {
        const outcome = await sweep({
          storage,
          redis,
          prefix,
          ages: retention,
          signal: this.abort.signal,
        });
        logOutcome(logger, outcome);
        onSweep?.(outcome);
      } finally {
        redis.disconnect();
      }
    } catch (err) {
      logger.warn(
        { err: (err as Error).message },
        'storage sweep failed; the next sweep tries again',
      );
      onSweep?.(err as Error);
    }
  }
}

/** `ms` moved by up to `spread` of itself either way. */
function jittered(ms: number, spread: number): number {
  return Math.round(ms * (1 - spread + 2 * spread * Math.random()));
}

function logOutcome(logger: Logger, outcome: SweepOutcome): void {
  if (!outcome.swept) {
    logger.debug({ heldBy: outcome.heldBy }, 'storage sweep skipped: another docpipe is sweeping');
    return;
  }
  const removed = SWEPT_KINDS.reduce((n, k) => n + outcome.removed[k].objects, 0);
  if (removed > 0) logger.info(summary(outcome), `storage sweep removed ${removed} objects`);
  if (outcome.uploadsSkipped)
    logger.warn({ reason: outcome.uploadsSkipped }, 'storage sweep kept every upload');
  if (outcome.failures.length > 0)
    logger.warn(
      { failures: outcome.failures.slice(0, FAILURES_LOGGED), count: outcome.failures.length },
      'storage sweep could not remove some objects; the next sweep tries again',
    );
}

function summary(report: SweepReport): object {
  return {
    removed: report.removed,
    keptForJobs: report.kept.forJobs,
    keptReused: report.kept.reused,
    durationMs: report.durationMs,
    ...(report.stopped ? { stopped: report.stopped } : {}),
  };
}
