import { resolve } from 'node:path';
import type { NetworkIsolation, OfficePoolOptions } from '../../render/convert/index.js';
import {
  DEFAULT_LOCALE,
  DEFAULT_VALUE_LIMITS,
  VALUE_LIMIT_VARIABLES,
  type ValueLimits,
} from '../../document/values/index.js';
import {
  DEFAULT_TIME_ZONE,
  parseDelimiters,
  resolveFillOptions,
  type Delimiters,
} from '../../document/fill/index.js';
import type { SniffLimits } from '../../formats/sniff/index.js';
import { ConfigError, databaseSettingFrom, envNumbers, inputLimitsFrom } from '../env/index.js';
import { LOG_FORMATS, type LogFormat } from '../../base/log/index.js';
import {
  DEFAULT_CLIENT_OPTIONS,
  DEFAULT_CONTRACT_LIMITS,
  DEFAULT_WORKER_OPTIONS,
} from '../../jobs/queue/index.js';
import { ROOT_CLUSTERS_DIR, projectRoot } from '../../base/paths/index.js';
import { safeUrl } from '../../base/util/index.js';
import { httpConfigFrom, type HttpConfig } from './http-config.js';
import { storageConfigFrom, type StorageConfig } from './storage-config.js';
import { retentionConfigFrom, type RetentionConfig } from './retention-config.js';
import { creditsConfigFrom, type CreditsConfig } from './credits-config.js';
import { environmentConfigFrom, type Environment } from './environment-config.js';
import { fairnessConfigFrom, type FairnessConfig } from './fairness-config.js';
import { dashboardConfigFrom, type DashboardConfig } from './dashboard-config.js';
import { cprKeyFrom } from './cpr-config.js';
import { eidConfigFrom } from './eid-config.js';
import { deliveryConfigFrom } from './delivery-config.js';
import { webhookConfigFrom, type WebhookConfig } from './webhook-config.js';
import type { DeliveryConfig } from '../../service/messages/index.js';
import type { EidConfig } from '../../service/eid/index.js';

/** docpipe's settings. Each comes from one environment variable, named beside it. */
export interface DocpipeConfig {
  /**
   * `DOCPIPE_ENVIRONMENT`: `production` or `test` (spec 5.4). It decides the prefix of new API
   * keys, refuses keys of the other environment, and lets pages show a test banner.
   * @defaultValue 'production'
   */
  environment: Environment;
  /**
   * `DOCPIPE_TEST_DATA_RETENTION`: in the test environment, cases older than this are deleted by
   * the retention sweep; `off` keeps them. Always undefined in production. @defaultValue '30d'
   */
  testDataRetentionMs: number | undefined;
  /** `DOCPIPE_DATA_DIR`: where docpipe keeps its data. @defaultValue `<project>/data` */
  dataDir: string;
  /** `DOCPIPE_TEMPLATES_DIR`: the document library. @defaultValue `<project>/templates` */
  templatesDir: string;
  /** `DOCPIPE_LOCALE`. @defaultValue 'da' */
  locale: string;
  /** `DOCPIPE_TIME_ZONE`. @defaultValue 'Europe/Copenhagen' */
  timeZone: string;
  /** `DOCPIPE_DELIMITERS`, start and end separated by a space (`{{ }}`). @defaultValue '{ }' */
  delimiters: Delimiters;
  /** `DOCPIPE_STRICT_TAGS`: refuse values for tags a template lacks. @defaultValue false */
  strictTags: boolean;
  /**
   * `DOCPIPE_STRICT_FIDELITY`: refuse a render with a font replaced by one of other widths or an
   * empty page, unless its options say `fidelity`. @defaultValue false
   */
  strictFidelity: boolean;
  /**
   * `DOCPIPE_ENGINE_THREADS`: sniff and fill threads.
   * @defaultValue the number of cores; beside an office pool, {@link prepareThreadsBeside}
   */
  prepareThreads: number | undefined;
  /** `DOCPIPE_LOG_LEVEL`: pino level. @defaultValue 'info' */
  logLevel: string;
  /**
   * `DOCPIPE_LOG_FORMAT`: `json` (one object a line, for machines), `pretty` (readable lines),
   * or `auto` (pretty when stderr is a terminal). @defaultValue 'auto'
   */
  logFormat: LogFormat;
  /**
   * `DOCPIPE_MAX_INPUT_BYTES`, `DOCPIPE_ZIP_MAX_ENTRIES`, `DOCPIPE_ZIP_MAX_UNCOMPRESSED_BYTES`,
   * `DOCPIPE_ZIP_MAX_RATIO`. @defaultValue DEFAULT_SNIFF_LIMITS
   */
  limits: SniffLimits;
  /**
   * `DOCPIPE_MAX_VALUE_CHARS`, `DOCPIPE_MAX_TAGS_CHARS`, `DOCPIPE_MAX_TAGS`,
   * `DOCPIPE_ALLOW_BIDI_CONTROLS`: what tag values may be. @defaultValue DEFAULT_VALUE_LIMITS
   */
  values: ValueLimits;
  /** `DOCPIPE_CONVERTER`: `office-pool` (warm LibreOffice over UNO) or `libreoffice-convert`. @defaultValue 'office-pool' */
  converter: 'office-pool' | 'libreoffice-convert';
  /**
   * `DOCPIPE_OFFICE_PROCESSES`, `DOCPIPE_CONVERSION_TIMEOUT_MS`, `DOCPIPE_OFFICE_START_TIMEOUT_MS`,
   * `DOCPIPE_QUEUE_TIMEOUT_MS`, `DOCPIPE_OFFICE_MAX_CONVERSIONS`, `DOCPIPE_OFFICE_QUEUE_DEPTH`, `DOCPIPE_OFFICE_MAX_RSS_MB`,
   * `DOCPIPE_OFFICE_NETWORK`. @defaultValue DEFAULT_OFFICE_POOL_OPTIONS
   */
  office: OfficePoolOptions;
  /**
   * `DOCPIPE_SIGNING_SECRET`: HMAC secret of signed URLs. @defaultValue undefined: one made once
   * and kept in the shared Redis, so that every server of an installation signs alike
   */
  signingSecret: string | undefined;
  /**
   * `DOCPIPE_CPR_KEY`: the AES-256 key CPR numbers are stored encrypted with, 32 bytes as hex or
   * base64. @defaultValue undefined: `docpipe start` makes one and keeps it in
   * DOCPIPE_DATA_DIR/cpr.key, which `serve` on the same data folder reads; with neither, a form
   * submit that carries a CPR number is refused (docs/forms.md)
   */
  cprKey: Buffer | undefined;
  /**
   * `DOCPIPE_EID_*` (one broker) or `DOCPIPE_EID_BROKERS_FILE` (several): the OpenID Connect
   * brokers of eID signing. @defaultValue no broker: cases sign with `draw`
   */
  eid: EidConfig;
  /**
   * `DOCPIPE_SEAL_P12`, `DOCPIPE_SEAL_P12_PASSWORD`, `DOCPIPE_TSA_URL` as given: who seals signed
   * documents and the timestamp authority. Checked, and the certificate loaded, by
   * loadSealingConfig when a worker starts sealing. @defaultValue a self-signed certificate
   * kept in the data folder, no timestamp authority (PAdES B-B)
   */
  seal: { p12?: string; password?: string; tsaUrl?: string };
  /**
   * `DOCPIPE_SMTP_URL`, `DOCPIPE_MAIL_*`, `DOCPIPE_DKIM_*`, `DOCPIPE_SMS_*`: how messages reach
   * people. @defaultValue e-mail written as .eml files under DOCPIPE_DATA_DIR/mail; no SMS
   */
  delivery: DeliveryConfig;
  /** `DOCPIPE_WEBHOOK_*`: how webhook deliveries are made and retried. */
  webhooks: WebhookConfig;
  /** The HTTP server: `DOCPIPE_HTTP_*`, `DOCPIPE_PUBLIC_URL`, rate limits, the dashboard. */
  http: HttpConfig;
  /** `DOCPIPE_STORAGE` and `DOCPIPE_S3_*`: local disk or an S3-compatible store. */
  storage: StorageConfig;
  /** `DOCPIPE_RETENTION_*`: when stored documents are removed. */
  retention: RetentionConfig;
  /** `DOCPIPE_COMPANY_MAX_*`: per-company caps of the fair scheduler. */
  fairness: FairnessConfig;
  /** `DOCPIPE_SIGNUP`, `DOCPIPE_SESSION_*`, `DOCPIPE_LOGIN_*`: the dashboard's accounts. */
  dashboard: DashboardConfig;
  /** `DOCPIPE_CREDITS_PER_CASE`, `DOCPIPE_CREDIT_PRICE`, `DOCPIPE_VAT_RATE`, `DOCPIPE_CREDIT_PACKS`. */
  credits: CreditsConfig;
  /** `REDIS_URL`: the Redis that workers and producers share. @defaultValue none: an embedded redis-server */
  redisUrl: string | undefined;
  /**
   * `DATABASE_URL`: the PostgreSQL of the service's records (`postgresql://`, or
   * `postgresql:///db?host=/socket/folder`). @defaultValue none: `docpipe start` runs its own
   * under DOCPIPE_DATA_DIR/postgres, and `serve`, `worker` and `docpipe db` use that one while it runs
   */
  databaseUrl: string | undefined;
  /**
   * `DOCPIPE_POSTGRES_CLUSTERS_DIR`: where `docpipe start` as root keeps the embedded
   * PostgreSQL's cluster of a data folder the `postgres` user cannot reach (a folder for each),
   * and where `docpipe postgres clean` looks. @defaultValue ROOT_CLUSTERS_DIR ('/var/lib/docpipe/postgres')
   */
  postgresClustersDir: string;
  queue: {
    /** `DOCPIPE_QUEUE_PREFIX`: keeps installations on one Redis apart. @defaultValue DEFAULT_WORKER_OPTIONS.prefix ('docpipe') */
    prefix: string;
    /** `DOCPIPE_WORKER_CONCURRENCY`. @defaultValue {@link workerConcurrency} */
    concurrency: number | undefined;
    /** `DOCPIPE_LOCK_DURATION_MS`: job lock, renewed at half. @defaultValue DEFAULT_WORKER_OPTIONS.lockDurationMs */
    lockDurationMs: number;
    /** `DOCPIPE_STALLED_INTERVAL_MS`: how often a dead worker's jobs are looked for. @defaultValue DEFAULT_WORKER_OPTIONS.stalledIntervalMs */
    stalledIntervalMs: number;
    /** `DOCPIPE_MAX_INLINE_BYTES`: largest document sent inside a job. @defaultValue DEFAULT_CONTRACT_LIMITS.maxInlineBytes */
    maxInlineBytes: number;
    /** `DOCPIPE_JOB_ATTEMPTS`: tries of a job whose failure is transient. @defaultValue DEFAULT_CLIENT_OPTIONS.attempts */
    attempts: number;
    /**
     * `DOCPIPE_KEEP_COMPLETED_S`, `DOCPIPE_KEEP_FAILED_S`: how long finished jobs stay.
     * @defaultValue DEFAULT_CLIENT_OPTIONS.keepCompleted.age, DEFAULT_CLIENT_OPTIONS.keepFailed.age
     */
    keepCompletedSeconds: number;
    keepFailedSeconds: number;
    /**
     * `DOCPIPE_CLIENT_UNREACHABLE_MS`: how long `enqueue` and `rerender` wait for a Redis that
     * does not answer before they give up. @defaultValue DEFAULT_CLIENT_OPTIONS.unreachableMs
     */
    clientUnreachableMs: number;
    /**
     * `DOCPIPE_CLIENT_NO_WORKER_MS`: how long they wait while no worker is connected before they
     * give up. @defaultValue DEFAULT_CLIENT_OPTIONS.noWorkerMs
     */
    clientNoWorkerMs: number;
  };
}

/** SigV4 pre-signed URLs last at most a week. */
const S3_LONGEST_PRESIGN_S = 7 * 24 * 3600;

export { ConfigError };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads the configuration from the environment, checking everything and reporting every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): DocpipeConfig {
  const problems: string[] = [];
  const numbers = envNumbers(env, problems);
  const { int, count } = numbers;
  const root = projectRoot();
  const limits = inputLimitsFrom(env, numbers, problems);
  const values = valueLimitsFrom(env, int, problems);

  const delimitersText = env.DOCPIPE_DELIMITERS;
  let delimiters: Delimiters = { start: '{', end: '}' };
  if (delimitersText) {
    const parsed = parseDelimiters(delimitersText);
    if (parsed) delimiters = parsed;
    else
      problems.push(
        `DOCPIPE_DELIMITERS must be start and end separated by a space, such as "{{ }}" (got "${delimitersText}")`,
      );
  }
  const locale = env.DOCPIPE_LOCALE || DEFAULT_LOCALE;
  const timeZone = env.DOCPIPE_TIME_ZONE || DEFAULT_TIME_ZONE;
  for (const p of resolveFillOptions({ locale, timeZone }).problems) {
    problems.push(`${p.field === 'locale' ? 'DOCPIPE_LOCALE' : 'DOCPIPE_TIME_ZONE'}: ${p.message}`);
  }
  const strictText = env.DOCPIPE_STRICT_TAGS;
  if (strictText && !['true', 'false', '1', '0'].includes(strictText)) {
    problems.push(`DOCPIPE_STRICT_TAGS must be true or false (got "${strictText}")`);
  }
  const strictFidelityText = env.DOCPIPE_STRICT_FIDELITY;
  if (strictFidelityText && !['true', 'false', '1', '0'].includes(strictFidelityText)) {
    problems.push(`DOCPIPE_STRICT_FIDELITY must be true or false (got "${strictFidelityText}")`);
  }
  const logLevel = env.DOCPIPE_LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel))
    problems.push(`DOCPIPE_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  const logFormat = (env.DOCPIPE_LOG_FORMAT || 'auto') as LogFormat;
  if (!LOG_FORMATS.includes(logFormat))
    problems.push(
      `DOCPIPE_LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')} (got "${logFormat}")`,
    );
  const threadsText = env.DOCPIPE_ENGINE_THREADS;
  const prepareThreads = threadsText ? int('DOCPIPE_ENGINE_THREADS', 1) : undefined;

  const converter = env.DOCPIPE_CONVERTER || 'office-pool';
  if (converter !== 'office-pool' && converter !== 'libreoffice-convert') {
    problems.push(
      `DOCPIPE_CONVERTER must be office-pool or libreoffice-convert (got "${converter}")`,
    );
  }
  const optionalInt = (name: string): number | undefined => (env[name] ? int(name, 1) : undefined);
  const network = env.DOCPIPE_OFFICE_NETWORK || 'auto';
  if (!['auto', 'namespace', 'profile'].includes(network)) {
    problems.push(`DOCPIPE_OFFICE_NETWORK must be auto, namespace or profile (got "${network}")`);
  }
  const rssMb = optionalInt('DOCPIPE_OFFICE_MAX_RSS_MB');
  const office: OfficePoolOptions = {
    processes: optionalInt('DOCPIPE_OFFICE_PROCESSES'),
    conversionTimeoutMs: optionalInt('DOCPIPE_CONVERSION_TIMEOUT_MS'),
    startTimeoutMs: optionalInt('DOCPIPE_OFFICE_START_TIMEOUT_MS'),
    queueTimeoutMs: optionalInt('DOCPIPE_QUEUE_TIMEOUT_MS'),
    maxConversionsPerProcess: optionalInt('DOCPIPE_OFFICE_MAX_CONVERSIONS'),
    queueDepth: optionalInt('DOCPIPE_OFFICE_QUEUE_DEPTH'),
    maxRssBytes: rssMb === undefined ? undefined : rssMb * 1024 * 1024,
    network: network as NetworkIsolation,
    allocator: env.DOCPIPE_OFFICE_ALLOCATOR || undefined,
  };
  const signingSecret = env.DOCPIPE_SIGNING_SECRET || undefined;
  if (signingSecret !== undefined && signingSecret.length < 16)
    problems.push('DOCPIPE_SIGNING_SECRET must have at least 16 characters');
  const cprKey = cprKeyFrom(env, problems);
  const eid = eidConfigFrom(env, problems);
  const seal = {
    ...(env.DOCPIPE_SEAL_P12 ? { p12: env.DOCPIPE_SEAL_P12 } : {}),
    ...(env.DOCPIPE_SEAL_P12_PASSWORD !== undefined
      ? { password: env.DOCPIPE_SEAL_P12_PASSWORD }
      : {}),
    ...(env.DOCPIPE_TSA_URL ? { tsaUrl: env.DOCPIPE_TSA_URL } : {}),
  };

  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl))
    problems.push(`REDIS_URL must start with redis:// or rediss:// (got "${safeUrl(redisUrl)}")`);
  const { databaseUrl, dataDir } = databaseSettingFrom(env, problems);
  const queue = {
    prefix: env.DOCPIPE_QUEUE_PREFIX || DEFAULT_WORKER_OPTIONS.prefix,
    concurrency: optionalInt('DOCPIPE_WORKER_CONCURRENCY'),
    lockDurationMs: int('DOCPIPE_LOCK_DURATION_MS', DEFAULT_WORKER_OPTIONS.lockDurationMs),
    stalledIntervalMs: int('DOCPIPE_STALLED_INTERVAL_MS', DEFAULT_WORKER_OPTIONS.stalledIntervalMs),
    maxInlineBytes: int('DOCPIPE_MAX_INLINE_BYTES', DEFAULT_CONTRACT_LIMITS.maxInlineBytes),
    attempts: int('DOCPIPE_JOB_ATTEMPTS', DEFAULT_CLIENT_OPTIONS.attempts),
    keepCompletedSeconds: int('DOCPIPE_KEEP_COMPLETED_S', DEFAULT_CLIENT_OPTIONS.keepCompleted.age),
    keepFailedSeconds: int('DOCPIPE_KEEP_FAILED_S', DEFAULT_CLIENT_OPTIONS.keepFailed.age),
    clientUnreachableMs: int('DOCPIPE_CLIENT_UNREACHABLE_MS', DEFAULT_CLIENT_OPTIONS.unreachableMs),
    clientNoWorkerMs: int('DOCPIPE_CLIENT_NO_WORKER_MS', DEFAULT_CLIENT_OPTIONS.noWorkerMs),
  };
  if (!/^[a-z0-9_-]+$/i.test(queue.prefix))
    problems.push(`DOCPIPE_QUEUE_PREFIX must be letters, digits, - or _ (got "${queue.prefix}")`);

  const http = httpConfigFrom(env, int, count, limits.maxInputBytes, problems);
  const storage = storageConfigFrom(env, problems);
  const retention = retentionConfigFrom(env, problems);
  const { environment, testDataRetentionMs } = environmentConfigFrom(env, problems);
  const fairness = fairnessConfigFrom(count);
  const dashboard = dashboardConfigFrom(env, count, problems);
  const credits = creditsConfigFrom(env, problems);
  // A signed URL must not outlive what it points at: the sweeper would leave it a 404.
  const shortest = [retention.uploadsMs, retention.rendersMs].filter((ms) => ms !== undefined);
  // Left to its default, the lifetime gives way to a shorter retention set alone.
  if (!env.DOCPIPE_SIGNED_URL_TTL_S && shortest.length > 0)
    http.signedUrlTtlSeconds = Math.min(
      http.signedUrlTtlSeconds,
      Math.ceil(Math.min(...shortest) / 1000) - 1,
    );
  const ttlMs = http.signedUrlTtlSeconds * 1000;
  if (shortest.some((ms) => ttlMs >= ms))
    problems.push(
      `DOCPIPE_SIGNED_URL_TTL_S (${http.signedUrlTtlSeconds} s) must be shorter than DOCPIPE_RETENTION_UPLOADS and DOCPIPE_RETENTION_RENDERS: a signed URL would outlive its document`,
    );
  if (storage.kind === 's3' && http.signedUrlTtlSeconds > S3_LONGEST_PRESIGN_S)
    problems.push(
      `DOCPIPE_SIGNED_URL_TTL_S must be at most ${S3_LONGEST_PRESIGN_S} (7 days) with DOCPIPE_STORAGE=s3: S3 refuses longer pre-signed URLs`,
    );

  const delivery = deliveryConfigFrom(env, dataDir, problems);
  const webhooks = webhookConfigFrom(env, problems);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    environment,
    testDataRetentionMs,
    redisUrl,
    databaseUrl,
    postgresClustersDir: resolve(env.DOCPIPE_POSTGRES_CLUSTERS_DIR || ROOT_CLUSTERS_DIR),
    queue,
    dataDir,
    templatesDir: resolve(env.DOCPIPE_TEMPLATES_DIR || resolve(root, 'templates')),
    locale,
    timeZone,
    delimiters,
    strictTags: strictText === 'true' || strictText === '1',
    strictFidelity: strictFidelityText === 'true' || strictFidelityText === '1',
    prepareThreads,
    logLevel,
    logFormat,
    limits,
    values,
    converter: converter as DocpipeConfig['converter'],
    office,
    signingSecret,
    cprKey,
    eid,
    seal,
    delivery,
    webhooks,
    http,
    storage,
    retention,
    fairness,
    dashboard,
    credits,
  };
}

function valueLimitsFrom(
  env: NodeJS.ProcessEnv,
  int: (name: string, fallback: number) => number,
  problems: string[],
): ValueLimits {
  const bidiName = VALUE_LIMIT_VARIABLES.allowBidiControls;
  const bidiText = env[bidiName];
  if (bidiText && !['true', 'false', '1', '0'].includes(bidiText))
    problems.push(`${bidiName} must be true or false (got "${bidiText}")`);
  return {
    maxValueChars: int(VALUE_LIMIT_VARIABLES.maxValueChars, DEFAULT_VALUE_LIMITS.maxValueChars),
    maxTagsChars: int(VALUE_LIMIT_VARIABLES.maxTagsChars, DEFAULT_VALUE_LIMITS.maxTagsChars),
    maxTags: int(VALUE_LIMIT_VARIABLES.maxTags, DEFAULT_VALUE_LIMITS.maxTags),
    allowBidiControls: bidiText === 'true' || bidiText === '1',
  };
}

/**
 * Prepare threads for a worker whose office pool has `officeProcesses` processes: one per four.
 * Sniff, fill and the PDF check take about a twentieth of a conversion's time, so one thread keeps
 * four office processes fed; more threads only add isolates to warm up and collect, which cost
 * CPU the office processes need (measured: docs/decisions.md, Prepare threads).
 */
export function prepareThreadsBeside(officeProcesses: number): number {
  return Math.max(1, Math.ceil(officeProcesses / 4));
}

/**
 * Jobs a worker runs at once: enough to fill every office process and its bridge's queue
 * (`queueDepth`), and one more per process whose sniff and fill run meanwhile, so LibreOffice
 * never waits for them (measured: docs/decisions.md, Worker concurrency).
 */
export function workerConcurrency(officeProcesses: number, queueDepth: number): number {
  return officeProcesses * (queueDepth + 1);
}
