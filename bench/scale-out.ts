/**
 * Scale-out on one machine: W1 jobs through the queue to real `docpipe worker` processes (the
 * CLI, as a deployment runs them), one worker against two, on one Redis and one storage folder.
 * Each worker of the pair has one office process, so the pair has two; one worker with two
 * office processes is measured beside them, which tells what a second process costs (its own
 * Node, prepare thread and Redis connections) against a second office process in the same worker.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocpipeClient } from '../src/jobs/queue/index.js';
import { EmbeddedRedis } from '../src/platform/redis/index.js';
import { LocalStorage } from '../src/render/storage/index.js';

type Tag = { tag: string; value: unknown; type?: string; format?: string };

export interface ScaleOutOptions {
  /** Measured jobs per round and setup. */
  jobs: number;
  /** Rounds, the setups interleaved in each; medians are reported. */
  repeats: number;
  /** Jobs each setup converts first, unmeasured (its workers' JIT and office processes warm). */
  warmup: number;
  root: string;
}

/** A row of the benchmark's throughput table. */
export interface ThroughputRow {
  name: string;
  perSecond: number;
  failed?: number;
  note?: string;
}

interface Setup {
  name: string;
  workers: number;
  officeProcesses: number;
  /** Each setup has a queue prefix of its own: its jobs go to its workers only. */
  prefix: string;
}

const SETUPS: Setup[] = [
  { name: '1 worker process, 1 office process', workers: 1, officeProcesses: 1, prefix: 'one' },
  {
    name: '2 worker processes, 1 office process each',
    workers: 2,
    officeProcesses: 1,
    prefix: 'two',
  },
  {
    name: '1 worker process with 2 office processes',
    workers: 1,
    officeProcesses: 2,
    prefix: 'wide',
  },
];

const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;

/** One `docpipe worker` process, started and stopped by this benchmark alone. */
class WorkerProcess {
  private tail = '';
  private readonly exited: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    // The log is read only for the start line and, if it fails, the reason; the rest is dropped.
    const keep = (c: Buffer) => (this.tail = (this.tail + c.toString()).slice(-20_000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  static async start(root: string, env: NodeJS.ProcessEnv): Promise<WorkerProcess> {
    const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
    const child = spawn(process.execPath, [cli, 'worker'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const worker = new WorkerProcess(child);
    try {
      await worker.started();
    } catch (err) {
      await worker.stop();
      throw err;
    }
    return worker;
  }

  private async started(): Promise<void> {
    const until = Date.now() + START_TIMEOUT_MS;
    while (!this.tail.includes('"msg":"worker started')) {
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(`docpipe worker ended before it started:\n${this.tail}`);
      if (Date.now() > until)
        throw new Error(`docpipe worker not started within ${START_TIMEOUT_MS} ms:\n${this.tail}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** As an operator stops it (SIGTERM: its office processes close), and at once if it hangs. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await this.exited;
    clearTimeout(timer);
  }
}

export async function scaleOut(
  w1: Buffer,
  w1Tags: Tag[],
  options: ScaleOutOptions,
): Promise<ThroughputRow[]> {
  const work = mkdtempSync(join(tmpdir(), 'docpipe-bench-scale-'));
  const dataDir = join(work, 'data');
  const storage = new LocalStorage(join(dataDir, 'storage'));
  const redis = await EmbeddedRedis.start({ dir: join(work, 'redis') });
  const workers: WorkerProcess[] = [];
  const clients = new Map<Setup, DocpipeClient>();
  try {
    // Every setup runs from the start: idle workers cost nothing measurable (a blocked Redis
    // read, an office process asleep), and the setups can then take turns within each round.
    for (const setup of SETUPS) {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        REDIS_URL: redis.url,
        DOCPIPE_DATA_DIR: dataDir,
        DOCPIPE_QUEUE_PREFIX: setup.prefix,
        DOCPIPE_OFFICE_PROCESSES: String(setup.officeProcesses),
        DOCPIPE_LOG_FORMAT: 'json',
      };
      for (let i = 0; i < setup.workers; i++)
        workers.push(await WorkerProcess.start(options.root, env));
      const client = await DocpipeClient.connect({
        redisUrl: redis.url,
        prefix: setup.prefix,
        storage,
      });
      clients.set(setup, client);
    }
    const items = (name: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        document: {
          name,
          content: w1,
          tags: [
            ...w1Tags.filter((t) => t.tag !== 'contract_no'),
            { tag: 'contract_no', value: `${name}-${i}`, type: 'text' },
          ] as never,
        },
      }));
    for (const [setup, client] of clients)
      await client.renderEach(items(`warm-${setup.prefix}`, options.warmup));
    const runs = new Map<Setup, Run[]>(SETUPS.map((s) => [s, []]));
    for (let round = 0; round < options.repeats; round++) {
      // The order turns each round, so that no setup always runs after the same other one.
      for (let i = 0; i < SETUPS.length; i++) {
        const setup = SETUPS[(i + round) % SETUPS.length]!;
        const started = performance.now();
        const outcomes = await clients
          .get(setup)!
          .renderEach(items(`${setup.prefix}-${round}`, options.jobs));
        const seconds = (performance.now() - started) / 1000;
        const failed = outcomes.filter((o) => !o.ok).length;
        runs.get(setup)!.push({ perSecond: (options.jobs - failed) / seconds, failed });
      }
    }
    return rowsOf(runs, options);
  } finally {
    for (const client of clients.values()) await client.close();
    for (const worker of workers) await worker.stop();
    await redis.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

/** One setup's measured round. */
interface Run {
  perSecond: number;
  failed: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function rowsOf(runs: Map<Setup, Run[]>, options: ScaleOutOptions): ThroughputRow[] {
  const [one, two, wide] = SETUPS.map((s) => runs.get(s)!);
  const rows: ThroughputRow[] = SETUPS.map((setup) => ({
    name: `${options.jobs} W1 jobs to docpipe worker processes: ${setup.name}, median of ${options.repeats}`,
    perSecond: median(runs.get(setup)!.map((x) => x.perSecond)),
    failed: runs.get(setup)!.reduce((n, x) => n + x.failed, 0),
  }));
  // Ratios within each round (the setups ran minutes apart at most), then their median.
  const ratio = (a: Run[], b: Run[]) => median(a.map((x, i) => x.perSecond / b[i]!.perSecond));
  rows.push({
    name: 'scale-out on this machine',
    perSecond: NaN,
    note: `2 worker processes / 1 = ${ratio(two!, one!).toFixed(2)}; 2 worker processes / 1 worker with 2 office processes = ${ratio(two!, wide!).toFixed(2)} (each round: ${two!.map((x, i) => (x.perSecond / wide![i]!.perSecond).toFixed(2)).join(', ')})`,
  });
  return rows;
}
