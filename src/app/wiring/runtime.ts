import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import {
  loadSealingConfig,
  prepareThreadsBeside,
  publicUrlOf,
  SEAL_P12_PASSWORD_VARIABLE,
  SEAL_P12_VARIABLE,
  SELF_SIGNED_P12_FILE,
  TSA_URL_VARIABLE,
  workerConcurrency,
  type DocpipeConfig,
} from '../config/index.js';
import { projectRoot } from '../../base/paths/index.js';
import { safeUrl } from '../../base/util/index.js';
import type { Storage } from '../../render/storage/index.js';
import { SealWorker, type SealDeps } from '../../service/sealing/index.js';
import type { Sealer } from '../../formats/pades/index.js';
import {
  DEFAULT_OFFICE_POOL_OPTIONS,
  createConverter,
  type Converter,
} from '../../render/convert/index.js';
import { FolderLibrary } from '../../document/library/index.js';
import type { Logger } from '../../base/log/index.js';
import { Renderer } from '../../render/pipeline/index.js';
import {
  DEFAULT_CLOSE_GRACE_MS,
  DocpipeWorker,
  type DocpipeWorkerOptions,
} from '../../jobs/queue/index.js';
import { EmbeddedRedis, redisUrlFile } from '../../platform/redis/index.js';
import type { PreparePool } from '../../render/prepare/index.js';
import { RetentionSweeper } from '../../jobs/retention/index.js';
import { connectClient, createPreparer, openStorage } from '../parts/index.js';
import { testDataSweep } from './test-data-sweep.js';
import { startDelivery, type RunningDelivery } from './delivery.js';
import { flowCaseHook } from './flow-cases.js';
import { connectProducer } from '../../platform/redis/index.js';
import { signUrl } from '../../render/storage/index.js';
import { sharedSigningSecret } from '../../service/keys/index.js';
import { openServiceDatabase, type ServiceDatabase } from './database.js';

export interface Runtime {
  redisUrl: string;
  embedded?: EmbeddedRedis;
  /**
   * The service's database, migrated: DATABASE_URL, the embedded PostgreSQL (`docpipe start`
   * without DATABASE_URL), or a running `docpipe start`'s; undefined when there is none.
   */
  database?: ServiceDatabase;
  worker: DocpipeWorker;
  /** The prepare threads, which an HTTP service beside the worker shares. */
  preparer: PreparePool;
  converter: Converter;
  /**
   * Tells delivery the HTTP service's public URL once it listens (`docpipe start` on a free port):
   * the links in invitations and reminders name it. Without a call: DOCPIPE_PUBLIC_URL, else the
   * configured host and port.
   */
  servesAt(publicUrl: string): void;
  /**
   * Stops taking jobs, lets active ones finish within `graceMs` (or until `now` resolves), then
   * closes the office pool and the prepare threads, and stops the embedded Redis, and the
   * embedded PostgreSQL last.
   */
  close(graceMs?: number, now?: Promise<unknown>): Promise<void>;
}

/**
 * The main job: the prepare threads, the warm office pool, storage, the library and a worker, on
 * REDIS_URL or on an embedded redis-server under DOCPIPE_DATA_DIR/redis.
 */
export async function startRuntime(
  config: DocpipeConfig,
  logger: Logger,
  options: Pick<DocpipeWorkerOptions, 'onDocumentJob'> & {
    /** Run an embedded PostgreSQL without DATABASE_URL (`docpipe start`). @defaultValue false */
    embedDatabase?: boolean;
  } = {},
): Promise<Runtime> {
  // Checked first: a missing bucket is named before Redis and the office pool are started.
  const storage = await openStorage(config);
  let embedded: EmbeddedRedis | undefined;
  let redisUrl = config.redisUrl;
  if (!redisUrl) {
    embedded = await EmbeddedRedis.start({ dir: join(config.dataDir, 'redis') });
    redisUrl = embedded.url;
    logger.info(
      { redisUrl: safeUrl(redisUrl), dir: embedded.dir, redisPid: embedded.pid },
      'embedded Redis started (no REDIS_URL)',
    );
    if (embedded.movedFrom !== undefined)
      logger.warn(
        { redisUrl: safeUrl(redisUrl), port: embedded.port, lastPort: embedded.movedFrom },
        `the embedded Redis's last port ${embedded.movedFrom} is taken by another program; it moved to ${embedded.port}, and clients still waiting find it through ${redisUrlFile(config.dataDir).path}`,
      );
  }
  let database: ServiceDatabase | undefined;
  try {
    database = await openServiceDatabase(config, logger, {
      embed: options.embedDatabase ?? false,
      redisUrl,
    });
  } catch (err) {
    await embedded?.stop();
    throw err;
  }
  const processes = config.office.processes ?? availableParallelism();
  const preparer = createPreparer(config, config.prepareThreads ?? prepareThreadsBeside(processes));
  let converter: Converter | undefined;
  let sealWorker: SealWorker | undefined;
  let delivery: RunningDelivery | undefined;
  let worker: DocpipeWorker | undefined;
  let sweeper: ReturnType<typeof RetentionSweeper.start> | undefined;
  const publicUrl = {
    current: config.http.publicUrl ?? publicUrlOf(config.http, config.http.port),
  };
  try {
    converter = await createConverter(config.converter, config.office, logger);
    const renderer = new Renderer({
      preparer,
      converter,
      storage,
      logger,
      fidelity: config.strictFidelity ? 'strict' : 'report',
    });
    worker = await DocpipeWorker.start({
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
      companyMaxActive: config.fairness.maxActive,
      logger,
      onDocumentJob: options.onDocumentJob,
    });
    // Written once a worker takes jobs: other commands find Redis through it, and a client that
    // finds it can expect its jobs to be done.
    if (embedded) await redisUrlFile(config.dataDir).write(redisUrl);
    await database?.publish();
    const started = converter;
    if (database) {
      sealWorker = await startSealing(config, logger, storage, database, redisUrl);
      delivery = await startWorkerDelivery(
        config,
        logger,
        storage,
        database,
        redisUrl,
        () => publicUrl.current,
      );
    }
    // Every worker sweeps on schedule; the sweep lock lets one at a time do it.
    const records = testDataSweep(config, database?.db, storage);
    sweeper = RetentionSweeper.start({
      storage,
      redisUrl,
      prefix: config.queue.prefix,
      retention: config.retention,
      logger,
      ...(records ? { records } : {}),
    });
    if (config.environment === 'test')
      logger.info(
        { environment: 'test', testDataRetentionMs: config.testDataRetentionMs },
        testEnvironmentLine(config.testDataRetentionMs, {
          database: database !== undefined,
          scheduled: sweeper !== undefined,
        }),
      );
    const running = worker;
    const sweeping = sweeper;
    return {
      redisUrl,
      embedded,
      database,
      worker: running,
      preparer,
      converter: started,
      servesAt(url: string) {
        publicUrl.current = url;
      },
      async close(graceMs = DEFAULT_CLOSE_GRACE_MS, now?: Promise<unknown>) {
        await closeEvery([
          () => sweeping?.close(),
          () => delivery?.close(),
          () => sealWorker?.close(),
          () => running.close(graceMs, now),
          () => started.close(),
          () => preparer.close(),
          () => (embedded ? redisUrlFile(config.dataDir).remove() : undefined),
          () => embedded?.stop(),
          () => database?.close(),
        ]);
      },
    };
  } catch (err) {
    // The reason start failed is what is thrown; a part that fails to close is logged. Every
    // part started before the failure is closed, the queue worker first, so that no job is taken
    // by a process that is about to exit.
    await closeEvery([
      () => sweeper?.close(),
      () => worker?.close(),
      () => delivery?.close(),
      () => sealWorker?.close(),
      () => converter?.close(),
      () => preparer.close(),
      () => (embedded ? redisUrlFile(config.dataDir).remove() : undefined),
      () => embedded?.stop(),
      () => database?.close(),
    ]).catch((closeErr: unknown) =>
      logger.warn({ err: closeErr }, 'closing after the failed start failed too'),
    );
    throw err;
  }
}

/** What the start says of the test environment: its keys, and when its cases are deleted. */
function testEnvironmentLine(
  retentionMs: number | undefined,
  sweep: { database: boolean; scheduled: boolean },
): string {
  const keys = 'test environment (DOCPIPE_ENVIRONMENT=test): only dp_test_ API keys work';
  if (retentionMs === undefined) return `${keys}; cases are kept (DOCPIPE_TEST_DATA_RETENTION=off)`;
  const days = Math.round((retentionMs / 86_400_000) * 10) / 10;
  if (!sweep.database) return `${keys}; this worker has no database, so it deletes no old cases`;
  if (!sweep.scheduled)
    return `${keys}; cases older than ${days} days are not deleted while DOCPIPE_RETENTION_SWEEP_EVERY is off`;
  return `${keys}; the retention sweep deletes cases older than ${days} days`;
}

/** How long a signed copy's download link works (S3's longest pre-signed URL). */
const SIGNED_COPY_LINK_S = 7 * 24 * 3600;

/**
 * Delivery in a worker with a database: the outbox relay, events, webhooks, messages and the
 * schedule (app/wiring/delivery.ts), with the installation's signing secret (the links in
 * invitations) and public URL.
 */
async function startWorkerDelivery(
  config: DocpipeConfig,
  logger: Logger,
  storage: Storage,
  database: ServiceDatabase,
  redisUrl: string,
  publicUrl: () => string,
): Promise<RunningDelivery> {
  let signingSecret = config.signingSecret;
  if (!signingSecret) {
    const redis = await connectProducer(redisUrl);
    try {
      signingSecret = await sharedSigningSecret(redis, config.queue.prefix);
    } finally {
      redis.disconnect();
    }
  }
  const secret = signingSecret;
  // A completed web-flow's case is rendered through the queue, as every case is.
  const client = await connectClient(config, redisUrl);
  let delivery: RunningDelivery;
  try {
    const onFlowCompleted = await flowCaseHook({
      config,
      db: database.db,
      storage,
      client,
      signingSecret: secret,
      publicUrl,
      logger,
    });
    delivery = await startDelivery({
      db: database.db,
      databaseUrl: database.url,
      redisUrl,
      prefix: config.queue.prefix,
      storage,
      signingSecret: secret,
      publicUrl,
      documentUrl: (key, name) =>
        signUrl(publicUrl(), key, new Date(Date.now() + SIGNED_COPY_LINK_S * 1000), secret, name),
      messages: config.delivery,
      webhooks: config.webhooks,
      logger,
      onFlowCompleted,
    });
  } catch (err) {
    await client.close();
    throw err;
  }
  const started = delivery;
  return {
    worker: started.worker,
    async close() {
      await started.close();
      await client.close();
    },
  };
}

/** Whether sealing has its certificate already: configured, or made by an earlier start. */
function sealingReady(config: DocpipeConfig): boolean {
  return config.seal.p12 !== undefined || existsSync(join(config.dataDir, SELF_SIGNED_P12_FILE));
}

/**
 * The seal worker of a worker with a database: its certificate (DOCPIPE_SEAL_P12, else the
 * self-signed one kept in the data folder, made on first start) and timestamp authority.
 */
async function startSealing(
  config: DocpipeConfig,
  logger: Logger,
  storage: Storage,
  database: ServiceDatabase,
  redisUrl: string,
): Promise<SealWorker> {
  const { p12, password, tsaUrl } = config.seal;
  const load = () =>
    loadSealingConfig(
      {
        ...(p12 !== undefined ? { [SEAL_P12_VARIABLE]: p12 } : {}),
        ...(password !== undefined ? { [SEAL_P12_PASSWORD_VARIABLE]: password } : {}),
        ...(tsaUrl !== undefined ? { [TSA_URL_VARIABLE]: tsaUrl } : {}),
      },
      config.dataDir,
      { logger },
    );
  let sealer: SealDeps['sealer'];
  if (sealingReady(config)) {
    // A certificate to load is loaded now, so that a wrong one fails the start.
    sealer = (await load()).sealer;
  } else {
    // The first start of an installation without DOCPIPE_SEAL_P12: the self-signed certificate
    // is made at the first seal (an RSA key takes seconds, which neither a start nor a stop
    // should wait for), kept in the data folder, and its warning logged then.
    logger.warn(
      { path: join(config.dataDir, SELF_SIGNED_P12_FILE) },
      'no DOCPIPE_SEAL_P12: signed documents will be sealed with a self-signed certificate, made at the first seal and kept; PDF readers show such a seal as untrusted',
    );
    let made: Promise<Sealer> | undefined;
    sealer = () => {
      made ??= load().then((c) => c.sealer);
      // A failure is not kept: the job is retried, and so is the certificate.
      made.catch(() => (made = undefined));
      return made;
    };
  }
  return SealWorker.start({
    redisUrl,
    prefix: config.queue.prefix,
    deps: {
      db: database.db,
      storage,
      sealer,
      ...(tsaUrl ? { tsaUrl } : {}),
      version: packageVersion(),
      logger,
      timeZone: config.timeZone,
    },
  });
}

/** docpipe's version (package.json), for the evidence of what sealed a document. */
function packageVersion(): string {
  const { version } = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as {
    version: string;
  };
  return version;
}

/**
 * Closes every part in order, whatever another's close threw: an office process that fails to
 * end must not leave the embedded Redis and PostgreSQL running. The first failure is thrown once
 * all are closed.
 */
async function closeEvery(closes: (() => Promise<unknown> | undefined)[]): Promise<void> {
  const failures: unknown[] = [];
  for (const close of closes) {
    try {
      await close();
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length > 0) throw failures[0];
}
