import { ensureCprKeyFile, loadConfig, type DocpipeConfig } from '../../../app/config/index.js';
import { OfficePool } from '../../../render/convert/index.js';
import { startHttpService, type HttpService } from '../../http/index.js';
import { createLogger, type Logger } from '../../../base/log/index.js';
import type { Logger as PinoLogger } from 'pino';
import { acquireDataLock, makeDataFolderPrivate } from '../../../platform/embedded/index.js';
import { safeUrl } from '../../../base/util/index.js';
import { UsageError } from '../exit-codes.js';
import {
  openServiceDatabase,
  startRuntime,
  type Runtime,
  type ServiceDatabase,
} from '../../../app/wiring/index.js';
import type { WorkerStopReport } from '../../../jobs/queue/index.js';
import { requireRedisUrl } from '../../../platform/redis/index.js';
import { databaseUrlFile, NoDatabaseError, serverUser } from '../../../platform/postgres/index.js';
import { StopSignals } from '../stop-signals.js';

/**
 * After a stop, the process ends by itself once nothing holds it; this is how long that may
 * take before it is ended anyway, with a log line saying so (something was left open: a bug).
 */
const EXIT_AFTER_STOP_MS = 5000;

export interface StartFlags {
  grace: string;
  pretty?: boolean;
}

/** `docpipe start`: the data folder's lock, then the runtime and the HTTP service until a stop. */
export async function runStart(flags: StartFlags): Promise<void> {
  const config = loadConfig();
  const graceMs = parseGrace(flags.grace);
  const logger = createLogger(
    config.logLevel,
    'docpipe',
    flags.pretty ? 'pretty' : config.logFormat,
  );
  // Before anything else: a second start must not touch the first one's Redis.
  const lock = await acquireDataLock(config.dataDir);
  try {
    await closeDataFolder(config, logger);
    // One machine keeps its CPR key in the data folder (0600) when DOCPIPE_CPR_KEY is not set.
    const cprKey = config.cprKey ?? (await ensureCprKeyFile(config.dataDir));
    await runUntilStopped({ ...config, cprKey }, logger, graceMs, 'docpipe started', true, true);
  } finally {
    await lock.release();
  }
}

/**
 * Makes the data folder private before any server starts on it (an earlier docpipe left it
 * open), and says so when it changed anything. The embedded PostgreSQL's user keeps its way
 * through to its cluster when docpipe runs as root.
 */
async function closeDataFolder(config: DocpipeConfig, logger: Logger): Promise<void> {
  const user = config.databaseUrl ? undefined : await serverUser();
  const changed = await makeDataFolderPrivate(config.dataDir, {
    ...(user?.switched ? { searchGroup: user.gid } : {}),
  });
  if (changed > 0)
    logger.info(
      { dataDir: config.dataDir, changed },
      `the data folder was open to other users: ${changed} files and folders in it made private (0700 and 0600)`,
    );
}

/** `docpipe worker`: a worker on a shared Redis until a stop. */
export async function runWorker(flags: StartFlags): Promise<void> {
  const { config, redisUrl, logger, graceMs } = await onSharedRedis(flags);
  await runUntilStopped({ ...config, redisUrl }, logger, graceMs, 'worker started', false, false);
}

/** `docpipe serve`: the HTTP service alone on a shared Redis until a stop. */
export async function runServe(flags: StartFlags): Promise<void> {
  const { config, redisUrl, logger, graceMs } = await onSharedRedis(flags);
  await serveUntilStopped(config, redisUrl, logger, graceMs);
}

/**
 * What `worker` and `serve` start from: the configuration, the shared Redis (REDIS_URL, or the
 * one a running `docpipe start` wrote down; bad usage without either) and the logger.
 */
async function onSharedRedis(flags: StartFlags) {
  const config = loadConfig();
  const graceMs = parseGrace(flags.grace);
  const redisUrl = await requireRedisUrl(config);
  const logger = createLogger(
    config.logLevel,
    'docpipe',
    flags.pretty ? 'pretty' : config.logFormat,
  );
  return { config, redisUrl, logger, graceMs };
}

function parseGrace(text: string): number {
  const ms = Number(text);
  if (!Number.isSafeInteger(ms) || ms < 0)
    throw new UsageError(`--grace must be a number of milliseconds, 0 or more (got "${text}")`);
  return ms;
}

/**
 * Runs docpipe until a stop signal: the first stops taking jobs and gives running ones the grace
 * period, the second stops at once (running jobs are left to stall and are done again later), a
 * third ends the process on the spot.
 */
async function runUntilStopped(
  config: DocpipeConfig,
  logger: PinoLogger,
  graceMs: number,
  startedMessage: string,
  serveHttp: boolean,
  /** Run the embedded PostgreSQL without DATABASE_URL (`docpipe start` only). */
  embedDatabase: boolean,
): Promise<void> {
  let runtime: Runtime | undefined;
  let http: HttpService | undefined;
  const signals = new StopSignals((signal) => {
    logger.warn({ signal }, 'stopped on the spot: running jobs are done again by the next worker');
    // SIGTERM, sent before the process ends: Redis still writes its append-only file; SIGINT
    // to PostgreSQL, whose fast shutdown still writes a checkpoint.
    void runtime?.embedded?.stop();
    void runtime?.database?.embedded?.stop();
    process.exit(130);
  });
  try {
    // The metrics are the HTTP service's (they count its queues at each scrape); the worker tells
    // them of its jobs once it is up.
    runtime = await startRuntime(config, logger, {
      onDocumentJob: (report) => http?.metrics.recordDocumentJob(report),
      embedDatabase,
    });
    if (serveHttp) {
      const converter = runtime.converter;
      // A service that cannot start (its port taken) takes the worker, the office pool and the
      // embedded Redis down with it, instead of leaving a redis-server and its URL file behind.
      // `start` always has one: its own PostgreSQL, or DATABASE_URL's.
      const database = runtime.database;
      if (!database) throw new Error('docpipe start opened no database');
      http = await startHttpService(config, {
        redisUrl: runtime.redisUrl,
        database,
        logger,
        preparer: runtime.preparer,
        office: converter instanceof OfficePool ? converter : undefined,
      }).catch(async (err: unknown) => {
        // The reason start failed is what the user must hear: a failure while closing what had
        // started (a slow office process, say) is logged, and never answered in its place.
        await runtime!.close(graceMs).catch((closeErr: unknown) => {
          logger.warn({ err: closeErr }, 'closing after the failed start failed too');
        });
        throw err;
      });
      runtime.servesAt(http.publicUrl);
    }
    logger.info(
      {
        redisUrl: safeUrl(runtime.redisUrl),
        dataDir: config.dataDir,
        http: http?.address,
        ...(http ? { dashboard: `${http.publicUrl}/` } : {}),
      },
      http
        ? `${startedMessage}; open ${http.publicUrl}/ in a browser to sign up and use the dashboard; stop with Ctrl-C`
        : `${startedMessage}; stop with Ctrl-C`,
    );
    const signal = await signals.first;
    const worker = runtime.worker;
    // The worker takes no job from now on; the jobs it runs finish within the grace period.
    const stopping = worker.close(graceMs, signals.second);
    const running = worker.activeJobs;
    const queued = await worker.queuedJobs().catch(() => undefined);
    logStopping(logger, { signal, graceMs, running, queued, next: serveHttp ? 'start' : 'worker' });
    void signals.second.then((s) =>
      logger.warn({ signal: s }, 'stopping now: running jobs go back to the queue'),
    );
    // Requests in flight finish meanwhile (a convert whose job is running gets its answer); new
    // ones, and those the grace period or a second Ctrl-C cuts short, are answered 503.
    const cut = Promise.race([signals.second, delay(graceMs)]);
    await http?.close(cut);
    await stopping;
    logStopped(logger, worker.stopReport, serveHttp ? 'start' : 'worker');
    await runtime.close(graceMs, signals.second);
    logger.info({}, 'stopped');
  } finally {
    signals.dispose();
    endIfStillRunning(logger);
  }
}

/** `docpipe serve`: the HTTP service until a stop signal; a second signal ends it at once. */
async function serveUntilStopped(
  config: DocpipeConfig,
  redisUrl: string,
  logger: PinoLogger,
  graceMs: number,
): Promise<void> {
  const signals = new StopSignals((signal) => {
    logger.warn({ signal }, 'stopped on the spot: requests in flight were cut off');
    process.exit(130);
  });
  let database: ServiceDatabase | undefined;
  try {
    // Migrated before the first request (under an advisory lock: many serve starting at once
    // apply each migration once), with the API keys of an earlier docpipe copied from Redis.
    database = await openServiceDatabase(config, logger, { embed: false, redisUrl });
    if (!database) throw noDatabaseForServe(config.dataDir);
    const http = await startHttpService(config, { redisUrl, database, logger });
    logger.info(
      { redisUrl: safeUrl(redisUrl), http: http.address, dashboard: `${http.publicUrl}/` },
      `docpipe serving HTTP; the dashboard is at ${http.publicUrl}/; stop with Ctrl-C`,
    );
    const signal = await signals.first;
    logger.info(
      { signal, graceMs },
      `stopping: new requests are answered 503; requests in flight get up to ${seconds(graceMs)} s to finish, then 503; ${StopSignals.again(signal)} to stop now`,
    );
    await http.close(Promise.race([signals.second, delay(graceMs)]));
    logger.info({}, 'stopped');
  } finally {
    await database?.close();
    signals.dispose();
    endIfStillRunning(logger);
  }
}

/**
 * `serve` without PostgreSQL: bad usage (exit 2), since every authenticated request checks its
 * key there, and a service that refused them all would only look as if it ran.
 */
function noDatabaseForServe(dataDir: string): UsageError {
  const none = new NoDatabaseError(dataDir, databaseUrlFile(dataDir).path);
  return new UsageError(`docpipe serve checks API keys in PostgreSQL, and found ${none.message}`);
}

/**
 * After a stop the process ends by itself once nothing holds it. Only an unref'd timer: it fires
 * only if something was left open (a bug), and then ends the process, saying so.
 */
function endIfStillRunning(logger: Logger): void {
  setTimeout(() => {
    logger.error({}, `still running ${EXIT_AFTER_STOP_MS} ms after the stop: ending the process`);
    process.exit(process.exitCode ?? 1);
  }, EXIT_AFTER_STOP_MS).unref();
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function seconds(ms: number): number {
  return Math.round(ms / 1000);
}

interface Stopping {
  signal: NodeJS.Signals;
  graceMs: number;
  /** Jobs the worker was running when the stop began. */
  running: number;
  /** Jobs waiting in Redis, not started; undefined when Redis did not say. */
  queued: number | undefined;
  /** Who takes the queued jobs: the next `docpipe start`, or the next worker. */
  next: 'start' | 'worker';
}

/** What the first stop signal does, in one line: running jobs finish, queued ones stay. */
function logStopping(logger: Logger, s: Stopping): void {
  const waiting =
    s.running > 0
      ? `waiting up to ${seconds(s.graceMs)} s for ${s.running} running ${s.running === 1 ? 'job' : 'jobs'}`
      : 'none running';
  const left = s.queued ? ` (${s.queued} queued stay in Redis for the next ${s.next})` : '';
  logger.info(
    { signal: s.signal, jobs: s.running, queued: s.queued, graceMs: s.graceMs },
    `stopping: no new jobs; ${waiting}${left}; ${StopSignals.again(s.signal)} to stop now`,
  );
}

/** What the stop did with the running jobs, and what it left in Redis. */
function logStopped(logger: Logger, report: WorkerStopReport, next: 'start' | 'worker'): void {
  const queued = report.queued;
  const parts = [`${report.finished} finished`];
  if (report.handedBack > 0) parts.push(`${report.handedBack} went back to the queue`);
  const left = queued ? `; ${queued} queued stay in Redis for the next ${next}` : '';
  logger.info(
    { finished: report.finished, handedBack: report.handedBack, queued },
    `jobs: ${parts.join(', ')}${left}`,
  );
}
