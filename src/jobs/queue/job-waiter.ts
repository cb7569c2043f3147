import type { QueueEvents } from 'bullmq';
import { readJobEnds, type PipelineRedis } from './bullmq-job-hash.js';
import type { JobEnd } from './job-end.js';

export type { JobEnd } from './job-end.js';

interface Entry {
  settle(end: JobEnd): void;
  fail(err: unknown): void;
}

export interface WaitHandle {
  readonly ended: Promise<JobEnd>;
  /** Stops waiting (a deadline, an abort): a later end is ignored. */
  cancel(): void;
}

/**
 * Waits for many jobs of one queue at once. Ends arrive through the queue's events (one
 * listener for all, not one per job), and are also read from each job's hash: when a job is
 * first waited for (it may have ended already), after Redis comes back (events of a restart
 * window may be missed), and now and then (an event lost any other way cannot hang a wait).
 */
export class JobWaiter {
  private readonly pending = new Map<string, Set<Entry>>();
  private toCheck = new Set<string>();
  private checkScheduled = false;
  private listened: QueueEvents | undefined;

  constructor(
    private readonly keyOf: (jobId: string) => string,
    private readonly connection: () => PipelineRedis,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  /** Listens to `events` for ends (after a reconnection to another Redis, to the new ones). */
  listen(events: QueueEvents): void {
    this.listened?.removeListener('completed', this.onCompleted);
    this.listened?.removeListener('failed', this.onFailed);
    this.listened = events;
    events.on('completed', this.onCompleted);
    events.on('failed', this.onFailed);
  }

  wait(jobId: string): WaitHandle {
    let entry!: Entry;
    const ended = new Promise<JobEnd>((resolve, reject) => {
      entry = { settle: resolve, fail: reject };
    });
    let entries = this.pending.get(jobId);
    if (!entries) this.pending.set(jobId, (entries = new Set()));
    entries.add(entry);
    // Registered first, checked after: an end comes either as an event or through the check.
    this.scheduleCheck(jobId);
    return { ended, cancel: () => this.remove(jobId, entry) };
  }

  /** Reads the stored end of every job still waited for. */
  async sweep(): Promise<void> {
    await this.check([...this.pending.keys()]);
  }

  /** Fails every wait: the queue is gone (no Redis, no worker) or the client closes. */
  failAll(err: unknown): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const entries of all) for (const e of entries) e.fail(err);
  }

  private readonly onCompleted = (args: { jobId: string; returnvalue: unknown }) =>
    this.end(args.jobId, { ok: true, value: args.returnvalue });

  private readonly onFailed = (args: { jobId: string; failedReason: string }) =>
    this.end(args.jobId, { ok: false, reason: args.failedReason });

  private end(jobId: string, end: JobEnd): void {
    const entries = this.pending.get(jobId);
    if (!entries) return;
    this.pending.delete(jobId);
    for (const e of entries) e.settle(end);
  }

  private remove(jobId: string, entry: Entry): void {
    const entries = this.pending.get(jobId);
    if (!entries?.delete(entry) || entries.size > 0) return;
    this.pending.delete(jobId);
  }

  /** Jobs registered together (a batch of hundreds) are checked in one round trip. */
  private scheduleCheck(jobId: string): void {
    this.toCheck.add(jobId);
    if (this.checkScheduled) return;
    this.checkScheduled = true;
    setImmediate(() => {
      const ids = [...this.toCheck];
      this.toCheck = new Set();
      this.checkScheduled = false;
      // Redis down now: the sweep after it comes back reads these again.
      void this.check(ids).catch(() => undefined);
    });
  }

  private async check(ids: string[]): Promise<void> {
    const waited = ids.filter((id) => this.pending.has(id));
    if (waited.length === 0) return;
    const ends = await readJobEnds(
      this.connection(),
      waited.map((id) => this.keyOf(id)),
    );
    waited.forEach((id, i) => {
      const end = ends[i];
      if (end) this.end(id, end);
    });
  }
}
