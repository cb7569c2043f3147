import { hostname } from 'node:os';
import { Worker, type Job } from 'bullmq';
import { sql } from 'kysely';
import type { Redis } from 'ioredis';
import { createRedis } from '../../platform/redis/index.js';
import { DEFAULT_DELIVERY_BATCH } from '../webhooks/index.js';
import { runSchedule, type TickReport } from './delivery-scheduler.js';
import { EVENTS_QUEUE, EventQueue, type EventJob, type EventOutcome } from './event-queue.js';
import type { EventDeps } from './event-deps.js';
import { handleEvent } from './handle-event.js';
import { OutboxRelay } from './outbox-relay.js';

/** Events handled at once per process: each waits on SMTP servers and webhook receivers. */
export const DEFAULT_EVENT_CONCURRENCY = 16;
/** The schedule's tick: reminders and expiry are due to the minute, not the second. */
export const DEFAULT_SCHEDULE_MS = 30_000;
/** The advisory lock of the schedule: one worker of an installation ticks at a time. */
const SCHEDULE_LOCK = 0x646f6370_69706531n; // "docpipe1"

export interface DeliveryWorkerOptions {
  redisUrl: string;
  prefix: string;
  databaseUrl: string;
  deps: EventDeps;
  /** @defaultValue DEFAULT_EVENT_CONCURRENCY */
  concurrency?: number;
  /**
   * Events handled together (`DOCPIPE_DELIVERY_BATCH`, the webhook settings' `batchSize`): the
   * worker takes at least this many at once, and their rows are read and written by one
   * statement per batch. @defaultValue DEFAULT_DELIVERY_BATCH
   */
  batchSize?: number;
  /** @defaultValue DEFAULT_SCHEDULE_MS; 0 runs no timer (tests tick themselves). */
  scheduleEveryMs?: number;
  relayPollMs?: number;
  afterPublish?: (eventIds: readonly string[]) => void | Promise<void>;
}

/**
 * Delivery in a worker process: the outbox relay (case_events to the events queue), the events
 * worker (webhooks and messages of each event, handle-event.ts), and the schedule (expiry,
 * reminders, messages due again) on a timer, one worker at a time under an advisory lock.
 */
export class DeliveryWorker {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<unknown> | undefined;

  private constructor(
    private readonly options: DeliveryWorkerOptions,
    private readonly worker: Worker<EventJob, EventOutcome>,
    private readonly relay: OutboxRelay,
    private readonly queue: EventQueue,
    private readonly connection: Redis,
  ) {}

  static async start(options: DeliveryWorkerOptions): Promise<DeliveryWorker> {
    const batchSize = Math.max(1, options.batchSize ?? DEFAULT_DELIVERY_BATCH);
    const deps: EventDeps = { ...options.deps, batchSize };
    const connection = createRedis(options.redisUrl, 'worker');
    const queue = new EventQueue(connection, options.prefix);
    const worker = new Worker<EventJob, EventOutcome>(
      EVENTS_QUEUE,
      (job: Job<EventJob>) => handleEvent(deps, job.data),
      {
        connection,
        prefix: options.prefix,
        name: `${hostname()}:${process.pid}`,
        // A batch forms from the events in hand: as many as it holds, at least.
        concurrency: Math.max(options.concurrency ?? DEFAULT_EVENT_CONCURRENCY, batchSize),
      },
    );
    // Connection trouble is retried by BullMQ; unheard, the event would end the process.
    worker.on('error', (err) => deps.logger?.error({ err: err.message }, 'event worker error'));
    worker.on('failed', (job, err) =>
      deps.logger?.warn(
        { err, event: job?.data.eventId, trigger: job?.data.trigger, attempt: job?.attemptsMade },
        'handling an event failed; it is retried',
      ),
    );
    let relay: OutboxRelay;
    try {
      relay = await OutboxRelay.start({
        db: deps.db,
        databaseUrl: options.databaseUrl,
        queue,
        ...(deps.logger ? { logger: deps.logger } : {}),
        ...(options.relayPollMs !== undefined ? { pollMs: options.relayPollMs } : {}),
        ...(options.afterPublish ? { afterPublish: options.afterPublish } : {}),
      });
    } catch (err) {
      await worker.close();
      await queue.close();
      connection.disconnect();
      throw err;
    }
    const delivery = new DeliveryWorker({ ...options, deps }, worker, relay, queue, connection);
    const every = options.scheduleEveryMs ?? DEFAULT_SCHEDULE_MS;
    if (every > 0) {
      delivery.timer = setInterval(() => void delivery.tick(), every);
      delivery.timer.unref();
      void delivery.tick();
    }
    return delivery;
  }

  /**
   * One run of the schedule, unless another worker's is under way (then undefined). Failures are
   * logged: the next tick runs again.
   */
  async tick(): Promise<TickReport | undefined> {
    if (this.ticking) return undefined;
    const { deps } = this.options;
    const run = deps.db
      .connection()
      .execute(async (locked) => {
        const got = await sql<{
          ok: boolean;
        }>`select pg_try_advisory_lock(${SCHEDULE_LOCK}) as ok`.execute(locked);
        if (!got.rows[0]?.ok) return undefined;
        try {
          return await runSchedule(deps);
        } finally {
          await sql`select pg_advisory_unlock(${SCHEDULE_LOCK})`.execute(locked);
        }
      })
      .catch((err: unknown) => {
        deps.logger?.warn({ err }, 'the delivery schedule failed; it runs again at the next tick');
        return undefined;
      });
    this.ticking = run;
    try {
      return await run;
    } finally {
      this.ticking = undefined;
    }
  }

  /** Moves every unpublished event to the queue now (tests, and a start that wants no wait). */
  relayNow(): Promise<number> {
    return this.relay.drain();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.relay.close();
    await this.worker.close();
    await this.ticking;
    await this.queue.close();
    this.connection.disconnect();
  }
}
