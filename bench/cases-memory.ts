/** Least squares slope of `y` over `x`. */
export function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxy = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

/**
 * Issue 22's fourth case target: 10,000 cases created in a row leave the memory of `serve`, the
 * worker and PostgreSQL flat after warm-up (within 10%). PDF cases (cases-fixtures.ts: W1 as PDF,
 * each with bytes of its own), so that 10,000 take a minute or two rather than the office's
 * quarter of an hour; their path through the service, the queue, the worker's check and storage,
 * and the database is the .docx cases' path without the conversion. As many in flight as the
 * worker runs jobs. Memory is read from /proc after every `every` cases: VmRSS of the `serve`
 * and `worker` Node processes, and for PostgreSQL the sum of Pss (smaps_rollup) over the server
 * and all its processes, which share its buffers (their RSS would count them once each).
 */
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { DEFAULT_OFFICE_POOL_OPTIONS } from '../src/render/convert/index.js';
import { workerConcurrency } from '../src/app/config/index.js';
import { Caller } from './cases-caller.js';
import { pdfCaseBody } from './cases-fixtures.js';
import type { CasesStack } from './cases-stack.js';

export interface CasesMemoryOptions {
  cases: number;
  /** Cases after which the reference reading is taken. */
  warmup: number;
  /** A reading after every this many cases. */
  every: number;
  officeProcesses: number;
}

export interface MemoryReading {
  after: number;
  /** MB */
  serve: number;
  worker: number;
  postgres: number;
  /**
   * Of `postgres`, the shared memory its processes have touched (Pss_Shmem): mostly the buffer
   * cache, which fills with the tables' pages up to `shared_buffers` and stays there.
   */
  postgresShared: number;
  /** PostgreSQL's processes at that moment. */
  postgresProcesses: number;
  /**
   * `serve`'s V8 heap in use and its memory outside the heap (Buffers), from its own /metrics
   * (MB): what a leak in its JavaScript would grow, apart from what the allocator keeps.
   */
  serveHeap: number;
  serveExternal: number;
}

export interface CasesMemory {
  readings: MemoryReading[];
  /** PostgreSQL's `shared_buffers` (SHOW), the bound of its buffer cache. */
  sharedBuffers: string;
  /** The reading at `warmup` cases. */
  reference: MemoryReading;
  last: MemoryReading;
  casesPerSecond: number;
  failed: number;
  firstFailure?: string;
}

/** A field of /proc/<pid>/status or smaps_rollup, in kB; 0 for a process gone meanwhile. */
function procKb(path: string, field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(path, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** A gauge of `serve`'s /metrics (answered to this machine without a credential), in MB. */
function gauge(text: string, name: string): number {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) / 1024 / 1024 : NaN;
}

export async function readMemory(stack: CasesStack, after: number): Promise<MemoryReading> {
  const metrics = await (await fetch(`${stack.url}/metrics`)).text();
  const pids = stack.postgresPids();
  const mb = (kb: number) => kb / 1024;
  return {
    serveHeap: gauge(metrics, 'nodejs_heap_size_used_bytes'),
    serveExternal: gauge(metrics, 'nodejs_external_memory_bytes'),
    after,
    serve: mb(procKb(`/proc/${stack.servePid}/status`, 'VmRSS')),
    worker: mb(procKb(`/proc/${stack.workerPid}/status`, 'VmRSS')),
    postgres: mb(pids.reduce((kb, pid) => kb + procKb(`/proc/${pid}/smaps_rollup`, 'Pss'), 0)),
    postgresShared: mb(
      pids.reduce((kb, pid) => kb + procKb(`/proc/${pid}/smaps_rollup`, 'Pss_Shmem'), 0),
    ),
    postgresProcesses: pids.length,
  };
}

export async function casesMemory(
  stack: CasesStack,
  pdf: Buffer,
  options: CasesMemoryOptions,
): Promise<CasesMemory> {
  const concurrency = workerConcurrency(
    options.officeProcesses,
    DEFAULT_OFFICE_POOL_OPTIONS.queueDepth,
  );
  const caller = new Caller(stack.url, stack.key, concurrency);
  const readings: MemoryReading[] = [await readMemory(stack, 0)];
  let failed = 0;
  let firstFailure: string | undefined;
  const started = performance.now();
  try {
    for (let done = 0; done < options.cases;) {
      const n = Math.min(options.every, options.cases - done);
      const from = done;
      const batch = await caller.run(
        n,
        concurrency,
        (i) => ({
          method: 'POST',
          path: '/v3/api/cases',
          body: pdfCaseBody(pdf, `mem-${from + i}`),
        }),
        201,
      );
      failed += batch.failed;
      firstFailure ??= batch.firstFailure;
      done += n;
      const reading = await readMemory(stack, done);
      readings.push(reading);
      // Progress, as a long run goes: the readings so far.
      process.stderr.write(
        `[cases memory] ${done}: serve ${reading.serve.toFixed(0)} MB, worker ${reading.worker.toFixed(0)} MB, postgres ${reading.postgres.toFixed(0)} MB (shared ${reading.postgresShared.toFixed(0)}), serve's heap ${reading.serveHeap.toFixed(0)} MB\n`,
      );
    }
  } finally {
    caller.close();
  }
  const shown = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(stack.db);
  const reference =
    readings.find((r) => r.after >= options.warmup) ?? readings[readings.length - 1]!;
  return {
    readings,
    sharedBuffers: shown.rows[0]?.shared_buffers ?? '?',
    reference,
    last: readings[readings.length - 1]!,
    casesPerSecond: options.cases / ((performance.now() - started) / 1000),
    failed,
    ...(firstFailure !== undefined ? { firstFailure } : {}),
  };
}
