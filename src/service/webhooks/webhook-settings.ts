/**
 * How deliveries are made and retried. The app's config builds it from the environment
 * (src/app/config/webhook-config.ts, `DOCPIPE_WEBHOOK_*`); tests give it directly.
 */
export interface WebhookSettings {
  /** `DOCPIPE_WEBHOOK_BACKOFF`: the first retry's delay, doubled after each failure. @defaultValue 30 s */
  backoffMs: number;
  /** `DOCPIPE_WEBHOOK_RETRY_FOR`: how long after a delivery is made it is retried. @defaultValue 24 h */
  retryForMs: number;
  /** `DOCPIPE_WEBHOOK_ALLOW_PRIVATE=true`: loopback, private and link-local destinations allowed. @defaultValue false */
  allowPrivate: boolean;
  /** `DOCPIPE_WEBHOOK_TIMEOUT`: one attempt, connection to the answer's end. @defaultValue 10 s */
  timeoutMs: number;
  /** `DOCPIPE_WEBHOOK_CONCURRENCY`: attempts at once, per dispatch and per worker. @defaultValue 16 */
  concurrency: number;
  /**
   * `DOCPIPE_DELIVERY_BATCH`: events, deliveries and tries handled together, their rows read and
   * written by one statement for the whole batch (1: one statement each, as before batching).
   * @defaultValue DEFAULT_DELIVERY_BATCH
   */
  batchSize?: number;
}

/** Measured in docs/benchmarks.md (deliveries a second against batch size). */
export const DEFAULT_DELIVERY_BATCH = 100;

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  backoffMs: 30_000,
  retryForMs: 24 * 3600_000,
  allowPrivate: false,
  timeoutMs: 10_000,
  concurrency: 16,
  batchSize: DEFAULT_DELIVERY_BATCH,
};

/** No delay grows past two hours: a receiver back after a long outage waits at most that. */
export const MAX_RETRY_DELAY_MS = 2 * 3600_000;

/** The answer's body read (the rest is not waited for), and the start of it kept in the run. */
export const RESPONSE_READ_BYTES = 64 * 1024;
export const RESPONSE_KEPT_BYTES = 1024;
