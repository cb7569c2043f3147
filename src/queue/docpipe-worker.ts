import { hostname } from 'node:os';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { isDocpipeError } from '../errors/index.js';
import type { DocumentLibrary } from '../library/index.js';
import { silentLogger, type Logger } from '../log/index.js';
import type { Renderer } from '../pipeline/index.js';
import type { Storage } from '../storage/index.js';
import { failureFromReason, joinFailures, type CaseOutcome } from './case-outcome.js';
import { processDocumentJob } from './document-processor.js';
import {
  DEFAULT_CONTRACT_LIMITS,
  type ContractLimits,
  type DocumentJobResult,
} from './job-contract.js';
import { queueNames } from './queue-names.js';
import { checkEvictionPolicy, createRedis } from './redis-connection.js';

export interface DocpipeWorkerOptions {
  redisUrl: string;
  /** @defaultValue 'docpipe' */
  prefix?: string;
  /**
   * Jobs at once: more than the office pool takes at once, so that while those convert, the
   * next ones' sniff and fill already run and LibreOffice never waits for them (the CLI uses
   * `workerConcurrency()` from the config).
   */
  concurrency: number;
  /**
   * How long a job's lock lasts; the worker renews it at half this while the job runs, so only a
   * dead worker's jobs ever stall. Longer than any single step, including a conversion deadline.
   * @defaultValue 60 000 ms
   */
  lockDurationMs?: number;
  /** How often stalled jobs are looked for. @defaultValue 30 000 ms */
  stalledIntervalMs?: number;
  renderer: Renderer;
  storage: Storage;
  library: DocumentLibrary;
  contract?: ContractLimits;
  logger?: Logger;
}

/**
 * The queue side of docpipe: BullMQ workers for document jobs and for case parents. A typed
 * failure that retrying cannot fix ends the job at once (UnrecoverableError); a busy converter
 * or an internal error is retried with backoff.
 */
export class DocpipeWorker {
  private constructor(
    private readonly workers: Worker[],
    private readonly connection: Redis,
    private readonly logger: Logger,
    private readonly running: { jobs: number },
  ) {}

  /** Jobs this worker is running now (documents and case parents). */
  get activeJobs(): number {
    return this.running.jobs;
  }

  static async start(options: DocpipeWorkerOptions): Promise<DocpipeWorker> {
    const logger = options.logger ?? silentLogger;
    const connection = createRedis(options.redisUrl, 'worker');
    await checkEvictionPolicy(connection);
    const names = queueNames(options.prefix);
    const running = { jobs: 0 };
    const counted =
      <T>(work: (job: Job) => Promise<T>) =>
      async (job: Job): Promise<T> => {
        running.jobs++;
        try {
          return await work(job);
        } finally {
          running.jobs--;
        }
      };
    const deps = {
      renderer: options.renderer,
      storage: options.storage,
      library: options.library,
      contract: options.contract ?? DEFAULT_CONTRACT_LIMITS,
    };
    const common = {
      connection,
      // Recorded on each job (processedBy): which machine and process did the work.
      name: `${hostname()}:${process.pid}`,
      prefix: names.prefix,
      lockDuration: options.lockDurationMs ?? 60_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      // A job whose worker died is handed to another worker; twice is an accident, three times
      // is a document that kills workers, and it fails.
      maxStalledCount: 2,
    };
    const documents = new Worker(
      names.documents,
      counted(async (job: Job) => {
        try {
          const result = await processDocumentJob(job.data, deps);
          logger.info(
            {
              job: job.id,
              field: result.field,
              kind: result.kind,
              cached: result.kind === 'rendered' ? result.result.cached : undefined,
            },
            'document job done',
          );
          return result;
        } catch (err) {
          if (!isDocpipeError(err)) {
            logger.error(
              { job: job.id, err: (err as Error).message },
              'document job failed internally; it will be retried',
            );
            throw err;
          }
          const reason = JSON.stringify(err.toFailure());
          logger.warn(
            { job: job.id, error: err.slug, retryable: err.retryable },
            'document job failed',
          );
          throw err.retryable ? new Error(reason) : new UnrecoverableError(reason);
        }
      }),
      { ...common, concurrency: options.concurrency },
    );
    const cases = new Worker(
      names.cases,
      counted(async (job: Job) => finishCase(job, deps.renderer, logger)),
      { ...common, concurrency: options.concurrency },
    );
    for (const w of [documents, cases])
      w.on('error', (err) => logger.error({ err: err.message }, 'worker error'));
    await Promise.all([documents.waitUntilReady(), cases.waitUntilReady()]);
    logger.info({ concurrency: options.concurrency, prefix: names.prefix }, 'worker ready');
    return new DocpipeWorker([documents, cases], connection, logger, running);
  }

  /**
   * Stops taking jobs and lets active ones finish within the grace period, or until `now`
   * resolves (a second Ctrl-C); jobs still running then are left to stall and are picked up again
   * by another worker (or this one, restarted).
   */
  async close(graceMs = 30_000, now?: Promise<unknown>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const graceful = Promise.all(this.workers.map((w) => w.close()));
    const cutShort = new Promise<'timeout' | 'now'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), graceMs);
      void now?.then(() => resolve('now'));
    });
    const ended = await Promise.race([graceful.then(() => 'closed' as const), cutShort]);
    clearTimeout(timer);
    if (ended !== 'closed') {
      const left = this.running.jobs;
      if (left > 0)
        this.logger.warn(
          { jobs: left, graceMs },
          ended === 'now'
            ? `stopping now: ${left} jobs still running are left to another worker (or this one, started again)`
            : `jobs still running after the grace period: ${left}; they are left to another worker (or this one, started again)`,
        );
      else
        this.logger.warn(
          { graceMs },
          'the worker did not close in time although no job was running (Redis not answering?)',
        );
      // Not awaited: BullMQ's close(true) still waits for the graceful close already under way.
      for (const w of this.workers) void w.close(true).catch(() => undefined);
    }
    this.connection.disconnect();
  }
}

async function finishCase(job: Job, renderer: Renderer, logger: Logger): Promise<CaseOutcome> {
  const values = (await job.getChildrenValues()) as Record<string, DocumentJobResult>;
  const ignored = await job.getIgnoredChildrenFailures();
  const results = Object.values(values).sort((a, b) => index(a.field) - index(b.field));
  const failures = Object.values(ignored).map((reason) => {
    const failure = failureFromReason(reason, 'documents');
    return { field: failure.details[0]?.field ?? 'documents', failure };
  });
  // Children withdrawn by a producer that gave up (its deadline) leave a case short: that is no
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
            message: `the case was withdrawn after ${results.length} of ${expected} documents`,
          },
        ],
        retryable: true,
      },
    });
  }
  if (failures.length === 0) return { ok: true, results };
  // Nothing of a failed case stays behind that it alone created: cached outputs existed before.
  for (const r of results) {
    if (r.kind === 'rendered' && !r.result.cached) await renderer.discard(r.result);
  }
  logger.warn(
    { case: job.id, failed: failures.length, of: failures.length + results.length },
    'case failed',
  );
  return { ok: false, failure: joinFailures(failures) };
}

function index(field: string): number {
  return Number(/\[(\d+)\]/.exec(field)?.[1] ?? Number.MAX_SAFE_INTEGER);
}
