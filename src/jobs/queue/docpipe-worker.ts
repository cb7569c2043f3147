import { hostname } from 'node:os';
import { UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { isDocpipeError } from '../../base/errors/index.js';
import { silentLogger, type Logger } from '../../base/log/index.js';
import type { Renderer } from '../../render/pipeline/index.js';
import {
  failureFromReason,
  joinFailures,
  type DocumentSetOutcome,
} from './document-set-outcome.js';
import { processDocumentJob } from './document-processor.js';
import { checkJobHashLayout } from './bullmq-job-hash.js';
import { REQUEST_ID, type DocumentJobResult } from './job-contract.js';
import { NotStartedError, takeTurn } from './company-turn.js';
import { FairShare } from './fair-share.js';
import { takeLegacyDocumentSets } from './legacy-document-sets.js';
import { waiterGoneFailure, waiterGoneSince } from './waiter-gone.js';
import { queueNames, type QueueNames } from './queue-names.js';
import { checkEvictionPolicy, createRedis } from '../../platform/redis/index.js';
import {
  DEFAULT_CLOSE_GRACE_MS,
  fillWorkerOptions,
  type DocpipeWorkerOptions,
  type DocumentJobReport,
} from './worker-options.js';

/**
 * The queue side of docpipe: BullMQ workers for document jobs and for document set parents
 * (documents rendered together, answered once), and for the sets an earlier version left under
 * the old queue name until none is left. A typed
 * failure that retrying cannot fix ends the job at once (UnrecoverableError); a busy converter
 * or an internal error is retried with backoff.
 */
export class DocpipeWorker {
  private constructor(
    private readonly workers: Worker[],
    private readonly connection: Redis,
    private readonly logger: Logger,
    private readonly running: Running,
    private readonly names: QueueNames,
    /**
     * Settles once no document set is left in the queue an earlier version put them in
     * (`cases`): at once when there was none at start-up.
     */
    readonly legacyDrained: Promise<void>,
  ) {}

  private closing: Promise<void> | undefined;
  private queuedAtStop: number | undefined;

  /** Jobs this worker is running now (documents and document set parents). */
  get activeJobs(): number {
    return this.running.jobs;
  }

  /**
   * Document jobs waiting in Redis that no worker has started (waiting, prioritized, delayed or
   * paused, a document set's children among them): what a stop leaves for the next worker.
   */
  async queuedJobs(): Promise<number> {
    const key = `${this.names.prefix}:${this.names.documents}`;
    const counts = await this.connection
      .pipeline()
      .llen(`${key}:wait`)
      .zcard(`${key}:prioritized`)
      .zcard(`${key}:delayed`)
      .llen(`${key}:paused`)
      .exec();
    return (counts ?? []).reduce((sum, [, n]) => sum + (typeof n === 'number' ? n : 0), 0);
  }

  static async start(given: DocpipeWorkerOptions): Promise<DocpipeWorker> {
    const options = fillWorkerOptions(given);
    const logger = options.logger ?? silentLogger;
    const names = queueNames(options.prefix);
    const connection = createRedis(options.redisUrl, 'worker');
    try {
      await checkEvictionPolicy(connection);
      await checkJobHashLayout(options.redisUrl, names.prefix);
    } catch (err) {
      connection.disconnect();
      throw err;
    }
    const running: Running = {
      jobs: 0,
      handBack: undefined,
      handedBack: false,
      stopping: false,
      finished: 0,
      returned: 0,
    };
    const handBack = new Promise<void>((resolve) => (running.handBack = resolve));
    /**
     * Puts a job back in the queue as it was, not as a failed attempt (WaitingError tells BullMQ
     * so). When Redis is gone, never settling keeps BullMQ from writing to a connection that is
     * closing (it would retry at once, for ever): the job stalls and is picked up again once its
     * lock expires.
     */
    const handBackJob = async (job: Job, token: string | undefined): Promise<never> => {
      const handedBack = await job.moveToWait(token).then(
        () => true,
        () => false,
      );
      if (!handedBack) return new Promise<never>(() => undefined);
      running.returned++;
      throw new WaitingError();
    };
    const counted =
      <T>(work: (job: Job) => Promise<T>) =>
      async (job: Job, token?: string): Promise<T> => {
        // Fetched as the stop began, not started: back to the queue, as it was, so that what
        // runs on is what the stop's message counted.
        if (running.stopping) return handBackJob(job, token);
        running.jobs++;
        try {
          const ended = await Promise.race([
            work(job).then(
              (value) => ({ value }),
              (error: unknown) => ({ error }),
            ),
            handBack,
          ]);
          if (ended !== undefined && 'error' in ended && ended.error instanceof NotStartedError) {
            // Taken but not started (waiting for its company's turn) when the stop began: it
            // goes back to the queue at once, for the next worker, instead of starting now.
            return await handBackJob(job, token);
          }
          if (running.stopping && !running.handedBack) running.finished++;
          if (ended === undefined) {
            // Stopping now: the job goes back to the queue as it was, not as a failed attempt,
            // and BullMQ never writes to a connection that is closing (it would retry at once,
            // for ever). What the abandoned work still does is content-addressed and harmless.
            return await handBackJob(job, token);
          }
          if ('error' in ended) throw ended.error;
          return ended.value;
        } finally {
          running.jobs--;
        }
      };
    const deps = {
      renderer: options.renderer,
      storage: options.storage,
      library: options.library,
      contract: options.contract,
    };
    const common = {
      connection,
      // Recorded on each job (processedBy): which machine and process did the work.
      name: `${hostname()}:${process.pid}`,
      prefix: names.prefix,
      lockDuration: options.lockDurationMs,
      stalledInterval: options.stalledIntervalMs,
      maxStalledCount: MAX_STALLED_COUNT,
    };
    const fair = new FairShare(() => connection, names, {
      maxQueued: 0,
      maxActive: options.companyMaxActive,
    });
    const documents = new Worker(
      names.documents,
      counted(async (job: Job) => {
        const tell = reporter(job, options.onDocumentJob, logger);
        const gone = waiterGoneSince(job.data);
        if (gone !== undefined) {
          // Its waiter left (a convert cut short, a stop before its jobs could be withdrawn):
          // rendering it would only keep an office process from the jobs someone waits for.
          tell({ outcome: 'skipped' });
          logger.info(
            { job: job.id, requestId: requestIdOf(job), waitUntil: new Date(gone).toISOString() },
            'document job skipped: its waiter stopped waiting before a worker took it',
          );
          const field = (job.data as { field?: unknown }).field;
          throw new UnrecoverableError(
            JSON.stringify(waiterGoneFailure(typeof field === 'string' ? field : 'job', gone)),
          );
        }
        const turn = await takeTurn(fair, job, options.lockDurationMs, () => running.stopping);
        try {
          const result = await processDocumentJob(job.data, deps, job.priority || undefined);
          tell(
            result.kind === 'url'
              ? { outcome: 'url' }
              : {
                  outcome: result.result.cached ? 'cached' : 'rendered',
                  timings: result.result.timings,
                },
          );
          logger.info(
            {
              job: job.id,
              requestId: requestIdOf(job),
              field: result.field,
              kind: result.kind,
              cached: result.kind === 'rendered' ? result.result.cached : undefined,
            },
            'document job done',
          );
          return result;
        } catch (err) {
          // Handed back already: what the office pool's closing did to it is no news.
          if (running.handedBack) throw err;
          tell({
            outcome: 'failed',
            failure: isDocpipeError(err)
              ? { slug: err.slug, retryable: err.retryable }
              : { slug: 'internal', retryable: true },
          });
          if (!isDocpipeError(err)) {
            logger.error(
              { job: job.id, requestId: requestIdOf(job), err: (err as Error).message },
              'document job failed internally; it will be retried',
            );
            throw err;
          }
          const reason = JSON.stringify(err.toFailure());
          logger.warn(
            {
              job: job.id,
              requestId: requestIdOf(job),
              error: err.slug,
              retryable: err.retryable,
            },
            'document job failed',
          );
          throw err.retryable ? new Error(reason) : new UnrecoverableError(reason);
        } finally {
          await turn.end();
        }
      }),
      { ...common, concurrency: options.concurrency },
    );
    const finishSet = counted(async (job: Job) => finishDocumentSet(job, deps.renderer, logger));
    const documentSets = new Worker(names.documentSets, finishSet, {
      ...common,
      concurrency: options.concurrency,
    });
    for (const w of [documents, documentSets])
      w.on('error', (err) => logger.error({ err: err.message }, 'worker error'));
    await Promise.all([documents.waitUntilReady(), documentSets.waitUntilReady()]);
    // After the new queues are ready: a legacy set's documents are in `documents` and may need
    // this worker before their parent can end.
    const legacy = await takeLegacyDocumentSets(
      names.legacyDocumentSets,
      { ...common, concurrency: options.concurrency },
      finishSet,
      logger,
    );
    const workers = [documents, documentSets, ...(legacy.worker ? [legacy.worker] : [])];
    logger.info({ concurrency: options.concurrency, prefix: names.prefix }, 'worker ready');
    return new DocpipeWorker(workers, connection, logger, running, names, legacy.drained);
  }

  /**
   * Stops taking jobs at once and lets active ones finish within the grace period, or until `now`
   * resolves (a second Ctrl-C); jobs still running then go back to the queue, as they were, for
   * another worker (or this one, started again). A job taken but not started yet (waiting for
   * its company's turn) goes back at once. The first call stops the worker; later calls answer
   * the same stop.
   */
  close(graceMs = DEFAULT_CLOSE_GRACE_MS, now?: Promise<unknown>): Promise<void> {
    this.closing ??= this.stop(graceMs, now);
    return this.closing;
  }

  private async stop(graceMs: number, now: Promise<unknown> | undefined): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    this.running.stopping = true;
    // BullMQ's close stops its fetch loop at once (a job ending fetches no next one) and waits
    // for the jobs it handed out.
    const graceful = Promise.all(this.workers.map((w) => w.close()));
    // BullMQ's close drops the connection by which producers see a worker at once; this one
    // stands in for it until the running jobs end, so that their waiters do not give up on
    // them (`no worker`) while they are still being done.
    const standIn = `${this.names.prefix}:${Buffer.from(this.names.documents).toString('base64')}:w:${hostname()}:${process.pid}:stopping`;
    await this.connection.client('SETNAME', standIn).catch(() => undefined);
    const cutShort = new Promise<'timeout' | 'now'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), graceMs);
      void now?.then(() => resolve('now'));
    });
    const ended = await Promise.race([graceful.then(() => 'closed' as const), cutShort]);
    clearTimeout(timer);
    if (ended !== 'closed') {
      const left = this.running.jobs;
      this.logger.warn(
        { jobs: left, graceMs },
        left === 0
          ? 'the worker did not close in time although no job was running (Redis not answering?)'
          : ended === 'now'
            ? `stopping now: ${left} running jobs go back to the queue for the next worker`
            : `jobs still running after the grace period: ${left}; they go back to the queue for the next worker`,
      );
      this.running.handedBack = true;
      this.running.handBack?.();
      // BullMQ's close waits for the jobs it handed out; handed back, they end at once. A Redis
      // that does not answer could still hold it: the process must end anyway.
      await Promise.race([graceful, new Promise((r) => setTimeout(r, HAND_BACK_MS).unref())]);
    }
    // What the next worker will find, handed-back jobs included; a Redis gone says nothing.
    this.queuedAtStop = await Promise.race([
      this.queuedJobs().catch(() => undefined),
      new Promise<undefined>((r) => setTimeout(() => r(undefined), HAND_BACK_MS).unref()),
    ]);
    this.connection.disconnect();
  }

  /** What the stop did with the jobs that were running, once `close` has settled. */
  get stopReport(): WorkerStopReport {
    return {
      finished: this.running.finished,
      handedBack: this.running.returned,
      queued: this.queuedAtStop,
    };
  }
}

/** What a worker's stop did with the jobs it was running. */
export interface WorkerStopReport {
  /** Jobs that ended (done or failed) after the stop began. */
  finished: number;
  /** Jobs that went back to the queue, as they were, for the next worker. */
  handedBack: number;
  /** Document jobs left waiting in Redis once stopped; undefined when Redis did not answer. */
  queued: number | undefined;
}

/** Jobs running in a worker, and how to hand them back to the queue when stopping now. */
interface Running {
  jobs: number;
  handBack: (() => void) | undefined;
  handedBack: boolean;
  /** The stop began: no job that has not started starts any more. */
  stopping: boolean;
  /** Jobs ended after the stop began, and jobs handed back to the queue. */
  finished: number;
  returned: number;
}

/**
 * A job whose worker died is handed to another worker; twice is an accident, three times is a
 * document that kills workers, and it fails.
 */
const MAX_STALLED_COUNT = 2;

/** How long handing running jobs back to the queue may take before the worker lets go anyway. */
const HAND_BACK_MS = 5000;

async function finishDocumentSet(
  job: Job,
  renderer: Renderer,
  logger: Logger,
): Promise<DocumentSetOutcome> {
  const values = (await job.getChildrenValues()) as Record<string, DocumentJobResult>;
  const ignored = await job.getIgnoredChildrenFailures();
  const results = Object.values(values).sort((a, b) => index(a.field) - index(b.field));
  const failures = Object.values(ignored).map((reason) => {
    const failure = failureFromReason(reason, 'documents');
    return { field: failure.details[0]?.field ?? 'documents', failure };
  });
  // Children withdrawn by a producer that gave up (its deadline) leave a set short: that is no
  // success, however well the rest went.
  const expected =
    (job.data as { documents?: number }).documents ?? results.length + failures.length;
  if (failures.length === 0 && results.length < expected) {
    failures.push({
      field: 'documents',
      failure: {
        error: 'document-conversion-failed',
        details: [
          {
            field: 'documents',
            message: `the document set was withdrawn after ${results.length} of ${expected} documents`,
          },
        ],
        retryable: true,
      },
    });
  }
  if (failures.length === 0) return { ok: true, results };
  // Nothing of a failed set stays behind that it alone created: cached outputs existed before.
  for (const r of results) {
    if (r.kind === 'rendered' && !r.result.cached) await renderer.discard(r.result);
  }
  logger.warn(
    { documentSet: job.id, failed: failures.length, of: failures.length + results.length },
    'document set failed',
  );
  return { ok: false, failure: joinFailures(failures) };
}

/**
 * Tells `listener` how a document job attempt ended, with its queue wait on the first attempt
 * (BullMQ's own timestamps: enqueued, plus any delay, to processedOn).
 */
function reporter(
  job: Job,
  listener: ((report: DocumentJobReport) => void) | undefined,
  logger: Logger,
): (end: Omit<DocumentJobReport, 'queueWaitMs' | 'durationMs'>) => void {
  const started = performance.now();
  return (end) => {
    if (!listener) return;
    const queueWaitMs =
      job.attemptsStarted <= 1 && job.processedOn !== undefined
        ? Math.max(0, job.processedOn - job.timestamp - (job.opts.delay ?? 0))
        : undefined;
    try {
      listener({ ...end, queueWaitMs, durationMs: performance.now() - started });
    } catch (err) {
      logger.error({ err: (err as Error).message }, 'the document job listener failed');
    }
  };
}

function index(field: string): number {
  return Number(/\[(\d+)\]/.exec(field)?.[1] ?? Number.MAX_SAFE_INTEGER);
}

/** The request id a job carries, for its log lines; anything that is not one is left out. */
function requestIdOf(job: Job): string | undefined {
  const id: unknown = (job.data as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === 'string' && REQUEST_ID.test(id) ? id : undefined;
}
