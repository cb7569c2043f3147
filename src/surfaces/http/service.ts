import { Queue } from 'bullmq';
import type { Logger as PinoLogger } from 'pino';
import { connectClient, createPreparer, openStorage } from '../../app/wiring/index.js';
import { ConfigError, publicUrlOf, type DocpipeConfig } from '../../app/config/index.js';
import type { OfficePoolStats } from '../../render/convert/index.js';
import { KeyStore, sharedSigningSecret } from '../../service/keys/index.js';
import { FolderLibrary } from '../../document/library/index.js';
import { DocpipeMetrics } from '../../base/metrics/index.js';
import type { Preparer } from '../../render/prepare/index.js';
import { queueNames } from '../../jobs/queue/index.js';
import { connectProducer, createRedis } from '../../platform/redis/index.js';
import { freePort } from '../../platform/embedded/index.js';
import type { HttpApp } from './common/create-app.js';
import { officePoolReady, redisReady, storageWritable } from './operations/readiness-checks.js';
import { buildHttpServer } from './server.js';

export interface HttpServiceOptions {
  redisUrl: string;
  logger: PinoLogger;
  /** The prepare threads of a `docpipe start` (shared with its worker); else the service starts one. */
  preparer?: Pick<Preparer, 'sniff' | 'fields'>;
  /** The office pool of a `docpipe start`, for `/readyz` and the restarts metric. */
  office?: { stats(): OfficePoolStats };
  /** Where the worker of a `docpipe start` reports its jobs, to count them. */
  metrics?: DocpipeMetrics;
}

export interface HttpService {
  app: HttpApp;
  /** Where it listens, as `http://host:port`. */
  address: string;
  metrics: DocpipeMetrics;
  /** Stops taking connections, lets requests in flight finish, then closes what it opened. */
  close(): Promise<void>;
}

/**
 * The HTTP service on the configured host and port: `docpipe serve` alone (its conversions run on
 * workers elsewhere, through the shared Redis), or beside the worker in `docpipe start`.
 */
export async function startHttpService(
  config: DocpipeConfig,
  options: HttpServiceOptions,
): Promise<HttpService> {
  const closers: (() => Promise<unknown>)[] = [];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
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
    const queues = [names.documents, names.documentSets].map(
      (name) => new Queue(name, { connection: queueConnection, prefix: names.prefix }),
    );
    for (const queue of queues) closers.push(() => queue.close());
    const storage = await openStorage(config);
    const metrics =
      options.metrics ??
      new DocpipeMetrics({
        queues,
        officeRestarts: options.office && (() => options.office!.stats().restartsByCause),
      });
    const checks = {
      redis: redisReady(redis),
      storage: storageWritable(storage),
      ...(options.office ? { office: officePoolReady(() => options.office!.stats()) } : {}),
    };
    // A free port is taken before the routes are built: the URLs they issue name it.
    const port = config.http.port === 0 ? await freePort() : config.http.port;
    const app = await buildHttpServer({
      config,
      publicUrl: publicUrlOf(config.http, port),
      redis,
      redisUrl: options.redisUrl,
      keys: new KeyStore({ redis, prefix: config.queue.prefix, redisUrl: options.redisUrl }),
      client,
      storage,
      library: new FolderLibrary(config.templatesDir),
      preparer,
      metrics,
      checks,
      queues,
      logger: options.logger,
      signingSecret: config.signingSecret ?? (await sharedSigningSecret(redis, names.prefix)),
    });
    closers.push(() => app.close());
    const address = await app
      .listen({ host: config.http.host, port })
      .catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EADDRINUSE' && err.code !== 'EADDRNOTAVAIL' && err.code !== 'EACCES')
          throw err;
        const where = `${config.http.host}:${port}`;
        throw new ConfigError([
          err.code === 'EADDRINUSE'
            ? `DOCPIPE_HTTP_PORT: ${where} is taken by another program; choose another port (0 takes a free one)`
            : `DOCPIPE_HTTP_HOST/DOCPIPE_HTTP_PORT: cannot listen on ${where} (${err.code}); choose an address of this machine and a port above 1023`,
        ]);
      });
    return { app, address, metrics, close: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
