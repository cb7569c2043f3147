/**
 * Issue 37's soak: on a real stack (soak-stack.ts: a private Redis, an embedded PostgreSQL, real
 * `docpipe serve` and `docpipe worker` with 2 office processes, a webhook receiver in a process
 * of its own), W1 conversions through `POST /api/v2/document/convert` and PDF cases through
 * `POST /v3/api/cases` (each case's events delivered to the company's webhook) run side by side,
 * so that the full size fits in minutes on a 2-core machine. Every `BENCH_SOAK_SAMPLE_MS` the
 * memory of each process is read from /proc: VmRSS of `serve`, the worker's Node process, Redis
 * and each office process (soffice.bin: the figure the pool's own memory limit reads), and for
 * PostgreSQL the sum of Pss over the server and all its processes, which share its buffers
 * (their RSS would count them once each). Flat means: the reading at the end (all work done, all
 * events delivered) against the first reading after the warm-up (10 % of each stream), each the
 * median of 3 readings in a row so that one garbage collection does not decide, within 10 %.
 * The office pool's restarts are counted by cause from the worker's log ("replacing office
 * process: <reason>"), the only place they show: the worker has no /metrics of its own.
 *
 * Sizes: BENCH_SOAK_CONVERSIONS (5,000; quick 100), BENCH_SOAK_CASES (10,000; quick 120);
 * BENCH_SOAK_WARMUP, the share of each before the reference reading (0.1); BENCH_SOAK_SAMPLE_MS
 * (2,000; quick 500).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { workerConcurrency } from '../src/app/config/index.js';
import { DEFAULT_OFFICE_POOL_OPTIONS, type OfficePoolStats } from '../src/render/convert/index.js';
import type { Figure, LineSeries, Note, Series } from './report/results.js';
import { meetsTarget } from './report/results.js';
import { Caller } from './cases-caller.js';
import { childPids, treeCpuMs } from './cases-stack.js';
import { convertBody, loadW1, pdfCaseBody, w1Pdf } from './cases-fixtures.js';
import { startSoakStack, type LogLine, type SoakStack } from './soak-stack.js';

/** The pool's restart causes (office-pool.ts), as its stats name them. */
type OfficeRestartCause = keyof OfficePoolStats['restartsByCause'];

const OFFICE_PROCESSES = 2;
const GROWTH_TARGET = 1.1;
/** How long the events may take to reach the receiver after the last case was created. */
const DRAIN_TIMEOUT_MS = 300_000;

const CAUSES: readonly OfficeRestartCause[] = [
  'crashed',
  'timeout',
  'recycled',
  'memory',
  'exited',
  'embedded-fonts',
];

export interface SoakResult {
  figures: Figure[];
  series: Series[];
  notes: Note[];
}

interface Reading {
  /** Seconds since the work began. */
  t: number;
  conversions: number;
  cases: number;
  /** MB */
  serve: number;
  worker: number;
  redis: number;
  postgres: number;
  /**
   * Of `postgres`, what is not shared memory (Pss less Pss_Shmem): the buffer cache, which fills
   * with the tables' pages up to `shared_buffers` and stays there, left out.
   */
  postgresPrivate: number;
  /** Each office process's VmRSS (MB) by pid. */
  office: Map<number, number>;
}

function size(name: string, full: number, quick: number, isQuick: boolean): number {
  const v = process.env[name];
  return v ? Number(v) : isQuick ? quick : full;
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

function comm(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** The worker's office processes: its soffice.bin children (unshare execs in place). */
function officePids(workerPid: number): number[] {
  return childPids(workerPid).filter((pid) => comm(pid).startsWith('soffice'));
}

function read(stack: SoakStack, t: number, conversions: number, cases: number): Reading {
  const mb = (kb: number) => kb / 1024;
  const rss = (pid: number) => mb(procKb(`/proc/${pid}/status`, 'VmRSS'));
  const office = new Map<number, number>();
  for (const pid of officePids(stack.workerPid)) office.set(pid, rss(pid));
  const pg = stack.postgresPids();
  const pgKb = (field: string) =>
    pg.reduce((kb, pid) => kb + procKb(`/proc/${pid}/smaps_rollup`, field), 0);
  return {
    t,
    conversions,
    cases,
    serve: rss(stack.servePid),
    worker: rss(stack.workerPid),
    redis: rss(stack.redisPid),
    postgres: mb(pgKb('Pss')),
    postgresPrivate: mb(pgKb('Pss') - pgKb('Pss_Shmem')),
    office,
  };
}

/**
 * Office processes as chart lines, one per slot: a process keeps its line while it lives, and a
 * replacement takes the line its predecessor left, so that a recycle shows as a drop in a line.
 */
function officeLines(
  readings: Reading[],
  slots: number,
): { name: string; at: (number | undefined)[] }[] {
  const lines = Array.from({ length: slots }, (_, i) => ({
    name: `office process ${i + 1} (VmRSS)`,
    at: [] as (number | undefined)[],
  }));
  let owner: (number | undefined)[] = Array.from({ length: slots }, () => undefined);
  for (const r of readings) {
    const pids = [...r.office.keys()].sort((a, b) => a - b);
    owner = owner.map((pid) => (pid !== undefined && r.office.has(pid) ? pid : undefined));
    for (const pid of pids) {
      if (owner.includes(pid)) continue;
      const free = owner.findIndex((o) => o === undefined);
      if (free >= 0) owner[free] = pid;
    }
    lines.forEach((line, i) => {
      const pid = owner[i];
      line.at.push(pid === undefined ? undefined : r.office.get(pid));
    });
  }
  return lines;
}

/** The median of the readings at `from` and the next two (or the two before, at the end). */
function around(values: (number | undefined)[], index: number, end: boolean): number {
  const slice = (
    end ? values.slice(Math.max(0, index - 2), index + 1) : values.slice(index, index + 3)
  )
    .filter((v): v is number => v !== undefined && v > 0)
    .sort((a, b) => a - b);
  return slice.length === 0 ? NaN : slice[Math.floor(slice.length / 2)]!;
}

/** The office pool's replacements by cause, from the reasons the worker logged. */
export function restartsByCause(log: readonly LogLine[]): Record<OfficeRestartCause, number> {
  const counts = Object.fromEntries(CAUSES.map((c) => [c, 0])) as Record<
    OfficeRestartCause,
    number
  >;
  for (const line of log) {
    if (!line.msg.startsWith('replacing office process: ')) continue;
    const cause = causeOf(line);
    counts[cause] = (counts[cause] ?? 0) + 1;
  }
  return counts;
}

/**
 * The cause OfficePool.replace() counted for a logged reason. Its log line carries the reason's
 * text, not the cause, so the text is mapped back, as office-pool.ts and office-process.ts word
 * each reason; a line that names its `cause` is taken at its word.
 */
function causeOf(line: LogLine): OfficeRestartCause {
  if (typeof line.cause === 'string' && (CAUSES as readonly string[]).includes(line.cause))
    return line.cause as OfficeRestartCause;
  const reason = line.msg.slice('replacing office process: '.length);
  if (/^recycled after \d+ conversions/.test(reason)) return 'recycled';
  if (/^recycled at \d+ MiB resident/.test(reason)) return 'memory';
  if (/fonts embedded in a document/.test(reason)) return 'embedded-fonts';
  if (/exited while idle|exited after answering/.test(reason)) return 'exited';
  if (/deadline/.test(reason)) return 'timeout';
  return 'crashed';
}

/** `n` requests, `concurrency` in flight, each counted in `done` as it is answered. */
async function stream(
  caller: Caller,
  n: number,
  concurrency: number,
  make: (i: number) => { path: string; body: string },
  expected: number,
  progress: { done: number; failed: number; firstFailure?: string },
): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      for (let i = next++; i < n; i = next++) {
        const r = make(i);
        const answer = await caller.send('POST', r.path, r.body).catch((err: Error) => ({
          status: 0,
          body: err.message,
        }));
        if (answer.status !== expected) {
          progress.failed++;
          progress.firstFailure ??= `POST ${r.path}: ${answer.status} ${answer.body.slice(0, 300)}`;
        }
        progress.done++;
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

export async function soak(root: string, quick: boolean): Promise<SoakResult> {
  const conversions = size('BENCH_SOAK_CONVERSIONS', 5000, 100, quick);
  const casesWanted = size('BENCH_SOAK_CASES', 10_000, 120, quick);
  const sampleMs = size('BENCH_SOAK_SAMPLE_MS', 2000, 500, quick);
  // The share of each stream before the reference reading. A tenth of the full size's cases is
  // about what BullMQ keeps of completed jobs per queue (1,000), past which Redis stops growing;
  // a smaller run that wants the same warm-up takes a larger share.
  const warmupShare = Number(process.env.BENCH_SOAK_WARMUP ?? 0.1);
  const log = (line: string) => process.stderr.write(`[soak] ${line}\n`);
  const loadBefore = loadavg().map((x) => round(x, 2));
  const w1 = loadW1(root);
  const stack = await startSoakStack({ root, officeProcesses: OFFICE_PROCESSES });
  // As many in flight on each stream as the worker runs jobs: both streams share it.
  const concurrency = workerConcurrency(OFFICE_PROCESSES, DEFAULT_OFFICE_POOL_OPTIONS.queueDepth);
  const convertCaller = new Caller(stack.url, stack.key, concurrency);
  const casesCaller = new Caller(stack.url, stack.key, concurrency);
  const readings: Reading[] = [];
  let sampler: NodeJS.Timeout | undefined;
  try {
    const pdf = await w1Pdf(convertCaller, w1);
    const conv = { done: 0, failed: 0 } as { done: number; failed: number; firstFailure?: string };
    const cases = { done: 0, failed: 0 } as { done: number; failed: number; firstFailure?: string };
    const cpuBefore = {
      serve: treeCpuMs(stack.servePid),
      worker: treeCpuMs(stack.workerPid),
    };
    const started = performance.now();
    const sample = () => {
      const r = read(stack, (performance.now() - started) / 1000, conv.done, cases.done);
      readings.push(r);
      if (readings.length % Math.max(1, Math.round(10_000 / sampleMs)) === 0)
        log(
          `${r.t.toFixed(0)} s: ${r.conversions} conversions, ${r.cases} cases; serve ${r.serve.toFixed(0)} MB, worker ${r.worker.toFixed(0)} MB, office ${[...r.office.values()].map((v) => v.toFixed(0)).join('+')} MB, Redis ${r.redis.toFixed(0)} MB, PostgreSQL ${r.postgres.toFixed(0)} MB`,
        );
    };
    sample();
    sampler = setInterval(sample, sampleMs);
    const [convertSeconds, casesSeconds] = await Promise.all([
      stream(
        convertCaller,
        conversions,
        concurrency,
        (i) => ({ path: '/api/v2/document/convert', body: convertBody(w1, `soak-${i}`) }),
        200,
        conv,
      ),
      stream(
        casesCaller,
        casesWanted,
        concurrency,
        (i) => ({ path: '/v3/api/cases', body: pdfCaseBody(pdf, `soak-${i}`) }),
        201,
        cases,
      ),
    ]);
    const workSeconds = (performance.now() - started) / 1000;
    log(`work done in ${workSeconds.toFixed(0)} s; waiting for the events to reach the receiver`);
    // Every case's events delivered: the end of the soak is when the last one arrived.
    const createdOk = cases.done - cases.failed;
    let drained = true;
    await stack.receiver.delivered(createdOk, DRAIN_TIMEOUT_MS).catch(() => (drained = false));
    const drainSeconds = (performance.now() - started) / 1000 - workSeconds;
    // Three readings more at the end, so that the end's median has three.
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, sampleMs));
    }
    clearInterval(sampler);
    sampler = undefined;
    sample();
    const cpu = {
      serve: treeCpuMs(stack.servePid) - cpuBefore.serve,
      worker: treeCpuMs(stack.workerPid) - cpuBefore.worker,
    };
    const receiver = await stack.receiver.summary();
    const restarts = restartsByCause(stack.workerLog);
    const alive = stack.running();
    const failedAttempts = stack.workerLog.filter((l) =>
      l.msg.startsWith('conversion attempt failed'),
    ).length;
    const officeSeen = new Set(readings.flatMap((r) => [...r.office.keys()])).size;
    const loadAfter = loadavg().map((x) => round(x, 2));

    // The reference: the first reading with a tenth of each stream done.
    const refIndex = Math.max(
      0,
      readings.findIndex(
        (r) => r.conversions >= conversions * warmupShare && r.cases >= casesWanted * warmupShare,
      ),
    );
    const endIndex = readings.length - 1;
    const office = officeLines(readings, OFFICE_PROCESSES);
    const processes: { id: string; name: string; at: (number | undefined)[] }[] = [
      { id: 'serve', name: 'serve (VmRSS)', at: readings.map((r) => r.serve) },
      { id: 'worker', name: "worker's Node process (VmRSS)", at: readings.map((r) => r.worker) },
      ...office.map((l, i) => ({ id: `office-${i + 1}`, name: l.name, at: l.at })),
      { id: 'redis', name: 'Redis (VmRSS)', at: readings.map((r) => r.redis) },
      {
        id: 'postgres',
        name: 'PostgreSQL (Pss, all its processes)',
        at: readings.map((r) => r.postgres),
      },
      {
        id: 'postgres-private',
        name: 'PostgreSQL without its shared buffers (Pss less Pss_Shmem)',
        at: readings.map((r) => r.postgresPrivate),
      },
    ];
    const figures: Figure[] = [];
    const push = (f: Omit<Figure, 'meets'>) => {
      const meets = meetsTarget(f);
      figures.push(meets === undefined ? f : { ...f, meets });
    };
    for (const p of processes) {
      const first = around(p.at, refIndex, false);
      const last = around(p.at, endIndex, true);
      const ratio = last / first;
      push({
        id: `soak.rss-growth.${p.id}`,
        group: 'soak',
        name: `${p.name}: end against after warm-up (${round(first)} to ${round(last)} MB)`,
        unit: '',
        value: round(ratio, 3),
        baseline: { name: 'after warm-up (MB)', value: round(first) },
        ratio: round(ratio, 3),
        target: { text: `<= ${GROWTH_TARGET}`, op: '<=', value: GROWTH_TARGET, on: 'ratio' },
      });
    }
    for (const cause of CAUSES)
      push({
        id: `soak.restarts.${cause}`,
        group: 'soak',
        name: `office process restarts: ${cause}`,
        unit: '',
        value: restarts[cause],
      });
    push({
      id: 'soak.conversions',
      group: 'soak',
      name: `W1 conversions through POST /api/v2/document/convert, ${conversions} beside the cases`,
      unit: 'docs/s',
      value: round((conv.done - conv.failed) / convertSeconds),
    });
    push({
      id: 'soak.cases',
      group: 'soak',
      name: `PDF cases through POST /v3/api/cases, ${casesWanted} beside the conversions`,
      unit: 'cases/s',
      value: round((cases.done - cases.failed) / casesSeconds),
    });
    push({
      id: 'soak.events',
      group: 'soak',
      name: `webhook deliveries answered 2xx (${receiver.okRequests} for ${receiver.delivered} cases), from the first case to the last delivery`,
      unit: 'events/s',
      value: round(receiver.okRequests / (workSeconds + drainSeconds)),
    });
    push({
      id: 'soak.failed',
      group: 'soak',
      name: 'requests not answered as expected, cases whose events did not arrive, processes lost',
      unit: '',
      value:
        conv.failed +
        cases.failed +
        Math.max(0, createdOk - receiver.delivered) +
        (alive.serve ? 0 : 1) +
        (alive.worker ? 0 : 1),
      target: { text: '<= 0', op: '<=', value: 0, on: 'value' },
    });
    const series: LineSeries = {
      kind: 'line',
      id: 'soak-rss',
      title: `Memory over a soak: ${conversions} W1 conversions and ${casesWanted} PDF cases side by side`,
      xLabel: 'seconds',
      yLabel: 'MB',
      lines: processes.map((p) => ({
        name: p.name,
        points: p.at.flatMap((y, i) =>
          y === undefined ? [] : [[round(readings[i]!.t), round(y)] as [number, number]],
        ),
      })),
    };
    const restartText = CAUSES.map((c) => `${c} ${restarts[c]}`).join(', ');
    const notes: Note[] = [
      {
        group: 'soak',
        name: 'soak run',
        text:
          `${conversions} W1 conversions (${conv.failed} failed) and ${casesWanted} PDF cases (${cases.failed} failed), ` +
          `${concurrency} in flight on each, side by side on 2 office processes; work ${round(workSeconds)} s, ` +
          `then ${round(drainSeconds)} s until the receiver had every case's events${drained ? '' : ' (it did NOT: timed out)'}. ` +
          `Receiver: ${receiver.requests} requests (${receiver.okRequests} answered 2xx) for ${receiver.delivered} cases: ${round(receiver.requests / Math.max(1, receiver.delivered), 2)} events a case (every trigger subscribed). ` +
          `Readings every ${sampleMs} ms: ${readings.length}; the reference is reading ${refIndex + 1} at ${round(readings[refIndex]!.t)} s ` +
          `(${readings[refIndex]!.conversions} conversions, ${readings[refIndex]!.cases} cases), each end the median of 3 readings. ` +
          `Office restarts by cause (the worker's log): ${restartText}; ${officeSeen} soffice.bin pids seen (a relaunch on a fresh profile counts twice); ` +
          `${failedAttempts} conversion attempts failed and were logged. ` +
          `CPU: serve ${round(cpu.serve / 1000)} s, worker with its office processes ${round(cpu.worker / 1000)} s. ` +
          `Load average before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')} (2 cores).` +
          (conv.firstFailure ? ` First failed conversion: ${conv.firstFailure}.` : '') +
          (cases.firstFailure ? ` First failed case: ${cases.firstFailure}.` : ''),
      },
    ];
    log(notes[0]!.text);
    for (const f of figures)
      log(
        `${f.id} = ${f.value}${f.unit ? ` ${f.unit}` : ''}${f.meets === undefined ? '' : f.meets ? ' (met)' : ' (MISSED)'}`,
      );
    return { figures, series: [series], notes };
  } finally {
    if (sampler) clearInterval(sampler);
    convertCaller.close();
    casesCaller.close();
    await stack.stop();
  }
}
