import { hostname } from 'node:os';
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedis } from '../../platform/redis/index.js';
import { attemptDelivery, type AttemptOutcome } from './attempt-delivery.js';
import type { RetryScheduler, WebhookDeps } from './webhook-deps.js';

/** The queue of webhook tries: one job a try, `{deliveryId, attempt}`. */
export const WEBHOOK_QUEUE = 'webhooks';

/** The sweep that finds due deliveries whose job was lost (a Redis that lost its data). */
export const DEFAULT_WEBHOOK_SWEEP_MS = 60_000;
/** A pending delivery is swept when its try is overdue by this much (its job had its chance). */
const SWEEP_OVERDUE_MS = 60_000;
const SWEEP_BATCH = 1000;

export interface WebhookJob {
  deliveryId: string;
  /** The try this job makes (1 for the first). */
  attempt: number;
  /** A replay's try: its failure is not retried. */
  replay?: boolean;
}

/**
 * One job id per try (`<delivery>-<attempt>`): a retry added twice (the attempt's and the
 * sweep's) is one job. BullMQ refuses `:` in a custom id, hence the dash.
 */
export const webhookJobId = (deliveryId: string, attempt: number) => `${deliveryId}-${attempt}`;

const jobOptions = (job: WebhookJob, delayMs: number) => ({
  jobId: webhookJobId(job.deliveryId, job.attempt),
  delay: Math.max(0, Math.round(delayMs)),
  // A job that throws (the database away) is tried again soon; the delivery's own retries are
  // jobs of their own, scheduled by its failed try.
  attempts: 5,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: true,
  removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
});

/**
 * Adds webhook tries to the queue: retries (from a failed try) and replays, on a connection the
 * caller owns and closes, the queue opened on the first job.
 */
export class WebhookQueue implements RetryScheduler {
  private queue: Queue<WebhookJob> | undefined;

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
  ) {}

  async add(job: WebhookJob, delayMs = 0): Promise<void> {
    if (!this.queue) {
      this.queue = new Queue<WebhookJob>(WEBHOOK_QUEUE, {
        connection: this.connection,
        prefix: this.prefix,
      });
      // Failures reach the caller through add; an 'error' event nobody listens to would throw
      // inside BullMQ's own promise and end the process (a Redis closed during its first check).
      this.queue.on('error', () => undefined);
    }
    await this.queue.add(job.replay ? 'replay' : 'attempt', job, jobOptions(job, delayMs));
  }

  scheduleRetry(deliveryId: string, attempt: number, delayMs: number): Promise<void> {
    return this.add({ deliveryId, attempt }, delayMs);
  }

  /** A replay's try (after prepareReplay), made by a worker now. */
  addReplay(deliveryId: string, attempt: number): Promise<void> {
    return this.add({ deliveryId, attempt, replay: true });
  }

  async close(): Promise<void> {
    await this.queue?.close();
  }
}

export interface WebhookWorkerOptions {
  redisUrl: string;
  prefix: string;
  /** Its `retries` is the worker's own queue; any given is ignored. */
  deps: Omit<WebhookDeps, 'retries'>;
  /** @defaultValue deps.settings.concurrency */
  concurrency?: number;
  /** @defaultValue DEFAULT_WEBHOOK_SWEEP_MS */
  sweepEveryMs?: number;
}

/**
 * Makes the queued tries of webhook deliveries (retries and replays), many at once (a try waits
 * on a receiver, not on the CPU). A failed try schedules the next as a delayed job on the same
 * queue. On start and every minute it also adds a job for every pending delivery whose try is
 * overdue by a minute: a Redis that lost its jobs, or a process that died between a delivery's
 * commit and its first try, loses no delivery. A job of a try that was made already does
 * nothing (attemptDelivery checks the count under its claim).
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly worker: Worker<WebhookJob>,
    private readonly queue: WebhookQueue,
    private readonly connection: Redis,
    private readonly deps: WebhookDeps,
  ) {}

  static async start(options: WebhookWorkerOptions): Promise<WebhookWorker> {
    const connection = createRedis(options.redisUrl, 'worker');
    const queue = new WebhookQueue(connection, options.prefix);
    const deps: WebhookDeps = { ...options.deps, retries: queue };
    const worker = new Worker<WebhookJob, AttemptOutcome>(
      WEBHOOK_QUEUE,
      (job: Job<WebhookJob>) =>
        attemptDelivery(deps, job.data.deliveryId, {
          attempt: job.data.attempt,
          retry: job.data.replay !== true,
        }),
      {
        connection,
        prefix: options.prefix,
        name: `${hostname()}:${process.pid}`,
        concurrency: options.concurrency ?? deps.settings.concurrency,
      },
    );
    // Connection trouble is retried by BullMQ; unheard, the event would end the process.
    worker.on('error', (err) => deps.logger?.error({ err: err.message }, 'webhook worker error'));
    worker.on('failed', (job, err) =>
      deps.logger?.warn(
        { err, delivery: job?.data.deliveryId, attempt: job?.data.attempt },
        'a webhook try could not run; it is run again',
      ),
    );
    const running = new WebhookWorker(worker, queue, connection, deps);
    await running.sweep();
    running.timer = setInterval(
      () => void running.sweep(),
      options.sweepEveryMs ?? DEFAULT_WEBHOOK_SWEEP_MS,
    );
    running.timer.unref();
    return running;
  }

  /** Adds a job for every pending delivery overdue by a minute; answers how many. */
  async sweep(): Promise<number> {
    const now = (this.deps.now ?? (() => new Date()))();
    try {
      const due = await this.deps.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'attempts'])
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<', new Date(now.getTime() - SWEEP_OVERDUE_MS))
        .orderBy('next_attempt_at')
        .limit(SWEEP_BATCH)
        .execute();
      for (const d of due) await this.queue.add({ deliveryId: d.id, attempt: d.attempts + 1 });
      return due.length;
    } catch (err) {
      this.deps.logger?.warn({ err }, 'the webhook sweep failed; it runs again in a minute');
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
