/**
 * Issue 22's case benchmarks, each on a stack of its own (cases-stack.ts: a private Redis, an
 * embedded PostgreSQL, real `docpipe serve` and `docpipe worker` with 2 office processes):
 * `throughput` (a W1 case against W1 through convert), `pdf` (a PDF case's latency), `list`
 * (the list with 100,000 cases) and `memory` (10,000 cases in a row). `npm run bench` runs them
 * all; `node dist/bench/run.js cases [throughput|pdf|list|memory ...] [--quick]` runs only these
 * (the named ones), `--quick` at a size for a quick check. docs/benchmarks.md, "Cases".
 */
import { Caller, median } from './cases-caller.js';
import { loadW1, w1Pdf } from './cases-fixtures.js';
import { casesList } from './cases-list.js';
import { casesMemory, slope, type MemoryReading } from './cases-memory.js';
import { casesPdfLatency } from './cases-pdf-latency.js';
import { startCasesStack, type CasesStack } from './cases-stack.js';
import { casesThroughput } from './cases-throughput.js';

export const CASE_BENCHMARKS = ['throughput', 'pdf', 'list', 'memory'] as const;
export type CaseBenchmark = (typeof CASE_BENCHMARKS)[number];

const OFFICE_PROCESSES = 2;

export interface CasesReport {
  /** Markdown, one table per benchmark. */
  markdown: string;
  results: Partial<Record<CaseBenchmark, unknown>>;
}

/** A size: its variable, else the full or the quick default. */
function size(name: string, full: number, quick: number, isQuick: boolean): number {
  const v = process.env[name];
  return v ? Number(v) : isQuick ? quick : full;
}

async function onStack<T>(root: string, run: (stack: CasesStack) => Promise<T>): Promise<T> {
  const stack = await startCasesStack({ root, officeProcesses: OFFICE_PROCESSES });
  try {
    return await run(stack);
  } finally {
    await stack.stop();
  }
}

const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);
const met = (ok: boolean) => (ok ? 'met' : 'MISSED');

export async function runCases(
  root: string,
  selected: readonly CaseBenchmark[] = CASE_BENCHMARKS,
  quick = false,
): Promise<CasesReport> {
  const w1 = loadW1(root);
  const out: string[] = [];
  const results: CasesReport['results'] = {};
  const say = (line: string) => {
    out.push(line);
    process.stderr.write(`[cases] ${line}\n`);
  };
  const pdfOf = async (stack: CasesStack) => {
    const caller = new Caller(stack.url, stack.key, 1);
    try {
      return await w1Pdf(caller, w1);
    } finally {
      caller.close();
    }
  };

  if (selected.includes('throughput')) {
    const jobs = size('BENCH_CASES_JOBS', 200, 40, quick);
    const rounds = size('BENCH_CASES_ROUNDS', 3, 1, quick);
    const warmup = size('BENCH_CASES_WARMUP', 300, 50, quick);
    const r = await onStack(root, (stack) =>
      casesThroughput(stack, w1, { jobs, rounds, warmup, officeProcesses: OFFICE_PROCESSES }),
    );
    results.throughput = { jobs, rounds, warmup, ...r };
    say('');
    say(
      `| W1 through serve + worker (${OFFICE_PROCESSES} office processes, ${r.concurrency} in flight, ${jobs} a round, median of ${rounds}) | per second | p50 (ms) |`,
    );
    say('|---|---|---|');
    say(
      `| POST /v3/api/cases (W1 .docx as content, 2 recipients) | ${f1(r.cases)} | ${f1(r.casesP50)} |`,
    );
    say(`| POST /api/v2/document/convert (the same W1) | ${f1(r.convert)} | ${f1(r.convertP50)} |`);
    say(
      `| case / convert | ${f2(r.ratio)} (rounds: ${r.ratios.map(f2).join(', ')}) | target >= 0.80: ${met(r.ratio >= 0.8)} |`,
    );
    const cpu = (c: typeof r.casesCpu) =>
      `${f2(c.total)} (serve ${f2(c.serve)}, worker and its office processes ${f2(c.worker)}, Redis ${f2(c.redis)}, PostgreSQL ${f2(c.postgres)}; the caller ${f2(c.caller)})`;
    say(`| CPU per case (ms) | ${cpu(r.casesCpu)} | |`);
    say(`| CPU per convert (ms) | ${cpu(r.convertCpu)} | |`);
    say(
      `| convert CPU / case CPU: the ratio where CPU is what limits | ${f2(r.convertCpu.total / r.casesCpu.total)} | |`,
    );
    if (r.failed > 0) say(`| failed requests | ${r.failed}: ${r.firstFailure ?? ''} | |`);
  }

  if (selected.includes('pdf')) {
    const cases = size('BENCH_CASES_PDF', 500, 100, quick);
    const warmup = size('BENCH_CASES_PDF_WARMUP', 100, 20, quick);
    const r = await onStack(root, async (stack) =>
      casesPdfLatency(stack, await pdfOf(stack), { cases, warmup }),
    );
    results.pdf = { cases, warmup, ...r };
    say('');
    say('| a case of one PDF, one request at a time | p50 / p95 (ms) | target |');
    say('|---|---|---|');
    say(
      `| POST /v3/api/cases, W1 as a ${(r.pdfBytes / 1024).toFixed(0)} KB PDF, 2 recipients, ${cases} after ${warmup} | ${f2(r.p50)} / ${f2(r.p95)} | p50 <= 15 ms: ${met(r.p50 <= 15)} |`,
    );
    for (const b of r.beside) say(`| beside it: ${b.name} | ${f2(b.p50)} / ${f2(b.p95)} | |`);
    if (r.failed > 0) say(`| failed requests | ${r.failed}: ${r.firstFailure ?? ''} | |`);
  }

  if (selected.includes('list')) {
    const cases = size('BENCH_CASES_LIST', 100_000, 5_000, quick);
    const requests = size('BENCH_CASES_LIST_REQUESTS', 200, 50, quick);
    const r = await onStack(root, (stack) => casesList(stack, { cases, requests }));
    results.list = r;
    say('');
    say(
      `| GET /v3/api/cases, ${cases.toLocaleString('en')} cases in the company (seeded in ${f1(r.seedSeconds)} s), one at a time, ${requests} each | p50 / p95 (ms) | cases answered | target |`,
    );
    say('|---|---|---|---|');
    for (const row of r.rows)
      say(
        `| ${row.name} | ${f2(row.p50)} / ${f2(row.p95)} | ${row.returned} | p50 <= 20 ms: ${met(row.p50 <= 20)} |`,
      );
    if (r.failed > 0) say(`| failed requests | ${r.failed}: ${r.firstFailure ?? ''} | | |`);
  }

  if (selected.includes('memory')) {
    const cases = size('BENCH_CASES_MEMORY', 10_000, 1_000, quick);
    const warmup = size('BENCH_CASES_MEMORY_WARMUP', 1_000, 200, quick);
    const every = size('BENCH_CASES_MEMORY_EVERY', 500, 100, quick);
    const r = await onStack(root, async (stack) =>
      casesMemory(stack, await pdfOf(stack), {
        cases,
        warmup,
        every,
        officeProcesses: OFFICE_PROCESSES,
      }),
    );
    results.memory = { cases, warmup, every, ...r };
    type Part = (x: MemoryReading) => number;
    const after = r.readings.filter((x) => x.after >= warmup);
    // The collector lets a Node process swing by tens of MB between two readings, so single
    // readings say little: the medians of the first and the last third after warm-up are
    // compared, and a straight line is fitted (a leak is a steady slope; swings are not).
    const third = Math.max(1, Math.floor(after.length / 3));
    const line = (what: string, part: Part, judged = true, of = median) => {
      const early = of(after.slice(0, third).map(part));
      const late = of(after.slice(-third).map(part));
      const g = late / early - 1;
      const perThousand = slope(after.map((x) => ({ x: x.after / 1000, y: part(x) })));
      const target = judged ? `within 10%: ${met(Math.abs(g) <= 0.1)}` : '';
      return `| ${what} | ${f1(part(r.reference))} / ${f1(part(r.last))} | ${f1(Math.min(...after.map(part)))} to ${f1(Math.max(...after.map(part)))} | ${f1(early)} / ${f1(late)} | ${g >= 0 ? '+' : ''}${(g * 100).toFixed(1)}% | ${perThousand >= 0 ? '+' : ''}${f2(perThousand)} | ${target} |`;
    };
    say('');
    say(
      `| ${cases.toLocaleString('en')} PDF cases in a row (${f1(r.casesPerSecond)} a second; a reading every ${every}) | MB at ${warmup.toLocaleString('en')} / at the end | range after warm-up | median of the first / last third after warm-up | change of the medians | MB per 1,000 cases (fit) | target |`,
    );
    say('|---|---|---|---|---|---|---|');
    say(line('`docpipe serve` (VmRSS)', (x) => x.serve));
    // The heap in use swings with every collection; its lowest readings are what survived one.
    say(
      line(
        'of which its V8 heap in use (its /metrics; lowest, not median, of each third)',
        (x) => x.serveHeap,
        false,
        (xs) => Math.min(...xs),
      ),
    );
    say(line('of which outside the heap (Buffers; its /metrics)', (x) => x.serveExternal, false));
    say(line('`docpipe worker`, its Node process (VmRSS)', (x) => x.worker));
    say(line(`PostgreSQL, Pss of its ${r.last.postgresProcesses} processes`, (x) => x.postgres));
    say(
      line(
        "of which the processes' own memory (Pss less Pss_Shmem)",
        (x) => x.postgres - x.postgresShared,
        false,
      ),
    );
    say(
      line(
        `of which shared memory touched (Pss_Shmem: the buffer cache, shared_buffers = ${r.sharedBuffers})`,
        (x) => x.postgresShared,
        false,
      ),
    );
    say(
      `| every reading (cases: serve / worker / postgres (shared) MB) | ${r.readings.map((x) => `${x.after}: ${x.serve.toFixed(0)}/${x.worker.toFixed(0)}/${x.postgres.toFixed(0)} (${x.postgresShared.toFixed(0)})`).join(', ')} | | | | | |`,
    );
    if (r.failed > 0) say(`| failed requests | ${r.failed}: ${r.firstFailure ?? ''} | | | | | |`);
  }

  return { markdown: out.join('\n'), results };
}

/** `run.js cases [names] [--quick]`: the names given, or all four. */
export function parseCasesArgs(args: string[]): { selected: CaseBenchmark[]; quick: boolean } {
  const quick = args.includes('--quick');
  const names = args.filter((a) => a !== '--quick');
  for (const n of names)
    if (!(CASE_BENCHMARKS as readonly string[]).includes(n))
      throw new Error(`unknown case benchmark "${n}": one of ${CASE_BENCHMARKS.join(', ')}`);
  return {
    selected: names.length > 0 ? (names as CaseBenchmark[]) : [...CASE_BENCHMARKS],
    quick,
  };
}
