import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QueueUnavailableError } from '../../platform/redis/index.js';

export interface QueueHealthLimits {
  /** How long Redis may not answer before waits fail. */
  unreachableMs: number;
  /** How long no worker may be connected (while Redis answers) before waits fail. */
  noWorkerMs: number;
  /** How often to look. */
  intervalMs: number;
}

/** What one look found. */
export type HealthState =
  | { kind: 'ok'; reconnected: boolean }
  | { kind: 'unreachable'; error: unknown }
  | { kind: 'failed'; error: QueueUnavailableError };

/**
 * Tells a producer whether anything will ever answer it: Redis answering, and a worker of its
 * queue connected (BullMQ workers name their connections, so CLIENT LIST finds them). Without
 * this a client waits on a dead queue until its own deadline, hours for a batch, and then
 * blames the document.
 */
export class QueueHealth {
  private reachableAt = Date.now();
  /** Never, until a look finds one: a new client must look before it trusts there is one. */
  private workerSeenAt = 0;
  private down = false;

  constructor(
    private readonly target: () => { connection: Redis; documents: Queue; url: string },
    readonly limits: QueueHealthLimits,
  ) {}

  /** Starts the clocks afresh: a client idle for hours has not been waiting all that time. */
  reset(): void {
    this.reachableAt = this.workerSeenAt = Date.now();
  }

  /** One look. `reconnected`: Redis answers again after it did not; events may have been missed. */
  async look(): Promise<HealthState> {
    const { connection, documents, url } = this.target();
    const now = Date.now();
    try {
      await withTimeout(connection.ping(), Math.max(1000, this.limits.intervalMs * 2));
    } catch (error) {
      this.down = true;
      if (now - this.reachableAt > this.limits.unreachableMs)
        return {
          kind: 'failed',
          error: QueueUnavailableError.unreachable(url, this.limits.unreachableMs, error),
        };
      return { kind: 'unreachable', error };
    }
    const reconnected = this.down;
    this.down = false;
    this.reachableAt = now;
    // Workers come back a little after their Redis (a restarted docpipe starts Redis first):
    // their time counts from when Redis answered again.
    if (reconnected) this.workerSeenAt = now;
    let workers: number;
    try {
      workers = await this.workers(documents);
    } catch (error) {
      this.down = true;
      return { kind: 'unreachable', error };
    }
    if (workers > 0) this.workerSeenAt = now;
    else if (now - this.workerSeenAt > this.limits.noWorkerMs)
      return {
        kind: 'failed',
        error: QueueUnavailableError.noWorker(url, this.limits.noWorkerMs, true),
      };
    return { kind: 'ok', reconnected };
  }

  /**
   * Resolves once a worker is connected, looking for up to noWorkerMs (a docpipe that is starting
   * gets that long), else fails before anything is queued.
   */
  async requireWorker(): Promise<void> {
    const { documents, url } = this.target();
    if (Date.now() - this.workerSeenAt < this.limits.intervalMs) return;
    const until = Date.now() + this.limits.noWorkerMs;
    for (;;) {
      if ((await this.workers(documents)) > 0) {
        this.workerSeenAt = Date.now();
        return;
      }
      if (Date.now() >= until)
        throw QueueUnavailableError.noWorker(url, this.limits.noWorkerMs, false);
      await new Promise((r) => setTimeout(r, Math.min(this.limits.intervalMs, 500)));
    }
  }

  /** A Redis that refuses CLIENT LIST cannot tell; BullMQ then counts one, and so waits go on. */
  private async workers(documents: Queue): Promise<number> {
    return documents.getWorkersCount();
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
