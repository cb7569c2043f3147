import type { Redis } from 'ioredis';
import type { Storage, StoredObject } from '../../render/storage/index.js';
import { readJobReferences } from './job-references.js';
import { listGroups, type ObjectGroup } from './object-groups.js';
import { SWEPT_KINDS, groupKeys, type SweptKind } from './object-kinds.js';
import { isExpired, type RetentionAges } from './retention-ages.js';
import { SweepLock, isLockBusy, sweepLockKey, type SweepLockOptions } from './sweep-lock.js';

/**
 * The storage keys unfinished jobs need are read again when the last read is this old: a job
 * added during a long sweep may name an old upload, and it is protected from then on.
 */
export const REFERENCES_REFRESH_MS = 15_000;

export interface SweepOptions {
  storage: Storage;
  /** A connected Redis: the lock and the jobs' references are read there. */
  redis: Redis;
  /** The queue prefix (`DOCPIPE_QUEUE_PREFIX`). */
  prefix: string;
  ages: RetentionAges;
  /** Report what would be removed, remove nothing, take no lock. @defaultValue false */
  dryRun?: boolean;
  /** The clock ages are measured with. @defaultValue Date.now */
  now?: () => number;
  lock?: SweepLockOptions;
  /** Stops removing (a closing process); what was removed so far is reported. */
  signal?: AbortSignal;
  onProgress?: (progress: SweepProgress) => void;
}

export type SweepProgress =
  { phase: 'listing'; listed: number } | { phase: 'removing'; done: number; total: number };

export interface Tally {
  objects: number;
  bytes: number;
}

export interface SweepFailure {
  key: string;
  message: string;
}

export interface SweepReport {
  swept: true;
  dryRun: boolean;
  /** Objects looked at. */
  listed: number;
  /** Removed, by kind; in a dry run, what would be removed. */
  removed: Record<SweptKind, Tally>;
  /** Past their age but kept: needed by an unfinished job, or used again since the listing. */
  kept: { forJobs: number; reused: number };
  /** Why no upload or job input was removed at all (the jobs' references could not be read). */
  uploadsSkipped?: string;
  /** Why the sweep stopped before the end (the lock was lost, the process is closing). */
  stopped?: string;
  /** Deletes that failed; the sweep went on with the next object. */
  failures: SweepFailure[];
  durationMs: number;
}

/** Another sweeper holds the lock; nothing was done. */
export interface SweepSkipped {
  swept: false;
  heldBy: string;
}

export type SweepOutcome = SweepReport | SweepSkipped;

/**
 * Removes what is past its age and not needed by an unfinished job, holding the installation's
 * sweep lock (a dry run takes none and removes nothing). Every group is stat'ed again just
 * before it is removed, so that one used again since the listing stays.
 */
export async function sweep(options: SweepOptions): Promise<SweepOutcome> {
  const started = Date.now();
  let lock: SweepLock | undefined;
  if (!options.dryRun) {
    const taken = await SweepLock.acquire(
      options.redis,
      sweepLockKey(options.prefix),
      options.lock,
    );
    if (isLockBusy(taken)) return { swept: false, heldBy: taken.heldBy };
    lock = taken;
  }
  try {
    const run = new SweepRun(options, lock);
    await run.run();
    return { ...run.report, durationMs: Date.now() - started };
  } finally {
    await lock?.release();
  }
}

/** One sweep's state: what it found, what it removed, what protects what. */
class SweepRun {
  readonly report: Omit<SweepReport, 'durationMs'>;
  private readonly now: () => number;
  private references: Set<string> | undefined;
  private referencesReadAt = 0;

  constructor(
    private readonly options: SweepOptions,
    private readonly lock: SweepLock | undefined,
  ) {
    this.now = options.now ?? Date.now;
    const removed = Object.fromEntries(SWEPT_KINDS.map((k) => [k, { objects: 0, bytes: 0 }]));
    this.report = {
      swept: true,
      dryRun: options.dryRun ?? false,
      listed: 0,
      removed: removed as Record<SweptKind, Tally>,
      kept: { forJobs: 0, reused: 0 },
      failures: [],
    };
  }

  async run(): Promise<void> {
    const { storage, ages, onProgress } = this.options;
    const groups = await listGroups(
      storage,
      undefined,
      () => {
        this.report.listed++;
        onProgress?.({ phase: 'listing', listed: this.report.listed });
      },
      this.options.signal,
    );
    const at = this.now();
    const expired = groups.filter((g) => isExpired(g.kind, g.modified, ages, at));
    if (this.halted()) return;
    for (const [done, group] of expired.entries()) {
      if (this.halted()) return;
      await this.consider(group);
      onProgress?.({ phase: 'removing', done: done + 1, total: expired.length });
    }
  }

  /** Whether to stop removing now, with the reason in the report. */
  private halted(): boolean {
    if (this.options.signal?.aborted) this.report.stopped = 'the process is closing';
    else if (this.lock && !this.lock.held)
      this.report.stopped = 'the sweep lock was lost (Redis did not answer its renewal in time)';
    return this.report.stopped !== undefined;
  }

  private async consider(group: ObjectGroup): Promise<void> {
    if (group.kind !== 'renders') {
      if (this.report.uploadsSkipped) return;
      const needed = await this.neededKeys();
      if (!needed) return;
      if (groupKeys(group.kind, group.name).some((k) => needed.has(k))) {
        this.report.kept.forJobs++;
        return;
      }
    }
    if (this.report.dryRun) return this.count(group.kind as SweptKind, group.members);
    await this.remove(group);
  }

  /** The keys unfinished jobs need, read again when old; undefined when they cannot be read. */
  private async neededKeys(): Promise<Set<string> | undefined> {
    if (this.references && Date.now() - this.referencesReadAt < REFERENCES_REFRESH_MS)
      return this.references;
    try {
      const read = await readJobReferences(this.options.redis, this.options.prefix);
      this.references = read.keys;
      this.referencesReadAt = Date.now();
      return this.references;
    } catch (err) {
      // Fail safe: without knowing what jobs need, no upload is removed in this sweep.
      this.report.uploadsSkipped = `the queued jobs could not be read from Redis (${(err as Error).message}); uploads and job inputs are kept until a sweep can read them`;
      return undefined;
    }
  }

  /** Stats the group again and removes it, its named object first, if it is still expired. */
  private async remove(group: ObjectGroup): Promise<void> {
    const { storage, ages } = this.options;
    const kind = group.kind as SweptKind;
    let current: StoredObject[];
    try {
      const stats = await Promise.all(groupKeys(kind, group.name).map((k) => storage.stat(k)));
      current = stats.filter((s): s is StoredObject => s !== undefined);
    } catch (err) {
      this.report.failures.push({ key: group.name, message: (err as Error).message });
      return;
    }
    const newest = Math.max(...current.map((o) => o.modified.getTime()));
    if (current.length > 0 && !isExpired(kind, new Date(newest), ages, this.now())) {
      this.report.kept.reused++;
      return;
    }
    for (const object of current) {
      try {
        await storage.delete(object.key);
      } catch (err) {
        // The rest of the group stays whole for the next sweep.
        this.report.failures.push({ key: object.key, message: (err as Error).message });
        return;
      }
      this.count(kind, [object]);
    }
  }

  private count(kind: SweptKind, objects: StoredObject[]): void {
    const tally = this.report.removed[kind];
    for (const o of objects) {
      tally.objects++;
      tally.bytes += o.bytes;
    }
  }
}
