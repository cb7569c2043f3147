import { hostname } from 'node:os';
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { createRedis } from '../../platform/redis/index.js';
import type { Database } from '../db/index.js';
import { sealCase, type SealDeps } from './seal-case.js';

/** The queue of seal jobs: one job a case, `{company, caseId}`. */
export const SEAL_QUEUE = 'seal';

/** A retried seal waits 2 s, 4 s, ... (a TSA or storage that is down for minutes is outlived). */
const ATTEMPTS = 12;
const BACKOFF_MS = 2_000;
/** The sweep that finds cases whose seal job was never added (a crash after the commit). */
export const DEFAULT_SEAL_SWEEP_MS = 60_000;

export interface SealJob {
  company: string;
  caseId: string;
}

/** One job id per case: adding it twice (the signer's request and the sweep) makes one job. */
const jobIdOf = (caseId: string) => `seal-${caseId}`;

const jobOptions = (caseId: string) => ({
  jobId: jobIdOf(caseId),
  attempts: ATTEMPTS,
  backoff: { type: 'exponential', delay: BACKOFF_MS },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
});

/**
 * Adds seal jobs: the HTTP server, when a case's last signer signs, and the seal worker's sweep.
 * On a connection the caller owns and closes (the server's producer connection), and opened on
 * the first job, so that a server nobody signs on holds no queue.
 */
export class SealQueue {
  private queue: Queue<SealJob> | undefined;

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
  ) {}

  async add(job: SealJob): Promise<void> {
    if (!this.queue) {
      this.queue = new Queue<SealJob>(SEAL_QUEUE, {
        connection: this.connection,
        prefix: this.prefix,
      });
      // Failures reach the caller through add; an 'error' event nobody listens to would throw
      // inside BullMQ's own promise and end the process (a Redis closed during its first check).
      this.queue.on('error', () => undefined);
    }
    await this.queue.add('seal', job, jobOptions(job.caseId));
  }

  async close(): Promise<void> {
    await this.queue?.close();
  }
}

export interface SealWorkerOptions {
  redisUrl: string;
  prefix: string;
  deps: SealDeps & { db: Kysely<Database> };
  /** @defaultValue DEFAULT_SEAL_SWEEP_MS */
  sweepEveryMs?: number;
}

/**
 * Seals cases (seal-case.ts) from the seal queue, one at a time per process (a seal is CPU work
 * of tens of milliseconds; the office processes need the cores more). A job that fails is
 * retried with backoff; a worker that crashes mid-seal leaves the job stalled, and BullMQ hands
 * it to another worker, whose sealCase finds the first run's files. On start and every minute it
 * also adds a job for every complete case that is not sealed: a server that crashed between the
 * signature's commit and adding the job loses no seal.
 */
export class SealWorker {
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly worker: Worker<SealJob>,
    private readonly queue: SealQueue,
    private readonly connection: Redis,
    private readonly db: Kysely<Database>,
    private readonly logger: SealDeps['logger'],
  ) {}

  static async start(options: SealWorkerOptions): Promise<SealWorker> {
    const { deps } = options;
    const connection = createRedis(options.redisUrl, 'worker');
    const worker = new Worker<SealJob>(
      SEAL_QUEUE,
      async (job: Job<SealJob>) => {
        const outcome = await sealCase(deps, job.data.company, job.data.caseId);
        return outcome;
      },
      {
        connection,
        prefix: options.prefix,
        name: `${hostname()}:${process.pid}`,
        concurrency: 1,
      },
    );
    // Connection trouble is retried by BullMQ; unheard, the event would end the process.
    worker.on('error', (err) => deps.logger?.error({ err: err.message }, 'seal worker error'));
    worker.on('failed', (job, err) =>
      deps.logger?.warn(
        { err, case: job?.data.caseId, attempt: job?.attemptsMade },
        'sealing failed; it is retried',
      ),
    );
    const sealer = new SealWorker(
      worker,
      new SealQueue(connection, options.prefix),
      connection,
      deps.db,
      deps.logger,
    );
    await sealer.sweep();
    const every = options.sweepEveryMs ?? DEFAULT_SEAL_SWEEP_MS;
    sealer.timer = setInterval(() => void sealer.sweep(), every);
    sealer.timer.unref();
    return sealer;
  }

  /** Adds a job for every complete case that is not sealed (the job id makes it one per case). */
  async sweep(): Promise<number> {
    try {
      const due = await this.db
        .selectFrom('cases')
        .select(['company_id', 'id'])
        .where('completed_at', 'is not', null)
        .where('sealed_at', 'is', null)
        .where('state', '=', 'open')
        .limit(1000)
        .execute();
      for (const c of due) await this.queue.add({ company: c.company_id, caseId: c.id });
      return due.length;
    } catch (err) {
      this.logger?.warn({ err }, 'the sealing sweep failed; it runs again in a minute');
      return 0;
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.worker.close();
    await this.queue.close();
    this.connection.disconnect();
  }
}
