import type { Logger as PinoLogger } from 'pino';
import { ConfigError, publicUrlOf, type DocpipeConfig } from '../../app/config/index.js';
import { openHttpDependencies, type HttpDependenciesOptions } from '../../app/wiring/index.js';
import type { DocpipeMetrics } from '../../base/metrics/index.js';
import { freePort } from '../../platform/embedded/index.js';
import type { OfficePoolStats } from '../../render/convert/index.js';
import type { HttpApp } from './common/create-app.js';
import type { HttpServerDeps } from './common/server-deps.js';
import {
  databaseReady,
  officePoolReady,
  redisReady,
  storageWritable,
  type ReadinessCheck,
} from './operations/index.js';
import { buildHttpServer } from './server.js';
import { stoppingOf } from './common/stopping.js';

export interface HttpServiceOptions extends HttpDependenciesOptions {
  logger: PinoLogger;
}

/**
 * What a listening service takes ready-made: src/app/wiring's `openHttpDependencies` gives it
 * (and closes it); the service adds its address, its readiness checks and its logger.
 */
export type HttpServiceDeps = Omit<
  HttpServerDeps,
  'config' | 'publicUrl' | 'checks' | 'logger' | 'signingSecret'
> & {
  signingSecret: string;
  /** The office pool of a `docpipe start`, which `/readyz` checks too. */
  office?: { stats(): OfficePoolStats };
};

export interface HttpService {
  app: HttpApp;
  /** Where it listens, as `http://host:port`. */
  address: string;
  /** The base of the URLs it issues (signing links): DOCPIPE_PUBLIC_URL, else its address. */
  publicUrl: string;
  metrics: DocpipeMetrics;
  /**
   * Stops: new requests are answered 503 (`stopping`) at once, requests in flight finish until
   * `cut` resolves (the grace period's end, a second Ctrl-C) and are then answered 503 too; then
   * the server closes, and what it opened after it. Without `cut`, requests in flight finish.
   */
  close(cut?: Promise<unknown>): Promise<void>;
}

/**
 * The HTTP service on the configured host and port: `docpipe serve` alone (its conversions run on
 * workers elsewhere, through the shared Redis), or beside the worker in `docpipe start`. Its
 * parts are wired by src/app/wiring; closing the service closes them after the server.
 */
export async function startHttpService(
  config: DocpipeConfig,
  options: HttpServiceOptions,
): Promise<HttpService> {
  const deps = await openHttpDependencies(config, options);
  try {
    const { app, address, publicUrl } = await listenHttp(config, deps, options.logger);
    const close = async (cut?: Promise<unknown>) => {
      const stopping = stoppingOf(app);
      stopping?.begin();
      if (stopping) {
        const ended = await Promise.race([
          stopping.settled.then(() => 'settled' as const),
          (cut ?? new Promise<never>(() => undefined)).then(() => 'cut' as const),
        ]);
        if (ended === 'cut') await stopping.cut();
      }
      await app.close().catch(() => undefined);
      await deps.close();
    };
    return { app, address, publicUrl, metrics: deps.metrics, close };
  } catch (err) {
    await deps.close();
    throw err;
  }
}

/**
 * The server on the configured host and port, over dependencies given ready-made. On failure
 * it closes the server it built, and leaves the dependencies to their owner.
 */
export async function listenHttp(
  config: DocpipeConfig,
  deps: HttpServiceDeps,
  logger?: PinoLogger,
): Promise<{ app: HttpApp; address: string; publicUrl: string }> {
  const office = deps.office;
  const checks: Record<string, ReadinessCheck> = {
    redis: redisReady(deps.redis),
    database: databaseReady(deps.db),
    storage: storageWritable(deps.storage),
    ...(office ? { office: officePoolReady(() => office.stats()) } : {}),
  };
  // A free port is taken before the routes are built: the URLs they issue name it.
  const port = config.http.port === 0 ? await freePort() : config.http.port;
  const publicUrl = publicUrlOf(config.http, port);
  const app = await buildHttpServer({
    ...deps,
    config,
    publicUrl,
    checks,
    logger,
  });
  // While stopping, /readyz fails on a check of its own, so that a load balancer sends no more.
  void stoppingOf(app)?.begun.then(() => {
    checks.stopping = () => {
      throw new Error('docpipe is stopping: it takes no new requests');
    };
  });
  const address = await app
    .listen({ host: config.http.host, port })
    .catch(async (err: NodeJS.ErrnoException) => {
      await app.close().catch(() => undefined);
      if (err.code !== 'EADDRINUSE' && err.code !== 'EADDRNOTAVAIL' && err.code !== 'EACCES')
        throw err;
      const where = `${config.http.host}:${port}`;
      throw new ConfigError([
        err.code === 'EADDRINUSE'
          ? `DOCPIPE_HTTP_PORT: ${where} is taken by another program; choose another port (0 takes a free one)`
          : `DOCPIPE_HTTP_HOST/DOCPIPE_HTTP_PORT: cannot listen on ${where} (${err.code}); choose an address of this machine and a port above 1023`,
      ]);
    });
  return { app, address, publicUrl };
}
