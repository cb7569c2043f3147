import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { DocpipeConfig } from '../config/index.js';
import { DocpipeMetrics } from '../../base/metrics/index.js';
import { FolderLibrary, type DocumentLibrary } from '../../document/library/index.js';
import { queueNames, type DocpipeClient } from '../../jobs/queue/index.js';
import { connectProducer, createRedis } from '../../platform/redis/index.js';
import type { OfficePoolStats } from '../../render/convert/index.js';
import type { Preparer } from '../../render/prepare/index.js';
import type { Storage } from '../../render/storage/index.js';
import type { Database } from '../../service/db/index.js';
import {
  KeyStore,
  sharedSigningSecret,
  type ExpiringKeyVerifier,
} from '../../service/keys/index.js';
import { connectClient, createPreparer, openStorage } from '../parts/index.js';
import { EVENTS_QUEUE, EventQueue } from '../../service/delivery/index.js';
import { SEAL_QUEUE } from '../../service/sealing/index.js';
import { WEBHOOK_QUEUE } from '../../service/webhooks/index.js';
import type { ServiceDatabase } from './database.js';

export interface HttpDependenciesOptions {
  redisUrl: string;
  /**
   * The service's database, migrated (openServiceDatabase): API keys are checked there, so the
   * HTTP service does not run without one. Its owner closes it.
   */
  database: Pick<ServiceDatabase, 'db' | 'url'>;
  /** The prepare threads of a `docpipe start` (shared with its worker); else one of its own. */
  preparer?: Pick<Preparer, 'sniff' | 'fields'>;
  /** The office pool of a `docpipe start`, for `/readyz` and the restarts metric. */
  office?: { stats(): OfficePoolStats };
  /** Where the worker of a `docpipe start` reports its jobs, to count them. */
  metrics?: DocpipeMetrics;
}

/** What the HTTP service works with, opened and connected; `close` closes what was opened here. */
export interface HttpDependencies {
  /** The Redis every docpipe process shares: the queue, rate limits, the signing secret. */
  redis: Redis;
  redisUrl: string;
  /** The service's database (the options'; not closed here). */
  db: Kysely<Database>;
  /** The API keys, in the database. */
  keys: ExpiringKeyVerifier;
  /** The queue's producer. */
  client: DocpipeClient;
  storage: Storage;
  library: DocumentLibrary;
  preparer: Pick<Preparer, 'sniff' | 'fields'>;
  metrics: DocpipeMetrics;
  /** The installation's queues (documents, document sets, seal, events, webhooks), for the dashboard and metrics. */
  queues: readonly Queue[];
  office?: { stats(): OfficePoolStats };
  /** The HMAC secret of signed URLs: DOCPIPE_SIGNING_SECRET, else the one shared in Redis. */
  signingSecret: string;
  /** The events queue: a created case's event is handed to delivery, and its first attempt awaited. */
  events: EventQueue;
  /** Closes what was opened here, in reverse order; what the options gave stays open. */
  close(): Promise<void>;
}

/**
 * The HTTP service's parts, as `docpipe serve` and `docpipe start` wire them: the shared Redis,
 * the queue's producer and queues, the database and its key store, the storage, the library, the
 * prepare threads and the metrics. The HTTP surface takes them ready-made and builds none of its own.
 */
export async function openHttpDependencies(
  config: DocpipeConfig,
  options: HttpDependenciesOptions,
): Promise<HttpDependencies> {
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const closer of closers.splice(0).reverse()) await closer().catch(() => undefined);
  };
  try {
    const redis = await connectProducer(options.redisUrl);
    closers.push(() => Promise.resolve(redis.disconnect()));
    let preparer = options.preparer;
    if (!preparer) {
      // Uploads are sniffed and library fields read here: one thread is plenty beside HTTP.
      const own = createPreparer(config, 1);
      closers.push(() => own.close());
      preparer = own;
    }
    const client = await connectClient(config, options.redisUrl);
    closers.push(() => client.close());
    const names = queueNames(config.queue.prefix);
    // BullMQ leaves a connection it is given open when it closes: this one is closed here, after
    // the queues (the closers run in reverse), or it would retry a stopped Redis for ever.
    const queueConnection = createRedis(options.redisUrl, 'worker');
    closers.push(() => Promise.resolve(queueConnection.disconnect()));
    // The pipeline's queues, and the service's: sealing, events and webhook retries.
    const queues = [
      names.documents,
      names.documentSets,
      SEAL_QUEUE,
      EVENTS_QUEUE,
      WEBHOOK_QUEUE,
    ].map((name) => new Queue(name, { connection: queueConnection, prefix: names.prefix }));
    for (const queue of queues) {
      // A queue's failures reach its callers (an add rejects). Its 'error' event, with no
      // listener, would throw inside BullMQ's own promise: a start that fails at once (its port
      // taken) and disconnects while the queue still checks the Redis version ended the process
      // with "Connection is closed." instead of its reason.
      queue.on('error', () => undefined);
      closers.push(() => queue.close());
    }
    // Ready before anything can close them: no check of theirs is left in flight.
    await Promise.all(queues.map((queue) => queue.waitUntilReady()));
    const events = new EventQueue(queueConnection, names.prefix, options.redisUrl);
    closers.push(() => events.close());
    const storage = await openStorage(config);
    const office = options.office;
    const metrics =
      options.metrics ??
      new DocpipeMetrics({
        queues,
        officeRestarts: office && (() => office.stats().restartsByCause),
      });
    return {
      redis,
      redisUrl: options.redisUrl,
      db: options.database.db,
      keys: new KeyStore({
        db: options.database.db,
        databaseUrl: options.database.url,
        environment: config.environment,
      }),
      client,
      storage,
      library: new FolderLibrary(config.templatesDir),
      preparer,
      metrics,
      queues,
      office,
      signingSecret: config.signingSecret ?? (await sharedSigningSecret(redis, names.prefix)),
      events,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
