import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { prepareThreadsBeside, loadConfig, workerConcurrency } from '../src/app/config/index.js';
import { DEFAULT_OFFICE_POOL_OPTIONS, OfficePool } from '../src/render/convert/index.js';
import { PreparePool } from '../src/render/prepare/index.js';
import { buildHttpServer } from '../src/surfaces/http/server.js';
import { KeyStore } from '../src/service/keys/index.js';
import { FolderLibrary } from '../src/document/library/index.js';
import { DocpipeMetrics } from '../src/base/metrics/index.js';
import { Renderer } from '../src/render/pipeline/index.js';
import { DocpipeClient, DocpipeWorker } from '../src/jobs/queue/index.js';
import { createRedis, EmbeddedRedis } from '../src/platform/redis/index.js';
import { EmbeddedPostgres, openDatabase } from '../src/platform/postgres/index.js';
import { migrateDatabase, type Database } from '../src/service/db/index.js';
import { LocalStorage } from '../src/render/storage/index.js';
import { HttpLoad } from './http-load.js';

export interface HttpThroughput {
  /** Documents a second through the queue's own client, median of the rounds. */
  queue: number;
  /** Documents a second through `POST /api/v2/document/convert`, median of the rounds. */
  http: number;
  /**
   * CPU of docpipe's Node process per document (ms), through the queue and through HTTP: the
   * HTTP caller runs in a process of its own and is not counted; the queue's producer client
   * is, on both paths (the HTTP server is the producer there).
   */
  queueCpuMs: number;
  httpCpuMs: number;
  /** CPU of the HTTP caller (the load generator) per request (ms), beside docpipe's. */
  httpClientCpuMs: number;
  failed: number;
}

type Tag = { tag: string; value: unknown; type?: string; format?: string };

/**
 * W1 through HTTP against W1 through the queue, on one stack (embedded Redis, one worker, the
 * office pool, local storage) in one process, alternating rounds: the difference is what the HTTP
 * service costs (JSON and base64 in, auth, rate limit, signed URLs out), in throughput and in CPU
 * per request. HTTP keeps as many requests in flight (keep-alive) as the worker runs jobs, from a
 * load generator in a child process (http-load.ts), whose CPU is reported on its own.
 */
export async function httpThroughput(
  w1: Buffer,
  w1Tags: Tag[],
  options: { jobs: number; processes: number; rounds: number; warmup: number; root: string },
): Promise<HttpThroughput> {
  const work = mkdtempSync(join(tmpdir(), 'docpipe-bench-http-'));
  const redis = await EmbeddedRedis.start({ dir: join(work, 'redis') });
  // The keys' database, as docpipe start runs it: auth asks it through the verified-key cache.
  const postgres = await EmbeddedPostgres.start({ dir: join(work, 'postgres') });
  const db = openDatabase<Database>(postgres.url);
  await migrateDatabase(db);
  await db.insertInto('companies').values({ id: 'bench', name: 'Bench' }).execute();
  await db
    .insertInto('users')
    .values({ company_id: 'bench', email: 'bench@bench.example', name: 'Bench' })
    .execute();
  const storage = new LocalStorage(join(work, 'storage'));
  const preparer = new PreparePool({ threads: prepareThreadsBeside(options.processes) });
  const office = await OfficePool.start({ processes: options.processes });
  const concurrency = workerConcurrency(options.processes, DEFAULT_OFFICE_POOL_OPTIONS.queueDepth);
  const library = new FolderLibrary(join(options.root, 'templates'));
  const worker = await DocpipeWorker.start({
    redisUrl: redis.url,
    concurrency,
    renderer: new Renderer({ preparer, converter: office, storage }),
    storage,
    library,
  });
  const client = await DocpipeClient.connect({ redisUrl: redis.url, storage });
  const connection = createRedis(redis.url, 'producer');
  await connection.connect();
  const queues = ['documents', 'document-sets'].map(
    (name) => new Queue(name, { connection, prefix: 'docpipe' }),
  );
  const config = loadConfig({
    DOCPIPE_SIGNING_SECRET: 'a-benchmark-signing-secret-32chars',
    DOCPIPE_RATE_LIMIT_V2: '0',
    DOCPIPE_TEMPLATES_DIR: join(options.root, 'templates'),
  });
  const keys = new KeyStore({ db, databaseUrl: postgres.url });
  const app = await buildHttpServer({
    config,
    publicUrl: 'http://127.0.0.1',
    redis: connection,
    redisUrl: redis.url,
    db,
    keys,
    client,
    storage,
    library,
    preparer,
    metrics: new DocpipeMetrics({ queues, processMetrics: false }),
    checks: {},
    queues,
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const key = (await keys.create({ company: 'bench', user: 'bench@bench.example' })).key;
  const base64 = w1.toString('base64');
  const tagsFor = (name: string, i: number) => [
    ...w1Tags.filter((t) => t.tag !== 'contract_no'),
    { tag: 'contract_no', value: `${name}-${i}`, type: 'text' },
  ];
  const viaQueue = async (name: string, n: number) => {
    const outcomes = await client.renderEach(
      Array.from({ length: n }, (_, i) => ({
        document: { name, content: w1, tags: tagsFor(name, i) as never },
      })),
    );
    return outcomes.filter((o) => !o.ok).length;
  };
  // The caller runs in a child process (see http-load.ts): docpipe's CPU figure is docpipe's.
  const load = HttpLoad.start({ address, key, base64, tags: w1Tags, concurrency });
  const clientCpu: number[] = [];
  const viaHttp = async (name: string, n: number) => {
    const result = await load.run(name, n);
    clientCpu.push(result.cpuMs);
    return result.failed;
  };
  const timed = async (run: (name: string, n: number) => Promise<number>, name: string) => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const failed = await run(name, options.jobs);
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    return {
      perSecond: (options.jobs - failed) / seconds,
      cpuMs: (used.user + used.system) / 1000 / options.jobs,
      failed,
    };
  };
  try {
    // Both paths warm up: the worker's code, and the HTTP server's routes and serializers.
    await viaQueue('warm-q', options.warmup);
    await viaHttp('warm-h', Math.min(options.warmup, 100));
    const queue: Awaited<ReturnType<typeof timed>>[] = [];
    const http: Awaited<ReturnType<typeof timed>>[] = [];
    for (let r = 0; r < options.rounds; r++) {
      // The order turns each round, so that neither always runs after the other.
      const pair = [
        async () => void queue.push(await timed(viaQueue, `q${r}`)),
        async () => void http.push(await timed(viaHttp, `h${r}`)),
      ];
      for (let i = 0; i < 2; i++) await pair[(i + r) % 2]!();
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    return {
      queue: median(queue.map((x) => x.perSecond)),
      http: median(http.map((x) => x.perSecond)),
      queueCpuMs: median(queue.map((x) => x.cpuMs)),
      httpCpuMs: median(http.map((x) => x.cpuMs)),
      // The warm-up's rounds are not counted.
      httpClientCpuMs: median(clientCpu.slice(1)),
      failed: [...queue, ...http].reduce((n, x) => n + x.failed, 0),
    };
  } finally {
    await load.close();
    await app.close();
    await client.close();
    await worker.close();
    for (const q of queues) await q.close();
    connection.disconnect();
    await office.close();
    await preparer.close();
    await redis.stop();
    await db.destroy();
    await postgres.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
