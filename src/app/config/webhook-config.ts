import { parseDuration } from '../../base/util/index.js';
import {
  ALLOW_PRIVATE_VARIABLE,
  DEFAULT_DELIVERY_BATCH,
  DEFAULT_WEBHOOK_SETTINGS,
  MAX_RETRY_DELAY_MS,
  type WebhookSettings,
} from '../../service/webhooks/index.js';
import { ConfigError, envNumbers } from '../env/index.js';

/** How webhooks are delivered and retried (docs/webhooks.md, docs/configuration.md). */
export type WebhookConfig = WebhookSettings;

export const WEBHOOK_VARIABLES = {
  backoff: 'DOCPIPE_WEBHOOK_BACKOFF',
  retryFor: 'DOCPIPE_WEBHOOK_RETRY_FOR',
  allowPrivate: ALLOW_PRIVATE_VARIABLE,
  timeout: 'DOCPIPE_WEBHOOK_TIMEOUT',
  concurrency: 'DOCPIPE_WEBHOOK_CONCURRENCY',
  batch: 'DOCPIPE_DELIVERY_BATCH',
} as const;

/** A try longer than a minute holds a worker's slot for nothing: receivers answer in seconds. */
const MAX_TIMEOUT_MS = 60_000;
/** Retrying for more than a week keeps deliveries nobody will read. */
const MAX_RETRY_FOR_MS = 7 * 24 * 3600_000;
const MAX_CONCURRENCY = 256;
/** A statement of thousands of rows holds its locks and a worker's memory for little more speed. */
const MAX_BATCH = 1000;

/**
 * The webhook settings of `env`, every problem added to `problems`, named by its variable:
 * `DOCPIPE_WEBHOOK_BACKOFF` (`30s`), `DOCPIPE_WEBHOOK_RETRY_FOR` (`24h`),
 * `DOCPIPE_WEBHOOK_ALLOW_PRIVATE` (`false`), `DOCPIPE_WEBHOOK_TIMEOUT` (`10s`) and
 * `DOCPIPE_WEBHOOK_CONCURRENCY` (16), and `DOCPIPE_DELIVERY_BATCH` (100: events and webhook tries
 * handled together, one statement for the batch's rows). Durations take ms, s, m, h or d (`50ms` is for tests).
 */
export function webhookConfigFrom(env: NodeJS.ProcessEnv, problems: string[]): WebhookConfig {
  const v = WEBHOOK_VARIABLES;
  const d = DEFAULT_WEBHOOK_SETTINGS;
  const backoffMs = duration(env, v.backoff, d.backoffMs, MAX_RETRY_DELAY_MS, problems);
  const retryForMs = duration(env, v.retryFor, d.retryForMs, MAX_RETRY_FOR_MS, problems);
  const timeoutMs = duration(env, v.timeout, d.timeoutMs, MAX_TIMEOUT_MS, problems);
  const allowText = env[v.allowPrivate];
  if (allowText && !['true', 'false', '1', '0'].includes(allowText))
    problems.push(`${v.allowPrivate} must be true or false (got "${allowText}")`);
  let concurrency = envNumbers(env, problems).int(v.concurrency, d.concurrency);
  if (concurrency > MAX_CONCURRENCY) {
    problems.push(`${v.concurrency} must be at most ${MAX_CONCURRENCY} (got ${concurrency})`);
    concurrency = d.concurrency;
  }
  const fallbackBatch = d.batchSize ?? DEFAULT_DELIVERY_BATCH;
  let batchSize = envNumbers(env, problems).int(v.batch, fallbackBatch);
  if (batchSize < 1 || batchSize > MAX_BATCH) {
    problems.push(`${v.batch} must be between 1 and ${MAX_BATCH} (got ${batchSize})`);
    batchSize = fallbackBatch;
  }
  return {
    backoffMs,
    retryForMs,
    allowPrivate: allowText === 'true' || allowText === '1',
    timeoutMs,
    concurrency,
    batchSize,
  };
}

/** The webhook settings of `env`; ConfigError with every problem. */
export function loadWebhookConfig(env: NodeJS.ProcessEnv = process.env): WebhookConfig {
  const problems: string[] = [];
  const config = webhookConfigFrom(env, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function duration(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  max: number,
  problems: string[],
): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  let ms: number;
  const millis = /^(\d{1,9})ms$/.exec(text);
  if (millis) ms = Number(millis[1]);
  else
    try {
      ms = parseDuration(text, { seconds: true });
    } catch (err) {
      problems.push(`${name}: ${(err as Error).message}`);
      return fallback;
    }
  if (ms < 1 || ms > max) {
    problems.push(`${name} must be between 1ms and ${describe(max)} (got "${text}")`);
    return fallback;
  }
  return ms;
}

function describe(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000}d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  return `${ms / 1000}s`;
}
