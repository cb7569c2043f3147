/**
 * Issue 22's first case target: a v3 case with one W1 .docx (base64 `content`) and two recipients
 * reaches at least 0.8 of `POST /api/v2/document/convert`'s throughput with the same document on
 * the same stack. Both run in one run on one stack (cases-stack.ts), in alternating rounds whose
 * order turns, with as many requests in flight as the worker runs jobs; each request has a
 * `contract_no` of its own on both sides, so that every one is a real conversion.
 */
import { DEFAULT_OFFICE_POOL_OPTIONS } from '../src/render/convert/index.js';
import { workerConcurrency } from '../src/app/config/index.js';
import { Caller, median, type Batch } from './cases-caller.js';
import { convertBody, docxCaseBody, type W1 } from './cases-fixtures.js';
import { treeCpuMs, type CasesStack } from './cases-stack.js';

export interface CasesThroughputOptions {
  /** Measured requests per round and side. */
  jobs: number;
  rounds: number;
  /** Requests each side sends first, unmeasured (JIT, office processes, connections warm). */
  warmup: number;
  officeProcesses: number;
}

/** CPU (ms) per request of each part of the stack, and of the caller. */
export interface CpuPerRequest {
  serve: number;
  /** The worker with its office processes, their bridges and its threads. */
  worker: number;
  redis: number;
  postgres: number;
  caller: number;
  /** serve + worker + redis + postgres: docpipe's. */
  total: number;
}

export interface CasesThroughput {
  /** Median over the rounds, per side. */
  casesCpu: CpuPerRequest;
  convertCpu: CpuPerRequest;
  /** Cases a second, median of the rounds. */
  cases: number;
  /** Converts a second, median of the rounds. */
  convert: number;
  /** Each round's cases / convert. */
  ratios: number[];
  /** Median of the rounds' ratios. */
  ratio: number;
  casesP50: number;
  convertP50: number;
  concurrency: number;
  failed: number;
  firstFailure?: string;
}

export async function casesThroughput(
  stack: CasesStack,
  w1: W1,
  options: CasesThroughputOptions,
): Promise<CasesThroughput> {
  const concurrency = workerConcurrency(
    options.officeProcesses,
    DEFAULT_OFFICE_POOL_OPTIONS.queueDepth,
  );
  const caller = new Caller(stack.url, stack.key, concurrency);
  const viaCases = (name: string, n: number) =>
    caller.run(
      n,
      concurrency,
      (i) => ({ method: 'POST', path: '/v3/api/cases', body: docxCaseBody(w1, `${name}-${i}`) }),
      201,
    );
  const viaConvert = (name: string, n: number) =>
    caller.run(
      n,
      concurrency,
      (i) => ({
        method: 'POST',
        path: '/api/v2/document/convert',
        body: convertBody(w1, `${name}-${i}`),
      }),
      200,
    );
  const cpuNow = () => ({
    serve: treeCpuMs(stack.servePid),
    worker: treeCpuMs(stack.workerPid),
    redis: treeCpuMs(stack.redisPid),
    postgres: treeCpuMs(stack.postgresPids()[0]!),
    caller: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
  });
  type Measured = { batch: Batch; cpu: CpuPerRequest };
  const measured = async (run: () => Promise<Batch>): Promise<Measured> => {
    const before = cpuNow();
    const batch = await run();
    const after = cpuNow();
    const n = batch.times.length;
    const per = (k: keyof typeof before) => (after[k] - before[k]) / n;
    const cpu = {
      serve: per('serve'),
      worker: per('worker'),
      redis: per('redis'),
      postgres: per('postgres'),
      caller: per('caller'),
      total: 0,
    };
    cpu.total = cpu.serve + cpu.worker + cpu.redis + cpu.postgres;
    return { batch, cpu };
  };
  try {
    const warm = [
      await viaConvert('warm-v', options.warmup),
      await viaCases('warm-c', options.warmup),
    ];
    const casesRuns: Measured[] = [];
    const convertRuns: Measured[] = [];
    for (let r = 0; r < options.rounds; r++) {
      const pair = [
        async () => void casesRuns.push(await measured(() => viaCases(`c${r}`, options.jobs))),
        async () => void convertRuns.push(await measured(() => viaConvert(`v${r}`, options.jobs))),
      ];
      for (let i = 0; i < 2; i++) await pair[(i + r) % 2]!();
    }
    const cases = casesRuns.map((m) => m.batch);
    const convert = convertRuns.map((m) => m.batch);
    const cpuOf = (runs: Measured[]): CpuPerRequest => {
      const m = (k: keyof CpuPerRequest) => median(runs.map((x) => x.cpu[k]));
      return {
        serve: m('serve'),
        worker: m('worker'),
        redis: m('redis'),
        postgres: m('postgres'),
        caller: m('caller'),
        total: m('total'),
      };
    };
    const rate = (b: Batch) => (b.times.length - b.failed) / b.seconds;
    const ratios = cases.map((c, r) => rate(c) / rate(convert[r]!));
    const all = [...warm, ...cases, ...convert];
    const firstFailure = all.find((b) => b.firstFailure)?.firstFailure;
    const p50 = (bs: Batch[]) => median(bs.map((b) => median(b.times)));
    return {
      casesCpu: cpuOf(casesRuns),
      convertCpu: cpuOf(convertRuns),
      cases: median(cases.map(rate)),
      convert: median(convert.map(rate)),
      ratios,
      ratio: median(ratios),
      casesP50: p50(cases),
      convertP50: p50(convert),
      concurrency,
      failed: all.reduce((n, b) => n + b.failed, 0),
      ...(firstFailure !== undefined ? { firstFailure } : {}),
    };
  } finally {
    caller.close();
  }
}
