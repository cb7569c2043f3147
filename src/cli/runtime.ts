import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { engineThreadsBeside, workerConcurrency, type DocpipeConfig } from '../config/index.js';
import { DEFAULT_OFFICE_POOL_OPTIONS, createConverter, type Converter } from '../convert/index.js';
import { FolderLibrary } from '../library/index.js';
import type { Logger } from '../log/index.js';
import { Renderer } from '../pipeline/index.js';
import { EnginePool } from '../engine/index.js';
import { DocpipeClient, DocpipeWorker, EmbeddedRedis } from '../queue/index.js';
import { LocalStorage } from '../storage/index.js';

/** Where `docpipe start` writes the URL of its embedded Redis, for commands in other terminals. */
export const redisUrlFile = (config: DocpipeConfig) => join(config.dataDir, 'redis.url');

/** The Redis to use: REDIS_URL, or the one a running `docpipe start` wrote down. */
export async function resolveRedisUrl(config: DocpipeConfig): Promise<string | undefined> {
  if (config.redisUrl) return config.redisUrl;
  return (await readFile(redisUrlFile(config), 'utf8').catch(() => '')).trim() || undefined;
}

export interface Runtime {
  redisUrl: string;
  embedded?: EmbeddedRedis;
  worker: DocpipeWorker;
  /**
   * Stops taking jobs, lets active ones finish within `graceMs` (or until `now` resolves), then
   * closes the office pool and the engine, and stops the embedded Redis last.
   */
  close(graceMs?: number, now?: Promise<unknown>): Promise<void>;
}

/**
 * The main job: the engine threads, the warm office pool, storage, the library and a worker, on
 * REDIS_URL or on an embedded redis-server under DOCPIPE_DATA_DIR/redis.
 */
export async function startRuntime(config: DocpipeConfig, logger: Logger): Promise<Runtime> {
  let embedded: EmbeddedRedis | undefined;
  let redisUrl = config.redisUrl;
  if (!redisUrl) {
    embedded = await EmbeddedRedis.start({ dir: join(config.dataDir, 'redis') });
    redisUrl = embedded.url;
    logger.info(
      { redisUrl, dir: embedded.dir, redisPid: embedded.pid },
      'embedded Redis started (no REDIS_URL)',
    );
    if (embedded.movedFrom !== undefined)
      logger.warn(
        { redisUrl, port: embedded.port, lastPort: embedded.movedFrom },
        `the embedded Redis's last port ${embedded.movedFrom} is taken by another program; it moved to ${embedded.port}, and clients still waiting find it through ${redisUrlFile(config)}`,
      );
  }
  const processes = config.office.processes ?? availableParallelism();
  const engine = new EnginePool({
    threads: config.engineThreads ?? engineThreadsBeside(processes),
    limits: config.limits,
    values: config.values,
  });
  let converter: Converter | undefined;
  try {
    converter = await createConverter(config.converter, config.office, logger);
    const storage = new LocalStorage(join(config.dataDir, 'storage'));
    const renderer = new Renderer({ engine, converter, storage, logger });
    const worker = await DocpipeWorker.start({
      redisUrl,
      prefix: config.queue.prefix,
      concurrency:
        config.queue.concurrency ??
        workerConcurrency(
          processes,
          config.office.queueDepth ?? DEFAULT_OFFICE_POOL_OPTIONS.queueDepth,
        ),
      lockDurationMs: config.queue.lockDurationMs,
      stalledIntervalMs: config.queue.stalledIntervalMs,
      renderer,
      storage,
      library: new FolderLibrary(config.templatesDir),
      contract: { maxInlineBytes: config.queue.maxInlineBytes, values: config.values },
      logger,
    });
    // Written once a worker takes jobs: other commands find Redis through it, and a client that
    // finds it can expect its jobs to be done.
    if (embedded) await writeUrlFile(config, redisUrl);
    const started = converter;
    return {
      redisUrl,
      embedded,
      worker,
      async close(graceMs = 30_000, now?: Promise<unknown>) {
        await worker.close(graceMs, now);
        await started.close();
        await engine.close();
        if (embedded) {
          await rm(redisUrlFile(config), { force: true });
          await embedded.stop();
        }
      },
    };
  } catch (err) {
    await converter?.close();
    await engine.close();
    await embedded?.stop();
    throw err;
  }
}

/** Replaces the URL file whole, so that a client reading it never sees half of it. */
async function writeUrlFile(config: DocpipeConfig, redisUrl: string): Promise<void> {
  const file = redisUrlFile(config);
  await writeFile(`${file}.${process.pid}`, `${redisUrl}\n`);
  await rename(`${file}.${process.pid}`, file);
}

/**
 * A producer client for CLI commands, on the configured or discovered Redis. It gives up when
 * Redis or every worker is gone for longer than configured, and follows a restarted
 * `docpipe start` to a new port through the URL file.
 */
export async function connectClient(
  config: DocpipeConfig,
  redisUrl: string,
): Promise<DocpipeClient> {
  return DocpipeClient.connect({
    redisUrl,
    unreachableMs: config.queue.clientUnreachableMs,
    noWorkerMs: config.queue.clientNoWorkerMs,
    rediscover: () => resolveRedisUrl(config),
    prefix: config.queue.prefix,
    storage: new LocalStorage(join(config.dataDir, 'storage')),
    contract: { maxInlineBytes: config.queue.maxInlineBytes, values: config.values },
    attempts: config.queue.attempts,
    keepCompleted: { age: config.queue.keepCompletedSeconds, count: 1000 },
    keepFailed: { age: config.queue.keepFailedSeconds, count: 5000 },
  });
}
