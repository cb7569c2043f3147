/**
 * Issue 24's delivery benchmark (docs/benchmarks.md, "Delivery"), on the stack of
 * bench/delivery-stack.ts: real CaseService commits, the outbox relay, the events and webhook
 * workers, an embedded PostgreSQL and Redis, and a receiver process on 127.0.0.1.
 *
 * - `throughput`: `events` case.created events delivered, from the first commit to the receiver's
 *   `events`th distinct case, while the cases are being created; beside it the same number from
 *   a backlog (committed with delivery stopped, then delivery started), and the ceiling: the
 *   same receiver hit by plain loops of POSTs (fetch with keep-alive; node:http with a
 *   connection per request, as docpipe sends) with as many in flight as docpipe has.
 * - `load`: the receiver answers 503 while `events` cases are created and every one has been
 *   tried, then 200: every case delivered, none answered 2xx twice, none sent again after a 2xx.
 * - `latency`: one case at a time on an idle queue, from createCase's return (after its commit)
 *   to the receiver's 2xx answer.
 * - `memory`: `memoryEvents` events in chunks, each chunk delivered before the reading: this
 *   process's RSS and its heap after a full GC, Redis's RSS, PostgreSQL's Pss (as
 *   bench/cases-memory.ts reads it), after `memoryWarmup` events and at the end.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import pg from 'pg';
import { runInNewContext } from 'node:vm';
import { createRedis } from '../src/platform/redis/index.js';
import { DEFAULT_EVENT_CONCURRENCY, EVENTS_QUEUE } from '../src/service/delivery/index.js';
import { DEFAULT_DELIVERY_BATCH } from '../src/service/webhooks/index.js';
import type { Figure, Series } from './report/results.js';
import { treeCpuMs } from './cases-stack.js';
import type { ReceiverSummary } from './delivery-receiver.js';
import { DELIVERY_PREFIX, DeliveryStack, wall } from './delivery-stack.js';
import type { Stats } from './stats.js';

export const DELIVERY_BENCHMARKS = [
  'throughput',
  'batch',
  'growth',
  'load',
  'latency',
  'memory',
] as const;
export type DeliveryBenchmark = (typeof DELIVERY_BENCHMARKS)[number];

export interface DeliveryOptions {
  /** BENCH_DELIVERY_EVENTS: events of the throughput and load parts. @defaultValue 1000 */
  events: number;
  /** BENCH_DELIVERY_WARMUP: events delivered before the throughput is timed. @defaultValue 200 */
  warmup: number;
  /** BENCH_DELIVERY_CREATE_CONCURRENCY: cases created at once. @defaultValue 16 */
  createConcurrency: number;
  /** BENCH_DELIVERY_LATENCY_ROUNDS. @defaultValue 200 */
  latencyRounds: number;
  /** BENCH_DELIVERY_MEMORY_EVENTS, _WARMUP, _EVERY. @defaultValue 10000, 1000, 1000 */
  memoryEvents: number;
  memoryWarmup: number;
  memoryEvery: number;
  /** BENCH_DELIVERY_BACKOFF_MS: the webhooks' first retry delay. @defaultValue 200 */
  backoffMs: number;
  /** BENCH_DELIVERY_BATCH_EVENTS: the backlog drained at each batch size. @defaultValue 1000 (200 with --quick) */
  batchEvents: number;
  /** BENCH_DELIVERY_BATCH_SIZES: DOCPIPE_DELIVERY_BATCH values measured. @defaultValue 1,10,50,100 (1,50 with --quick) */
  batchSizes: number[];
  /** BENCH_DELIVERY_GROWTH: backlogs drained at the default batch size. @defaultValue 1,100,10000 (1,100,500 with --quick) */
  growth: number[];
}

export function deliveryOptions(env: NodeJS.ProcessEnv = process.env): DeliveryOptions {
  const n = (name: string, fallback: number) => (env[name] ? Number(env[name]) : fallback);
  const list = (name: string, fallback: number[]) =>
    env[name] ? env[name].split(',').map((x) => Number(x.trim())) : fallback;
  // `--quick` (bench/run.ts): the new parts' own sizes small, as its QUICK_SIZES does the others'.
  const quick = process.argv.includes('--quick');
  return {
    events: n('BENCH_DELIVERY_EVENTS', 1000),
    warmup: n('BENCH_DELIVERY_WARMUP', 200),
    createConcurrency: n('BENCH_DELIVERY_CREATE_CONCURRENCY', 16),
    latencyRounds: n('BENCH_DELIVERY_LATENCY_ROUNDS', 200),
    memoryEvents: n('BENCH_DELIVERY_MEMORY_EVENTS', 10_000),
    memoryWarmup: n('BENCH_DELIVERY_MEMORY_WARMUP', 1000),
    memoryEvery: n('BENCH_DELIVERY_MEMORY_EVERY', 1000),
    backoffMs: n('BENCH_DELIVERY_BACKOFF_MS', 200),
    batchEvents: n('BENCH_DELIVERY_BATCH_EVENTS', quick ? 200 : 1000),
    batchSizes: list('BENCH_DELIVERY_BATCH_SIZES', quick ? [1, 50] : [1, 10, 50, 100]),
    growth: list('BENCH_DELIVERY_GROWTH', quick ? [1, 100, 500] : [1, 100, 10_000]),
  };
}

/** `delivery [throughput] [load] [latency] [memory]`: the named ones, all when none is. */
export function parseDeliveryArgs(args: readonly string[]): DeliveryBenchmark[] {
  const named = args.filter((a): a is DeliveryBenchmark =>
    (DELIVERY_BENCHMARKS as readonly string[]).includes(a),
  );
  return named.length > 0 ? named : [...DELIVERY_BENCHMARKS];
}

/** A row as bench/run.ts prints them (name, docpipe's stats, baseline, target, met). */
export interface DeliveryRow {
  name: string;
  docpipe: Stats;
  baseline?: { name: string; stats: Stats };
  target?: string;
  meets?: boolean;
}

/** A line of run.ts's throughput table. */
export interface DeliveryThroughput {
  name: string;
  perSecond: number;
  failed?: number;
  note?: string;
}

export interface DeliveryReport {
  rows: DeliveryRow[];
  throughput: DeliveryThroughput[];
  results: Record<string, unknown>;
}

/** CPU (ms) of this process, PostgreSQL (all its processes), Redis and the receiver. */
interface Cpu {
  bench: number;
  postgres: number;
  redis: number;
  receiver: number;
}

function cpuNow(stack: DeliveryStack): Cpu {
  const own = process.cpuUsage();
  return {
    bench: (own.user + own.system) / 1000,
    postgres: treeCpuMs(stack.postgres.pid!),
    redis: treeCpuMs(stack.redis.pid!),
    receiver: treeCpuMs(stack.receiver.pid),
  };
}

/** CPU per event (ms) between two readings. */
function cpuPer(a: Cpu, b: Cpu, events: number): Cpu {
  const per = (k: keyof Cpu) => (b[k] - a[k]) / events;
  return {
    bench: per('bench'),
    postgres: per('postgres'),
    redis: per('redis'),
    receiver: per('receiver'),
  };
}

const cpuText = (c: Cpu) =>
  `CPU per event: docpipe's process ${c.bench.toFixed(2)} ms, PostgreSQL ${c.postgres.toFixed(2)} ms, Redis ${c.redis.toFixed(2)} ms, the receiver ${c.receiver.toFixed(2)} ms`;

function stats(times: number[]): Stats {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    n: sorted.length,
    p50: at(0.5),
    p95: at(0.95),
    mean: sorted.reduce((s, x) => s + x, 0) / sorted.length,
  };
}

/**
 * Counts the statements every pg client of this process sends (Kysely's pool, the relay's
 * listener) while `work` runs: PostgreSQL round trips per event. Only the bench wraps it.
 */
async function countingStatements<T>(
  work: () => Promise<T>,
): Promise<{ value: T; statements: number }> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  let statements = 0;
  proto.query = function (this: unknown, ...args: unknown[]) {
    statements++;
    return original.apply(this, args);
  };
  try {
    return { value: await work(), statements };
  } finally {
    proto.query = original;
  }
}

const say = (line: string) => process.stderr.write(`[delivery] ${line}\n`);

/** Every receiver check a run must pass: the count delivered, nothing repeated after a 2xx. */
function problems(s: ReceiverSummary, expected: number): string[] {
  const out: string[] = [];
  if (s.delivered !== expected) out.push(`${s.delivered} of ${expected} delivered`);
  if (s.duplicates > 0) out.push(`${s.duplicates} answered 2xx twice`);
  if (s.afterSuccess > 0) out.push(`${s.afterSuccess} requests after a 2xx`);
  if (s.bodyChanged > 0) out.push(`${s.bodyChanged} cases whose body changed between tries`);
  if (s.deliveryIdChanged > 0)
    out.push(`${s.deliveryIdChanged} cases whose delivery id changed between tries`);
  if (s.unknown > 0) out.push(`${s.unknown} requests naming no case`);
  return out;
}

const checked = (p: string[]) => (p.length === 0 ? 'all checks passed' : `FAILED: ${p.join('; ')}`);

/**
 * The ceiling: `count` POSTs of real payloads to the same receiver, `inFlight` at a time, by
 * fetch (keep-alive) or by node:http with a connection of its own per request (as docpipe
 * sends: `agent: false`, so that no socket to another address is reused). Requests a second.
 */
async function postLoop(
  url: string,
  bodies: readonly string[],
  inFlight: number,
  how: 'fetch' | 'http',
): Promise<number> {
  const target = new URL(url);
  const one = (body: string): Promise<number> =>
    how === 'fetch'
      ? fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
        }).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        })
      : new Promise<number>((resolve, reject) => {
          const req = http.request(
            {
              hostname: target.hostname,
              port: Number(target.port),
              path: target.pathname,
              method: 'POST',
              agent: false,
              headers: {
                'Content-Type': 'application/json',
                'Content-Length': String(Buffer.byteLength(body)),
              },
            },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
              res.on('error', reject);
            },
          );
          req.on('error', reject);
          req.end(body);
        });
  let next = 0;
  const started = wall();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < bodies.length) {
        const status = await one(bodies[next++]!);
        if (status !== 200) throw new Error(`the receiver answered ${status}`);
      }
    }),
  );
  return bodies.length / ((wall() - started) / 1000);
}

async function payloads(stack: DeliveryStack, count: number): Promise<string[]> {
  const rows = await stack.db
    .selectFrom('case_events')
    .select('payload')
    .orderBy('created_at', 'desc')
    .limit(count)
    .execute();
  return rows.map((r) => JSON.stringify(r.payload));
}

/** Polls the receiver until `count` distinct cases have been tried (answered or not). */
async function tried(stack: DeliveryStack, count: number): Promise<void> {
  for (;;) {
    if ((await stack.receiver.summary()).cases >= count) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

let collect: (() => void) | undefined;
/** A full GC before a heap reading: what is left is what is kept, not what waits for collection. */
function gc(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}

interface MemoryReading {
  after: number;
  /** MB */
  rss: number;
  heap: number;
  redis: number;
  postgres: number;
  /** Redis's own count of its data (INFO used_memory), MB. */
  redisData: number;
  /** Of `postgres`, the shared memory touched (Pss_Shmem): the buffer cache filling. */
  postgresShared: number;
  /** Finished event jobs Redis keeps (the events queue's completed set). */
  eventJobsKept: number;
}

function procKb(path: string, field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(path, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

async function readMemory(stack: DeliveryStack, after: number): Promise<MemoryReading> {
  gc();
  const mem = process.memoryUsage();
  const { info, kept } = await redisInfo(stack);
  const pss = (field: string) =>
    stack.postgresPids().reduce((kb, pid) => kb + procKb(`/proc/${pid}/smaps_rollup`, field), 0) /
    1024;
  return {
    after,
    rss: mem.rss / 1024 / 1024,
    heap: mem.heapUsed / 1024 / 1024,
    redis: procKb(`/proc/${stack.redis.pid!}/status`, 'VmRSS') / 1024,
    postgres: pss('Pss'),
    postgresShared: pss('Pss_Shmem'),
    redisData: Number(/used_memory:(\d+)/.exec(info)?.[1] ?? NaN) / 1024 / 1024,
    eventJobsKept: kept,
  };
}

async function redisInfo(stack: DeliveryStack): Promise<{ info: string; kept: number }> {
  const r = createRedis(stack.redis.url, 'worker');
  try {
    return {
      info: await r.info('memory'),
      kept: await r.zcard(`${DELIVERY_PREFIX}:${EVENTS_QUEUE}:completed`),
    };
  } finally {
    r.disconnect();
  }
}

const pct = (a: number, b: number) => ((b - a) / a) * 100;
const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`;

/** What draining one backlog at one batch size measured. */
export interface BatchPoint {
  batchSize: number;
  events: number;
  /** Events delivered a second, from the backlog's commit to the last 2xx. */
  perSecond: number;
  /** From the backlog's commit to each event's 2xx (ms). */
  p50Ms: number;
  p95Ms: number;
  statementsPerEvent: number;
  cpu: Cpu;
  /** The 1-minute load average at the end. */
  load: number;
  check: string[];
}

/**
 * `count` events committed at once (one transaction) while delivery runs idle at `batchSize`:
 * the time from the commit to each event's 2xx, the statements sent and the CPU of each process.
 */
async function drainBacklog(
  stack: DeliveryStack,
  count: number,
  batchSize: number,
): Promise<BatchPoint> {
  const { receiver } = stack;
  await stack.stopDelivery();
  await stack.startDelivery(batchSize);
  // Settled: its relay listening, its workers' first polls and the webhook sweep behind it, so
  // the backlog meets a running delivery, not one starting.
  await new Promise((r) => setTimeout(r, 1_000));
  receiver.reset();
  const { value, statements } = await countingStatements(async () => {
    // Counted apart, to be taken off: the copy's statements are not delivery's.
    const { statements: copying } = await countingStatements(() => stack.copyCases(count));
    const committed = wall();
    const cpu0 = cpuNow(stack);
    const end = await receiver.delivered(count);
    const cpu1 = cpuNow(stack);
    return { committed, end, copying, cpu: cpuPer(cpu0, cpu1, count) };
  });
  const since = (await receiver.arrivals()).map((at) => at - value.committed);
  const latency = stats(since);
  return {
    batchSize,
    events: count,
    perSecond: count / ((value.end - value.committed) / 1000),
    p50Ms: latency.p50,
    p95Ms: latency.p95,
    statementsPerEvent: (statements - value.copying) / count,
    cpu: value.cpu,
    load: loadavg()[0]!,
    check: problems(await receiver.summary(), count),
  };
}

/**
 * The report's parts of the batch and growth runs (bench/report/results.ts): the line series
 * `delivery-batch` (events a second against DOCPIPE_DELIVERY_BATCH, from a backlog) and the
 * figures `delivery.batch-<size>` and `delivery.backlog-<events>` (events a second, p95 in their
 * spread). bench/run.ts adds them to the results it writes.
 */
export function deliveryReportParts(report: DeliveryReport): {
  figures: Figure[];
  series: Series[];
} {
  const figures: Figure[] = [];
  const series: Series[] = [];
  const batch = report.results.batch as { events: number; points: BatchPoint[] } | undefined;
  const growth = report.results.growth as { batchSize: number; points: BatchPoint[] } | undefined;
  const cpuOf = (p: BatchPoint) =>
    `CPU per event ${p.cpu.bench.toFixed(2)} ms docpipe, ${p.cpu.postgres.toFixed(2)} ms PostgreSQL, ${p.cpu.redis.toFixed(2)} ms Redis; ${p.statementsPerEvent.toFixed(2)} statements per event`;
  if (batch && batch.points.length > 0) {
    series.push({
      kind: 'line',
      id: 'delivery-batch',
      title: `Webhook deliveries a second against batch size (a backlog of ${batch.events} case.created events)`,
      xLabel: 'batch size (DOCPIPE_DELIVERY_BATCH)',
      yLabel: 'deliveries a second',
      lines: [{ name: 'docpipe', points: batch.points.map((p) => [p.batchSize, p.perSecond]) }],
      target: { text: 'target 300 a second', value: 300 },
    });
    for (const p of batch.points)
      figures.push({
        id: `delivery.batch-${p.batchSize}`,
        group: 'delivery',
        name: `${p.events} case.created events from a backlog, batch size ${p.batchSize} (${cpuOf(p)})`,
        unit: 'events/s',
        value: p.perSecond,
        spread: { p50: p.p50Ms, p95: p.p95Ms, n: p.events },
        target: { text: '>= 300', op: '>=', value: 300, on: 'value' },
        meets: p.perSecond >= 300,
      });
  }
  if (growth)
    for (const p of growth.points)
      figures.push({
        id: `delivery.backlog-${p.events}`,
        group: 'delivery',
        name: `a backlog of ${p.events} case.created events, committed at once, to the last 2xx (batch size ${p.batchSize}; p95 from the commit to each 2xx in the spread; ${cpuOf(p)})`,
        unit: 'events/s',
        value: p.perSecond,
        spread: { p50: p.p50Ms, p95: p.p95Ms, n: p.events },
      });
  return { figures, series };
}

export async function runDelivery(
  root: string,
  selected: readonly DeliveryBenchmark[] = DELIVERY_BENCHMARKS,
  options: DeliveryOptions = deliveryOptions(),
): Promise<DeliveryReport> {
  const rows: DeliveryRow[] = [];
  const throughput: DeliveryThroughput[] = [];
  const results: Record<string, unknown> = { options, loadAverageAtStart: loadavg() };
  const inFlight = DEFAULT_EVENT_CONCURRENCY;
  const stack = await DeliveryStack.start(root, { backoffMs: options.backoffMs });
  const { receiver } = stack;
  try {
    await stack.startDelivery();
    let delivered = 0;
    /** Creates `n` cases and waits for their deliveries; the receiver counts from its reset. */
    const deliverMore = async (n: number) => {
      await stack.createCases(n, options.createConcurrency);
      delivered += n;
      await receiver.delivered(delivered);
    };
    // Warm-up: JIT, pools, the relay's listener, the receiver; then counts start again.
    await deliverMore(options.warmup);
    receiver.reset();
    delivered = 0;

    if (selected.includes('throughput')) {
      const n = options.events;
      const cpu0 = cpuNow(stack);
      const made = stack.createCases(n, options.createConcurrency);
      const end = await receiver.delivered(n);
      const { first, last } = await made;
      const cpu1 = cpuNow(stack);
      const live = n / ((end - first) / 1000);
      const creating = n / ((last - first) / 1000);
      const liveCheck = problems(await receiver.summary(), n);
      say(
        `live: ${live.toFixed(1)} events/s (cases committed at ${creating.toFixed(1)}/s); ${checked(liveCheck)}`,
      );

      // The same from a backlog: the pipeline alone, no creation beside it.
      await stack.stopDelivery();
      receiver.reset();
      await stack.createCases(n, options.createConcurrency);
      const cpu2 = cpuNow(stack);
      const started = wall();
      const { value: drained, statements } = await countingStatements(async () => {
        await stack.startDelivery();
        return receiver.delivered(n);
      });
      const cpu3 = cpuNow(stack);
      const backlog = n / ((drained - started) / 1000);
      const backlogCheck = problems(await receiver.summary(), n);
      say(`backlog: ${backlog.toFixed(1)} events/s; ${checked(backlogCheck)}`);

      // The ceiling: the same receiver, the same bodies, as many in flight as docpipe has.
      const bodies = await payloads(stack, n);
      receiver.reset();
      const cpu4 = cpuNow(stack);
      const viaFetch = await postLoop(`${receiver.url}/hook`, bodies, inFlight, 'fetch');
      const cpu5 = cpuNow(stack);
      const viaHttp = await postLoop(`${receiver.url}/hook`, bodies, inFlight, 'http');
      const cpu6 = cpuNow(stack);
      receiver.reset();
      const fetchCpu = cpuPer(cpu4, cpu5, n);
      const httpCpu = cpuPer(cpu5, cpu6, n);
      say(
        `ceiling: fetch ${viaFetch.toFixed(0)}/s, node:http new connection ${viaHttp.toFixed(0)}/s`,
      );
      const liveCpu = cpuPer(cpu0, cpu1, n);
      const backlogCpu = cpuPer(cpu2, cpu3, n);
      results.throughput = {
        live,
        creating,
        backlog,
        ceilingFetch: viaFetch,
        ceilingHttp: viaHttp,
        liveCpu,
        backlogCpu,
        fetchCpu,
        httpCpu,
        statementsPerEvent: statements / n,
        liveCheck,
        backlogCheck,
      };
      const meets = live >= 300;
      throughput.push(
        {
          name: `${n} case.created events to a local receiver, from the first commit (cases created meanwhile, ${options.createConcurrency} at once: ${creating.toFixed(0)} a second)`,
          perSecond: live,
          note: `${live.toFixed(1)} events a second (target >= 300: ${meets ? 'met' : 'MISSED'}); ${checked(liveCheck)}; ${cpuText(liveCpu)}`,
        },
        {
          name: `${n} case.created events from a backlog (committed with delivery stopped; from its start)`,
          perSecond: backlog,
          note: `${backlog.toFixed(1)} events a second; ${checked(backlogCheck)}; ${cpuText(backlogCpu)}; ${(statements / n).toFixed(1)} PostgreSQL statements per event`,
        },
        {
          name: `the ceiling: ${n} POSTs of the same bodies to the same receiver, ${inFlight} in flight`,
          perSecond: viaFetch,
          note: `fetch (keep-alive) ${viaFetch.toFixed(0)} a second, node:http with a connection per request (as docpipe sends) ${viaHttp.toFixed(0)} a second; docpipe / fetch = ${(live / viaFetch).toFixed(2)} live, ${(backlog / viaFetch).toFixed(2)} from a backlog; docpipe / node:http = ${(live / viaHttp).toFixed(2)} live; CPU per request: the loop's process ${fetchCpu.bench.toFixed(2)} ms (fetch) and ${httpCpu.bench.toFixed(2)} ms (node:http), the receiver ${fetchCpu.receiver.toFixed(2)} and ${httpCpu.receiver.toFixed(2)} ms`,
        },
      );
    }

    if (selected.includes('batch') || selected.includes('growth')) {
      // The copies' source, delivered before anything is timed.
      receiver.reset();
      await stack.copySource();
      await receiver.delivered(1);
    }

    if (selected.includes('batch')) {
      const n = options.batchEvents;
      const points: BatchPoint[] = [];
      for (const size of options.batchSizes) {
        points.push(await drainBacklog(stack, n, size));
        const p = points.at(-1)!;
        say(
          `batch ${size}: ${p.perSecond.toFixed(1)} events/s from a backlog of ${n}, p95 ${p.p95Ms.toFixed(0)} ms; ${p.statementsPerEvent.toFixed(2)} statements per event; ${cpuText(p.cpu)}; load ${p.load.toFixed(1)}; ${checked(p.check)}`,
        );
      }
      results.batch = { events: n, points };
    }

    if (selected.includes('growth')) {
      const points: BatchPoint[] = [];
      for (const k of options.growth) {
        points.push(await drainBacklog(stack, k, DEFAULT_DELIVERY_BATCH));
        const p = points.at(-1)!;
        say(
          `backlog ${k}: ${p.perSecond.toFixed(1)} events/s, p95 ${p.p95Ms.toFixed(0)} ms (batch ${DEFAULT_DELIVERY_BATCH}); ${p.statementsPerEvent.toFixed(2)} statements per event; ${cpuText(p.cpu)}; load ${p.load.toFixed(1)}; ${checked(p.check)}`,
        );
      }
      results.growth = { batchSize: DEFAULT_DELIVERY_BATCH, points };
    }

    if (selected.includes('batch') || selected.includes('growth')) {
      // The parts after these run on the default delivery, as before.
      await stack.stopDelivery();
      await stack.startDelivery();
      receiver.reset();
      delivered = 0;
    }

    if (selected.includes('load')) {
      const n = options.events;
      receiver.reset();
      receiver.answer(503);
      const since = new Date();
      const downAt = wall();
      await stack.createCases(n, options.createConcurrency);
      await tried(stack, n);
      const down = await receiver.summary();
      receiver.answer(200);
      const back = wall();
      const done = await receiver.delivered(n);
      // A try is recorded just after its answer: wait until none is left pending.
      for (let i = 0; i < 300; i++) {
        const pending = await stack.db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('created_at', '>=', since)
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow();
        if (Number(pending.n) === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const s = await receiver.summary();
      const states = await stack.db
        .selectFrom('webhook_deliveries')
        .select(['status'])
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('created_at', '>=', since)
        .groupBy('status')
        .execute();
      const attempts = await stack.db
        .selectFrom('webhook_attempts')
        .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('webhook_deliveries.created_at', '>=', since)
        .executeTakeFirstOrThrow();
      const byStatus = Object.fromEntries(states.map((r) => [r.status, Number(r.n)]));
      const loadCheck = problems(s, n);
      // Every request but the one answered 2xx was a failed answer's retry: requests = failed
      // answers + one per case; each try is recorded (webhook_attempts) as the receiver saw it.
      const failedAnswers = s.requests - s.okRequests;
      if (s.okRequests !== n) loadCheck.push(`${s.okRequests} requests answered 2xx, not ${n}`);
      if ((byStatus.succeeded ?? 0) !== n)
        loadCheck.push(`deliveries by state: ${JSON.stringify(byStatus)}`);
      if (Number(attempts.n) !== s.requests)
        loadCheck.push(`${attempts.n} tries recorded, ${s.requests} received`);
      const drainS = (done - back) / 1000;
      say(
        `load: down ${((back - downAt) / 1000).toFixed(1)} s (${down.requests} requests answered 503), drained in ${drainS.toFixed(1)} s; ${checked(loadCheck)}`,
      );
      results.load = {
        downSeconds: (back - downAt) / 1000,
        requestsWhileDown: down.requests,
        drainSeconds: drainS,
        requests: s.requests,
        failedAnswers,
        byStatus,
        attempts: Number(attempts.n),
        loadCheck,
      };
      throughput.push({
        name: `receiver down (503) while ${n} cases are created and each is tried, then back (backoff ${options.backoffMs} ms)`,
        perSecond: NaN,
        note: `${s.delivered} of ${n} delivered, ${s.duplicates} answered 2xx twice, ${s.afterSuccess} sent after a 2xx; down ${((back - downAt) / 1000).toFixed(1)} s, drained ${drainS.toFixed(1)} s after its return (${(n / drainS).toFixed(0)} a second); ${s.requests} requests in all = ${failedAnswers} answered 503 (each retried) + ${s.okRequests} answered 200; ${attempts.n} tries recorded; ${checked(loadCheck)}`,
      });
      receiver.reset();
      delivered = 0;
    }

    if (selected.includes('latency')) {
      const times: number[] = [];
      const rounds = options.latencyRounds;
      for (let i = 0; i < rounds + 20; i++) {
        const id = await stack.createCase();
        const committed = wall();
        const at = await receiver.arrived(id, 30_000);
        // The first 20 warm the path after the load part left it.
        if (i >= 20) times.push(at - committed);
      }
      const latency = stats(times);
      const meets = latency.p95 < 1000;
      say(
        `latency: p50 ${latency.p50.toFixed(1)} ms, p95 ${latency.p95.toFixed(1)} ms (max ${Math.max(...times).toFixed(1)})`,
      );
      results.latency = { ...latency, max: Math.max(...times) };
      rows.push({
        name: `case.created, commit to the receiver's 2xx, one case at a time on an idle queue (${rounds} rounds)`,
        docpipe: latency,
        target: 'p95 < 1000 ms',
        meets,
      });
      receiver.reset();
      delivered = 0;
    }

    if (selected.includes('memory')) {
      receiver.reset();
      delivered = 0;
      const readings: MemoryReading[] = [await readMemory(stack, 0)];
      const started = wall();
      for (let done = 0; done < options.memoryEvents;) {
        const n = Math.min(options.memoryEvery, options.memoryEvents - done);
        await deliverMore(n);
        done += n;
        const r = await readMemory(stack, done);
        readings.push(r);
        say(
          `memory ${done}: rss ${r.rss.toFixed(0)} MB, heap ${r.heap.toFixed(1)} MB, redis ${r.redis.toFixed(1)} MB (data ${r.redisData.toFixed(1)}, ${r.eventJobsKept} finished event jobs kept), postgres ${r.postgres.toFixed(0)} MB (shared ${r.postgresShared.toFixed(0)})`,
        );
      }
      const perSecond = options.memoryEvents / ((wall() - started) / 1000);
      const memCheck = problems(await receiver.summary(), options.memoryEvents);
      const ref = readings.find((r) => r.after >= options.memoryWarmup) ?? readings.at(-1)!;
      const last = readings.at(-1)!;
      const change = (k: keyof MemoryReading) => pct(ref[k], last[k]);
      const flat = (k: keyof MemoryReading) => Math.abs(change(k)) <= 10;
      const own = (r: MemoryReading) => r.postgres - r.postgresShared;
      const ownChange = pct(own(ref), own(last));
      const parts: (keyof MemoryReading)[] = ['rss', 'heap', 'redis', 'postgres'];
      const label: Record<string, string> = {
        rss: "docpipe's process RSS",
        heap: "docpipe's heap after GC",
        redis: 'Redis RSS',
        postgres: 'PostgreSQL Pss',
      };
      results.memory = { readings, reference: ref, last, perSecond, memCheck };
      throughput.push({
        name: `${options.memoryEvents} events through the outbox, memory after ${ref.after} and at ${last.after} (chunks of ${options.memoryEvery}, each delivered before its reading)`,
        perSecond,
        note: `${parts.map((k) => `${label[k]} ${ref[k].toFixed(1)} -> ${last[k].toFixed(1)} MB (${signed(change(k))}: ${flat(k) ? 'flat' : 'NOT flat'})`).join('; ')}; of PostgreSQL, its processes' own memory ${own(ref).toFixed(1)} -> ${own(last).toFixed(1)} MB (${signed(ownChange)}) and the shared buffers touched ${ref.postgresShared.toFixed(1)} -> ${last.postgresShared.toFixed(1)} MB; Redis's data ${ref.redisData.toFixed(1)} -> ${last.redisData.toFixed(1)} MB with ${ref.eventJobsKept} -> ${last.eventJobsKept} finished event jobs kept; target every process within 10%: ${parts.every(flat) ? 'met' : 'MISSED'}; ${perSecond.toFixed(0)} events a second; ${checked(memCheck)}`,
      });
    }
  } finally {
    await stack.stop();
  }
  results.loadAverageAtEnd = loadavg();
  say(
    `load average at the start ${JSON.stringify(results.loadAverageAtStart)}, at the end ${JSON.stringify(results.loadAverageAtEnd)}`,
  );
  return { rows, throughput, results };
}
