import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Job, Queue } from 'bullmq';
import { prepareThreadsBeside, workerConcurrency } from '../src/app/config/index.js';
import { DEFAULT_OFFICE_POOL_OPTIONS, OfficePool } from '../src/render/convert/index.js';
import { PreparePool } from '../src/render/prepare/index.js';
import { FolderLibrary } from '../src/document/library/index.js';
import { Renderer } from '../src/render/pipeline/index.js';
import { DocpipeClient, DocpipeWorker } from '../src/jobs/queue/index.js';
import { EmbeddedRedis } from '../src/platform/redis/index.js';
import { LocalStorage } from '../src/render/storage/index.js';

type Tag = { tag: string; value: unknown; type?: string; format?: string };

/** One of company B's documents. */
interface Sample {
  waitMs: number;
  conversionsWaited: number;
  takenAfterMs: number;
}

/**
 * What company B's single documents met behind company A's batch, with and without fairness:
 * the median of B's documents.
 */
export interface FairnessRun {
  /** B's documents measured (one after another while A's batch ran). */
  samples: number;
  /** Milliseconds from B's enqueueing to its result. */
  waitMs: number;
  /** A's documents that finished while B's waited: the conversions B waited for. */
  conversionsWaited: number;
  /** Milliseconds from B's enqueueing until a worker took its job (BullMQ's timestamps). */
  takenAfterMs: number;
  /** A's batch, documents a second (the pace a conversion takes its turn at). */
  batchPerSecond: number;
}

export interface FairnessResult {
  fair: FairnessRun;
  fifo: FairnessRun;
  processes: number;
  /** Milliseconds one W1 conversion takes on the warm pool, alone (median): "a conversion's time". */
  conversionMs: number;
}

/**
 * Company A enqueues `batch` W1 documents; once the worker is on them (after `startAfter`
 * finished), company B enqueues one. Run twice on one stack (embedded Redis, one worker, the
 * office pool, local storage), each on its own queue prefix: with fair sharing (BullMQ
 * priorities, docpipe's default) and without (first in, first out). Every document has its own
 * values, so each is a real conversion, never an answer from the render cache.
 */
export async function fairness(
  w1: Buffer,
  w1Tags: Tag[],
  options: {
    batch: number;
    processes: number;
    startAfter: number;
    root: string;
    /** DOCPIPE_OFFICE_QUEUE_DEPTH. @defaultValue the pool's default */
    queueDepth?: number;
    /** B's documents measured with fairness, one after another. */
    samples: number;
    /** W1 filled: what a conversion alone is timed on. */
    filled: Buffer;
  },
): Promise<FairnessResult> {
  const work = mkdtempSync(join(tmpdir(), 'docpipe-bench-fair-'));
  const redis = await EmbeddedRedis.start({ dir: join(work, 'redis') });
  const storage = new LocalStorage(join(work, 'storage'));
  const preparer = new PreparePool({ threads: prepareThreadsBeside(options.processes) });
  const queueDepth = options.queueDepth ?? DEFAULT_OFFICE_POOL_OPTIONS.queueDepth;
  const office = await OfficePool.start({ processes: options.processes, queueDepth });
  const renderer = new Renderer({ preparer, converter: office, storage });
  const item = (name: string) => ({
    name,
    content: w1,
    tags: [
      ...w1Tags.filter((t) => t.tag !== 'contract_no'),
      { tag: 'contract_no', value: name, type: 'text' },
    ] as never,
  });
  const run = async (prefix: string, fairShare: boolean): Promise<FairnessRun> => {
    const worker = await DocpipeWorker.start({
      redisUrl: redis.url,
      prefix,
      concurrency: workerConcurrency(options.processes, queueDepth),
      renderer,
      storage,
      library: new FolderLibrary(join(options.root, 'templates')),
    });
    const connect = (company: string) =>
      DocpipeClient.connect({ redisUrl: redis.url, prefix, storage, company, fairShare });
    const [a, b] = [await connect('company-a'), await connect('company-b')];
    try {
      const settled: number[] = [];
      const batchStarted = performance.now();
      const batch = a.renderEach(
        Array.from({ length: options.batch }, (_, i) => ({ document: item(`${prefix}-A-${i}`) })),
        () => void settled.push(performance.now()),
      );
      while (settled.length < options.startAfter) await new Promise((r) => setTimeout(r, 2));
      // B sends its documents one at a time while A's batch runs (one, without fairness: the
      // next would come after the batch), and each wait is measured on its own.
      const samples: Sample[] = [];
      const queue = new Queue('documents', { connection: { url: redis.url }, prefix });
      for (let i = 0; i < (fairShare ? options.samples : 1); i++) {
        const enqueued = performance.now();
        await b.render(item(`${prefix}-B-${i}`), { idempotencyKey: `${prefix}-b-${i}` });
        const done = performance.now();
        const job = await Job.fromId(queue, `${prefix}-b-${i}`);
        samples.push({
          waitMs: done - enqueued,
          conversionsWaited: settled.filter((t) => t > enqueued && t <= done).length,
          takenAfterMs: (job?.processedOn ?? NaN) - (job?.timestamp ?? NaN),
        });
        await new Promise((r) => setTimeout(r, 150));
      }
      await queue.close();
      const outcomes = await batch;
      const failed = outcomes.filter((o) => !o.ok).length;
      if (failed > 0) throw new Error(`${failed} of company A's documents failed`);
      const batchSeconds = (performance.now() - batchStarted) / 1000;
      // The median sample by wait, whole: its wait, conversions and pick-up belong together.
      samples.sort((x, y) => x.waitMs - y.waitMs);
      const median = samples[Math.floor(samples.length / 2)]!;
      return {
        ...median,
        samples: samples.length,
        batchPerSecond: options.batch / batchSeconds,
      };
    } finally {
      await a.close();
      await b.close();
      await worker.close();
    }
  };
  try {
    const conversionMs = await oneConversionMs(office, options.filled);
    // The office warms up on the first run's batch; the second run is as warm. FIFO goes first,
    // so that the fair run is not the one flattered by a warmer office.
    const fifo = await run('bench-fifo', false);
    const fair = await run('bench-fair', true);
    return { fair, fifo, processes: options.processes, conversionMs };
  } finally {
    await office.close();
    await preparer.close();
    await redis.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The median time of one conversion on the warm pool with nothing else running, after a warm-up. */
async function oneConversionMs(office: OfficePool, docx: Buffer): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 60; i++) {
    const started = performance.now();
    await office.convert({ docx, field: 'documents[0]' });
    if (i >= 20) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}
