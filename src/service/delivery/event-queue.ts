import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Delivery } from '../cases/index.js';

/** The queue of case events the outbox relay publishes: one job per event. */
export const EVENTS_QUEUE = 'events';

/** What a job names: the event's row, read again by the worker (its payload stays in PostgreSQL). */
export interface EventJob {
  eventId: string;
  company: string;
  /** The case; null for a web-flow's event (migration 0019). */
  caseId: string | null;
  trigger: string;
}

/** What handling an event did: its first delivery over each channel (spec 2.2 `delivery`). */
export type EventOutcome = Delivery;

/** Entries kept in the queue's event stream. */
const EVENT_STREAM_LENGTH = 1_000;

/** One job id per event: the relay and the server that made the event both add it, once. */
export const eventJobId = (eventId: string) => `event-${eventId}`;

const JOB_OPTIONS = {
  // A failure here is the worker's (PostgreSQL down): channels and webhooks retry on their own.
  attempts: 8,
  backoff: { type: 'exponential', delay: 2_000 },
  // Kept ten minutes, the last thousand at most: a relay that died before marking its batch
  // runs again within seconds and finds the jobs (one job per event), and the create answer
  // waits far less. An event queued again after that is handled again, which sends nothing twice
  // (the ledger, one delivery per webhook); keeping finished jobs a day grew Redis by 3.5 MB per
  // 1,000 cases.
  removeOnComplete: { age: 600, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/**
 * Adds event jobs (the relay; the HTTP server right after a case's commit, to report its first
 * delivery) and waits for one's outcome. On a connection the caller owns and closes; the
 * listener for outcomes is opened on the first wait, on a connection of its own (it blocks).
 */
export class EventQueue {
  private queue: Queue<EventJob, EventOutcome> | undefined;
  private events: QueueEvents | undefined;

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
    /** For the outcome listener: a URL it connects to itself. */
    private readonly redisUrl?: string,
  ) {}

  private opened(): Queue<EventJob, EventOutcome> {
    if (!this.queue) {
      this.queue = new Queue<EventJob, EventOutcome>(EVENTS_QUEUE, {
        connection: this.connection,
        prefix: this.prefix,
        // The queue's event stream (what outcome() listens to) is read within seconds: 10,000
        // entries, BullMQ's default, is Redis memory for nothing.
        streams: { events: { maxLen: EVENT_STREAM_LENGTH } },
      });
      // Failures reach the caller through add; an 'error' event nobody listens to would throw
      // inside BullMQ's own promise and end the process (a Redis closed during its first check).
      this.queue.on('error', () => undefined);
    }
    return this.queue;
  }

  async publish(events: readonly EventJob[]): Promise<void> {
    if (events.length === 0) return;
    await this.opened().addBulk(
      events.map((e) => ({
        name: e.trigger,
        data: e,
        opts: { ...JOB_OPTIONS, jobId: eventJobId(e.eventId) },
      })),
    );
  }

  /**
   * The outcome of an event's handling, or undefined when it is not done within `timeoutMs`
   * (no worker running, a receiver slow to answer): the event is handled all the same.
   */
  async outcome(eventId: string, timeoutMs: number): Promise<EventOutcome | undefined> {
    if (!this.redisUrl) throw new Error('EventQueue.outcome needs the Redis URL');
    const queue = this.opened();
    if (!this.events) {
      this.events = new QueueEvents(EVENTS_QUEUE, {
        connection: { url: this.redisUrl },
        prefix: this.prefix,
      });
      await this.events.waitUntilReady();
    }
    const job = await queue.getJob(eventJobId(eventId));
    if (!job) return undefined;
    try {
      return await job.waitUntilFinished(this.events, timeoutMs);
    } catch {
      // Timed out, or the handling failed and is retried: the answer says it is still going.
      return undefined;
    }
  }

  /** Takes an event's finished job off the queue, so that publishing it again runs it again. */
  async remove(eventId: string): Promise<void> {
    await this.opened().remove(eventJobId(eventId));
  }

  async close(): Promise<void> {
    await this.events?.close();
    await this.queue?.close();
  }
}
