import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { onTestFinished } from 'vitest';
import { OfficePool } from '../../src/render/convert/index.js';
import { PreparePool } from '../../src/render/prepare/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { Renderer } from '../../src/render/pipeline/index.js';
import {
  DocpipeClient,
  DocpipeWorker,
  type DocpipeClientOptions,
} from '../../src/jobs/queue/index.js';
import { EmbeddedRedis, createRedis } from '../../src/platform/redis/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';

/**
 * A prefix of one test's own, on a shared Redis: as BullMQ's own tests do (a queue name per
 * test), so that no test sees another's jobs. Removed with its keys when the test finishes.
 */
export interface Lane {
  prefix: string;
  /** A connection of the test's own, for BullMQ objects it builds to look at the queue. */
  connection: Redis;
}

/** A private redis-server and nothing else, handing each test a lane of its own. */
export interface RedisOnly {
  url: string;
  redis: EmbeddedRedis;
  dir: string;
  /** Called inside a test: a fresh prefix and connection, cleaned up when the test finishes. */
  lane(): Promise<Lane>;
  close(): Promise<void>;
}

/** A lane with a docpipe worker and client on it, and the documents queue to look at. */
export interface QueueLane extends Lane {
  worker: DocpipeWorker;
  client: DocpipeClient;
  /** The lane's documents queue, for what a test asserts on jobs (counts, attempts). */
  documents: Queue;
}

/** A private redis-server, a warm office pool and prepare threads: the real parts, shared by a file. */
export interface QueueStack extends RedisOnly {
  storage: LocalStorage;
  office: OfficePool;
  preparer: PreparePool;
  /** Called inside a test: its own worker and client on its own prefix, closed when it ends. */
  lane(options?: LaneOptions): Promise<QueueLane>;
}

export interface LaneOptions {
  concurrency?: number;
  client?: Partial<DocpipeClientOptions>;
}

export async function startRedisOnly(): Promise<RedisOnly> {
  const dir = mkdtempSync(join(tmpdir(), 'docpipe-queue-'));
  const redis = await EmbeddedRedis.start({ dir: join(dir, 'redis') });
  return {
    url: redis.url,
    redis,
    dir,
    lane: () => Promise.resolve(openLane(redis.url)),
    async close() {
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function openLane(url: string): Lane {
  const prefix = `test-${randomUUID()}`;
  const connection = createRedis(url, 'worker');
  // Registered first, so that it runs last (vitest runs these in reverse): after the test's
  // own worker and client have closed.
  onTestFinished(async () => {
    try {
      await removeKeys(connection, prefix);
    } finally {
      connection.disconnect();
    }
  });
  return { prefix, connection };
}

/** Every key under `prefix`, as obliterating each of its queues would leave nothing. */
async function removeKeys(connection: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await connection.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    if (keys.length > 0) await connection.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

export async function startQueueStack(
  options: { officeQueueTimeoutMs?: number; conversionTimeoutMs?: number } = {},
): Promise<QueueStack> {
  const base = await startRedisOnly();
  const storage = new LocalStorage(join(base.dir, 'storage'));
  const preparer = new PreparePool({ threads: 2 });
  const office = await OfficePool.start({
    processes: 2,
    queueTimeoutMs: options.officeQueueTimeoutMs,
    conversionTimeoutMs: options.conversionTimeoutMs,
  }).catch(async (err: unknown) => {
    await preparer.close();
    await base.close();
    throw err;
  });
  const renderer = new Renderer({ preparer, converter: office, storage });
  const library = new FolderLibrary(join(projectRoot(), 'templates'));
  return {
    ...base,
    storage,
    office,
    preparer,
    async lane(laneOptions: LaneOptions = {}): Promise<QueueLane> {
      const lane = openLane(base.url);
      const worker = await DocpipeWorker.start({
        redisUrl: base.url,
        prefix: lane.prefix,
        concurrency: laneOptions.concurrency ?? 4,
        renderer,
        storage,
        library,
      });
      onTestFinished(() => worker.close(5000));
      const client = await DocpipeClient.connect({
        redisUrl: base.url,
        prefix: lane.prefix,
        storage,
        backoffMs: 200,
        ...laneOptions.client,
      });
      onTestFinished(() => client.close());
      const documents = new Queue('documents', {
        connection: lane.connection,
        prefix: lane.prefix,
      });
      onTestFinished(() => documents.close());
      return { ...lane, worker, client, documents };
    },
    async close() {
      await office.close();
      await preparer.close();
      await base.close();
    },
  };
}
