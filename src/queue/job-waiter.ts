import type { QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';

/** How a job ended, as its queue's events or its stored hash tell. */
export type JobEnd =
  | { ok: true; value: unknown }
  | { ok: false; reason: string }
  /** Neither finished nor there: removed, or lost by a Redis that restarted before saving it. */
  | { ok: false; gone: true };

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
    private readonly connection: () => Redis,
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
    const pipeline = this.connection().pipeline();
    // `name` is set on every job, so a reply without it means the job is not there.
    for (const id of waited)
      pipeline.hmget(this.keyOf(id), 'finishedOn', 'returnvalue', 'failedReason', 'name');
    const replies = (await pipeline.exec()) ?? [];
    waited.forEach((id, i) => {
      const [err, fields] = replies[i] ?? [new Error('no reply'), null];
      if (err || !Array.isArray(fields)) return;
      const end = storedEnd(fields as (string | null)[]);
      if (end) this.end(id, end);
    });
  }
}

function storedEnd([finishedOn, returnvalue, failedReason, name]: (string | null)[]):
  JobEnd | undefined {
  if (name === null || name === undefined) return { ok: false, gone: true };
  if (finishedOn === null || finishedOn === undefined) return undefined;
  // A job that failed an attempt and then completed keeps its last failedReason: the return
  // value decides.
  if (returnvalue !== null && returnvalue !== undefined)
    return { ok: true, value: parseJson(returnvalue) };
  return { ok: false, reason: failedReason ?? 'no reason given' };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
