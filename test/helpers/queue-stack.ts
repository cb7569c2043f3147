import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OfficePool } from '../../src/convert/index.js';
import { FolderLibrary } from '../../src/library/index.js';
import { Renderer } from '../../src/pipeline/index.js';
import { EnginePool } from '../../src/engine/index.js';
import { projectRoot } from '../../src/paths/index.js';
import {
  DocpipeClient,
  DocpipeWorker,
  EmbeddedRedis,
  type DocpipeClientOptions,
} from '../../src/queue/index.js';
import { LocalStorage } from '../../src/storage/index.js';

/** A private redis-server, a warm office pool, a worker and a client: the real parts, in one test. */
export interface QueueStack {
  dir: string;
  redis: EmbeddedRedis;
  storage: LocalStorage;
  office: OfficePool;
  engine: EnginePool;
  worker: DocpipeWorker;
  client: DocpipeClient;
  prefix: string;
  close(): Promise<void>;
}

export async function startQueueStack(
  options: {
    officeQueueTimeoutMs?: number;
    concurrency?: number;
    client?: Partial<DocpipeClientOptions>;
  } = {},
): Promise<QueueStack> {
  const dir = mkdtempSync(join(tmpdir(), 'docpipe-queue-'));
  const redis = await EmbeddedRedis.start({ dir: join(dir, 'redis') });
  const storage = new LocalStorage(join(dir, 'storage'));
  const engine = new EnginePool({ threads: 2 });
  const office = await OfficePool.start({
    processes: 2,
    queueTimeoutMs: options.officeQueueTimeoutMs,
  });
  // Each test gets its own queues, as BullMQ's own tests do.
  const prefix = `test-${Math.random().toString(36).slice(2, 10)}`;
  const renderer = new Renderer({ engine, converter: office, storage });
  const worker = await DocpipeWorker.start({
    redisUrl: redis.url,
    prefix,
    concurrency: options.concurrency ?? 4,
    renderer,
    storage,
    library: new FolderLibrary(join(projectRoot(), 'templates')),
  });
  const client = await DocpipeClient.connect({
    redisUrl: redis.url,
    prefix,
    storage,
    backoffMs: 200,
    ...options.client,
  });
  return {
    dir,
    redis,
    storage,
    office,
    engine,
    worker,
    client,
    prefix,
    async close() {
      await client.close();
      await worker.close(5000);
      await office.close();
      await engine.close();
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
