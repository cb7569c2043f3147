/**
 * docpipe's CPU per W1 document through the queue, stage by stage (issue 37, "Pipeline"): the
 * producer (DocpipeClient), the worker process (DocpipeWorker, Renderer, the prepare threads and
 * the office pool's bridges: process.cpuUsage counts every thread of a process), Redis, and the
 * office processes (LibreOffice's own work, for scale). The worker runs in a child process of its
 * own, so that its CPU is not the producer's; Redis and the office processes are read from
 * /proc/<pid>/stat. Rounds of W1 documents, each with its own values (every one a conversion),
 * after a warm-up; each stage's figure is the median of the rounds.
 *
 * `node dist/bench/pipeline-cpu.js [jobs] [rounds] [warmup]` prints the figures as JSON; with
 * BENCH_PIPELINE_CPU_PROF=<dir> the worker writes a V8 CPU profile of its main thread there.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareThreadsBeside, workerConcurrency } from '../src/app/config/index.js';
import { DEFAULT_OFFICE_POOL_OPTIONS, OfficePool } from '../src/render/convert/index.js';
import { PreparePool } from '../src/render/prepare/index.js';
import { FolderLibrary } from '../src/document/library/index.js';
import { Renderer } from '../src/render/pipeline/index.js';
import { DocpipeClient, DocpipeWorker } from '../src/jobs/queue/index.js';
import { EmbeddedRedis } from '../src/platform/redis/index.js';
import { LocalStorage } from '../src/render/storage/index.js';
import { projectRoot } from '../src/base/paths/index.js';
import type { Figure } from './report/results.js';

type Tag = { tag: string; value: unknown; type?: string; format?: string };

export interface PipelineCpuOptions {
  /** W1 documents a round. */
  jobs: number;
  rounds: number;
  /** W1 documents before the first round: V8 optimizes a worker's code over its first ones. */
  warmup: number;
  processes: number;
  root: string;
  /**
   * Where the worker writes a V8 CPU profile of its main thread over the measured rounds only
   * (`worker.cpuprofile`, for Chrome's DevTools or speedscope); none when not given.
   */
  profileDir?: string;
}

/** What the worker's process says of itself and its office processes, in ms of CPU so far. */
interface WorkerSample {
  kind: 'sample';
  workerMs: number;
  /** Each of its threads' CPU so far (/proc/self/task), by thread id; the main thread's is the pid. */
  threadMs: Record<string, number>;
  pid: number;
  officeMs: number;
}

type ToWorker =
  | {
      kind: 'setup';
      redisUrl: string;
      storageDir: string;
      processes: number;
      root: string;
      profileDir?: string;
    }
  | { kind: 'sample'; profile?: 'start' | 'stop' }
  | { kind: 'stop' };
type FromWorker =
  { kind: 'ready' } | WorkerSample | { kind: 'stopped' } | { kind: 'error'; message: string };

/** The ms per W1 document each stage used in one round. */
interface Round {
  producer: number;
  worker: number;
  /** The worker's main thread: BullMQ, ioredis, the renderer, storage, the office bridges. */
  main: number;
  /** Its prepare threads (sniff, fill, PDF check): the busiest threads besides the main one. */
  prepare: number;
  /** Its other threads: V8's (garbage collection, compilation) and libuv's (file system). */
  other: number;
  redis: number;
  office: number;
}

const TARGET_MS = 3;

export async function pipelineCpu(
  w1: Buffer,
  w1Tags: Tag[],
  options: PipelineCpuOptions,
): Promise<Figure[]> {
  const work = mkdtempSync(join(tmpdir(), 'docpipe-bench-pipeline-cpu-'));
  const redis = await EmbeddedRedis.start({ dir: join(work, 'redis') });
  const storageDir = join(work, 'storage');
  const worker = WorkerChild.start();
  let client: DocpipeClient | undefined;
  try {
    await worker.ask({
      kind: 'setup',
      redisUrl: redis.url,
      storageDir,
      processes: options.processes,
      root: options.root,
      profileDir: options.profileDir,
    });
    client = await DocpipeClient.connect({
      redisUrl: redis.url,
      storage: new LocalStorage(storageDir),
    });
    const producer = client;
    const item = (name: string, i: number) => ({
      document: {
        name,
        content: w1,
        tags: [
          ...w1Tags.filter((t) => t.tag !== 'contract_no'),
          { tag: 'contract_no', value: `${name}-${i}`, type: 'text' },
        ] as never,
      },
    });
    const renderAll = async (name: string, n: number) => {
      const outcomes = await producer.renderEach(
        Array.from({ length: n }, (_, i) => item(name, i)),
      );
      const failed = outcomes.filter((o) => !o.ok).length;
      if (failed > 0) throw new Error(`${failed} of ${n} W1 documents failed`);
    };
    await renderAll('warm', options.warmup);
    const rounds: Round[] = [];
    const redisPid = redis.pid;
    if (redisPid === undefined) throw new Error('embedded Redis has no pid');
    for (let r = 0; r < options.rounds; r++) {
      const before = {
        producer: process.cpuUsage(),
        redis: procCpuMs(redisPid),
        worker: (await worker.ask({
          kind: 'sample',
          profile: r === 0 ? 'start' : undefined,
        })) as WorkerSample,
      };
      await renderAll(`r${r}`, options.jobs);
      const used = process.cpuUsage(before.producer);
      const after = (await worker.ask({
        kind: 'sample',
        profile: r === options.rounds - 1 ? 'stop' : undefined,
      })) as WorkerSample;
      const per = (ms: number) => ms / options.jobs;
      rounds.push({
        producer: per((used.user + used.system) / 1000),
        worker: per(after.workerMs - before.worker.workerMs),
        ...threadSplit(before.worker, after, prepareThreadsBeside(options.processes), per),
        redis: per(procCpuMs(redisPid) - before.redis),
        office: per(after.officeMs - before.worker.officeMs),
      });
    }
    return figures(rounds, options);
  } finally {
    await client?.close();
    await worker.stop();
    await redis.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

function figures(rounds: Round[], options: PipelineCpuOptions): Figure[] {
  const spreadOf = (values: number[]) => ({ runs: values });
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const stage = (pick: (r: Round) => number) => {
    const values = rounds.map(pick);
    return { value: median(values), spread: spreadOf(values) };
  };
  const of = `${options.jobs} W1 documents a round, median of ${options.rounds} rounds, ${options.processes} office processes`;
  const total = stage((r) => r.worker + r.redis);
  return [
    {
      id: 'pipeline-cpu.producer',
      group: 'pipeline-cpu',
      name: `producer (DocpipeClient: job data, addBulk, waiting for each end), CPU per W1 document (${of})`,
      unit: 'ms',
      ...stage((r) => r.producer),
    },
    {
      id: 'pipeline-cpu.worker',
      group: 'pipeline-cpu',
      name: 'worker process (DocpipeWorker, renderer, prepare threads, office bridges), CPU per W1 document',
      unit: 'ms',
      ...stage((r) => r.worker),
    },
    {
      id: 'pipeline-cpu.worker.main',
      group: 'pipeline-cpu',
      name: "of it, the worker's main thread (BullMQ, ioredis, renderer, storage, office bridges)",
      unit: 'ms',
      ...stage((r) => r.main),
    },
    {
      id: 'pipeline-cpu.worker.prepare',
      group: 'pipeline-cpu',
      name: 'of it, the prepare threads (sniff, fill, PDF check and stamp)',
      unit: 'ms',
      ...stage((r) => r.prepare),
    },
    {
      id: 'pipeline-cpu.worker.other',
      group: 'pipeline-cpu',
      name: "of it, V8's and libuv's helper threads (garbage collection, compilation, file system)",
      unit: 'ms',
      ...stage((r) => r.other),
    },
    {
      id: 'pipeline-cpu.redis',
      group: 'pipeline-cpu',
      name: 'Redis, CPU per W1 document',
      unit: 'ms',
      ...stage((r) => r.redis),
    },
    {
      id: 'pipeline-cpu.total',
      group: 'pipeline-cpu',
      name: 'docpipe outside LibreOffice and the producer (worker process + Redis), CPU per W1 document',
      unit: 'ms',
      ...total,
      target: { text: `<= ${TARGET_MS} ms`, op: '<=', value: TARGET_MS, on: 'value' },
      meets: total.value <= TARGET_MS,
    },
    {
      id: 'pipeline-cpu.office',
      group: 'pipeline-cpu',
      name: 'office processes (LibreOffice converting), CPU per W1 document, for scale',
      unit: 'ms',
      ...stage((r) => r.office),
    },
  ];
}

/** utime + stime of a live process (or a thread's, by its stat file), in ms (ticks of 10 ms). */
function procCpuMs(pid: number, file = `/proc/${pid}/stat`): number {
  try {
    const stat = readFileSync(file, 'utf8');
    // The command may hold spaces and parentheses: the fields count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** Every thread of this process, its CPU in ms so far. */
function threadCpuMs(): Record<string, number> {
  const threads: Record<string, number> = {};
  for (const tid of readdirSync('/proc/self/task'))
    threads[tid] = procCpuMs(Number(tid), `/proc/self/task/${tid}/stat`);
  return threads;
}

/**
 * The worker's CPU between two samples by thread: Node names none of its threads, so the
 * prepare threads are told by their work (the `prepareThreads` busiest besides the main one;
 * V8's and libuv's helpers each use far less).
 */
function threadSplit(
  before: WorkerSample,
  after: WorkerSample,
  prepareThreads: number,
  per: (ms: number) => number,
): Pick<Round, 'main' | 'prepare' | 'other'> {
  const main = String(after.pid);
  const others = Object.entries(after.threadMs)
    .filter(([tid]) => tid !== main)
    .map(([tid, ms]) => ms - (before.threadMs[tid] ?? 0))
    .sort((a, b) => b - a);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return {
    main: per((after.threadMs[main] ?? 0) - (before.threadMs[main] ?? 0)),
    prepare: per(sum(others.slice(0, prepareThreads))),
    other: per(sum(others.slice(prepareThreads))),
  };
}

/** USER_HZ: 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;

/** The parent's side of the worker's child process. */
class WorkerChild {
  private pending: { resolve: (m: FromWorker) => void; reject: (e: Error) => void } | undefined;

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (message: FromWorker) => {
      const p = this.pending;
      this.pending = undefined;
      if (message.kind === 'error') p?.reject(new Error(`pipeline worker: ${message.message}`));
      else p?.resolve(message);
    });
    child.on('exit', (code, signal) => {
      this.pending?.reject(new Error(`pipeline worker exited (${code ?? signal})`));
      this.pending = undefined;
    });
  }

  static start(): WorkerChild {
    const child = fork(fileURLToPath(import.meta.url), ['--pipeline-worker'], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new WorkerChild(child);
  }

  ask(message: ToWorker): Promise<FromWorker> {
    if (this.pending) return Promise.reject(new Error('one question at a time'));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.child.send(message);
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await this.ask({ kind: 'stop' }).catch(() => undefined);
    await exited;
  }
}

/** The child's side: the worker stack as `docpipe start` runs it, minus HTTP. */
function runWorker(): void {
  let stack: { worker: DocpipeWorker; office: OfficePool; preparer: PreparePool } | undefined;
  let profileDir: string | undefined;
  const session = new Session();
  const reply = (message: FromWorker) => process.send!(message);
  const handle = async (message: ToWorker): Promise<FromWorker> => {
    if (message.kind === 'setup') {
      const storage = new LocalStorage(message.storageDir);
      const preparer = new PreparePool({ threads: prepareThreadsBeside(message.processes) });
      const office = await OfficePool.start({ processes: message.processes });
      const worker = await DocpipeWorker.start({
        redisUrl: message.redisUrl,
        concurrency: workerConcurrency(message.processes, DEFAULT_OFFICE_POOL_OPTIONS.queueDepth),
        renderer: new Renderer({ preparer, converter: office, storage }),
        storage,
        library: new FolderLibrary(join(message.root, 'templates')),
      });
      stack = { worker, office, preparer };
      profileDir = message.profileDir;
      return { kind: 'ready' };
    }
    if (message.kind === 'sample') {
      // Stopped before the figures are read, started after: the profiler's own work is outside.
      if (profileDir && message.profile === 'stop') {
        const { profile } = await session.post('Profiler.stop');
        writeFileSync(join(profileDir, 'worker.cpuprofile'), JSON.stringify(profile));
        session.disconnect();
      }
      const used = process.cpuUsage();
      const officeMs = (stack?.office.pids() ?? []).reduce((sum, pid) => sum + procCpuMs(pid), 0);
      if (profileDir && message.profile === 'start') {
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
      }
      return {
        kind: 'sample',
        workerMs: (used.user + used.system) / 1000,
        threadMs: threadCpuMs(),
        pid: process.pid,
        officeMs,
      };
    }
    await close();
    setImmediate(() => process.exit(0));
    return { kind: 'stopped' };
  };
  const close = async () => {
    await stack?.worker.close(1000);
    await stack?.office.close();
    await stack?.preparer.close();
  };
  process.on('message', (message: ToWorker) => {
    handle(message).then(reply, (err: unknown) =>
      reply({ kind: 'error', message: err instanceof Error ? err.message : String(err) }),
    );
  });
  // The parent gone (killed, crashed): the office processes are detached and would outlive this
  // one, so the pool is closed first.
  process.on('disconnect', () => {
    setTimeout(() => process.exit(1), 10_000).unref();
    void close().finally(() => process.exit(1));
  });
}

if (process.argv.includes('--pipeline-worker')) runWorker();
else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = projectRoot();
  const [jobs = 200, rounds = 5, warmup = 300] = process.argv.slice(2).map(Number);
  const w1 = readFileSync(join(root, 'templates/lease/template.docx'));
  const tags = JSON.parse(
    readFileSync(join(root, 'templates/lease/fixtures/basic.tags.json'), 'utf8'),
  ) as Tag[];
  const result = await pipelineCpu(w1, tags, {
    jobs,
    rounds,
    warmup,
    processes: 2,
    root,
    profileDir: process.env.BENCH_PIPELINE_CPU_PROF,
  });
  console.log(JSON.stringify(result, null, 2));
}
