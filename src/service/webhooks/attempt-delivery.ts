import { performance } from 'node:perf_hooks';
import { docpipeVersion } from '../../render/pipeline/index.js';
import { DestinationRefusedError, resolveDestination } from './destination-guard.js';
import { retryDelay } from './retry-delay.js';
import type { WebhookDeps } from './webhook-deps.js';
import {
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  signatureOf,
} from './webhook-signature.js';
import { shownUrl } from './webhook-records.js';
import { sendWebhookRequest, type WebhookAnswer } from './webhook-request.js';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** What one call of attemptDelivery did. */
export interface AttemptOutcome {
  deliveryId: string;
  /** Whether a try was made (and recorded); false: `skipped` says why not. */
  attempted: boolean;
  skipped?: string;
  /** The try's number (1 for the first); 0 when none was made. */
  attempt: number;
  /** The receiver answered 2xx. */
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
  /** The webhook's URL (its origin and path). */
  url: string | null;
  /** The delivery's state after the try. */
  deliveryStatus: DeliveryStatus | null;
  /** When it is tried again (pending only). */
  nextAttemptAt: Date | null;
}

export interface AttemptOptions {
  /**
   * The try this is meant to be (a queued retry's number): a delivery whose tries moved past it
   * (another worker made it) is left alone. @defaultValue the next one
   */
  attempt?: number;
  /** Whether a failure is retried later (a replay's is not: the operator reads its result). @defaultValue true */
  retry?: boolean;
}

/**
 * While a try is in flight its delivery's next_attempt_at is this far past its timeout, so that
 * the sweep (which takes deliveries overdue by a minute) does not add it again meanwhile.
 */
const IN_FLIGHT_MARGIN_MS = 5_000;

/** A failure's text kept in a run (the answer's start is kept apart, in `response`). */
const MAX_ERROR_CHARS = 500;

/**
 * Makes one try of a delivery: sends its fixed body to its webhook, signed now, and records the
 * try and the delivery's new state in one transaction. The delivery is claimed first by a
 * conditional update (still pending, at the try count read), so two workers never both send
 * it, and one that succeeded is never sent again. A failure is retried with backoff (the next
 * try put on `deps.retries`) until `settings.retryForMs` after the delivery was made; then, or
 * at once for a refused private destination or a disabled webhook, the delivery is failed.
 */
export async function attemptDelivery(
  deps: WebhookDeps,
  deliveryId: string,
  options: AttemptOptions = {},
): Promise<AttemptOutcome> {
  const { db, settings } = deps;
  const now = deps.now ?? (() => new Date());
  const skipped = (why: string, status: DeliveryStatus | null = null): AttemptOutcome => ({
    deliveryId,
    attempted: false,
    skipped: why,
    attempt: 0,
    ok: status === 'succeeded',
    status: null,
    error: why,
    durationMs: 0,
    url: null,
    deliveryStatus: status,
    nextAttemptAt: null,
  });
  const found = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select([
      'd.id',
      'd.trigger',
      'd.body',
      'd.status',
      'd.attempts',
      'd.created_at',
      'w.id as webhook_id',
      'w.url',
      'w.method',
      'w.headers',
      'w.secret',
      'w.active',
    ])
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
  if (!found) return skipped('no such delivery (its webhook was removed?)');
  if (found.status !== 'pending') return skipped(`the delivery is ${found.status}`, found.status);
  if (options.attempt !== undefined && found.attempts !== options.attempt - 1)
    return skipped(`try ${options.attempt} was made already`, found.status);

  const attempt = found.attempts + 1;
  const claimed = await db
    .updateTable('webhook_deliveries')
    .set({
      attempts: attempt,
      next_attempt_at: new Date(now().getTime() + settings.timeoutMs + IN_FLIGHT_MARGIN_MS),
      updated_at: now(),
    })
    .where('id', '=', deliveryId)
    .where('status', '=', 'pending')
    .where('attempts', '=', found.attempts)
    .returning('id')
    .executeTakeFirst();
  if (!claimed) return skipped('another worker is making this try');

  const startedAt = now();
  const started = performance.now();
  const url = new URL(found.url);
  let answer: WebhookAnswer | undefined;
  let error: string | null = null;
  /** A failure that no retry can mend: a refused destination, a disabled webhook. */
  let final = false;
  if (!found.active) {
    error = 'not sent: the webhook is disabled';
    final = true;
  } else {
    try {
      const address = await resolveDestination(url, {
        allowPrivate: settings.allowPrivate,
        lookup: deps.lookup,
      });
      const timestamp = Math.floor(startedAt.getTime() / 1000);
      answer = await sendWebhookRequest({
        url,
        method: found.method,
        headers: requestHeaders(found, deliveryId, timestamp),
        body: found.body,
        address,
        timeoutMs: settings.timeoutMs,
      });
      error = answerError(answer);
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
      final = err instanceof DestinationRefusedError;
    }
  }
  const durationMs = Math.round(performance.now() - started);
  const ok = error === null;
  error = error === null ? null : storable(error).slice(0, MAX_ERROR_CHARS);

  let status: DeliveryStatus = ok ? 'succeeded' : 'failed';
  let nextAttemptAt: Date | null = null;
  let delayMs = 0;
  if (!ok && !final && options.retry !== false) {
    delayMs = retryDelay(attempt, settings.backoffMs, (deps.random ?? Math.random)());
    const next = new Date(now().getTime() + delayMs);
    if (next.getTime() - found.created_at.getTime() <= settings.retryForMs) {
      status = 'pending';
      nextAttemptAt = next;
    }
  }
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: deliveryId,
        attempt,
        started_at: startedAt,
        duration_ms: durationMs,
        status: answer?.status ?? null,
        error,
        response: answer ? storable(answer.body) : null,
      })
      .execute();
    await trx
      .updateTable('webhook_deliveries')
      .set({
        status,
        last_status: answer?.status ?? null,
        last_error: error,
        next_attempt_at: nextAttemptAt,
        updated_at: now(),
      })
      .where('id', '=', deliveryId)
      .where('attempts', '=', attempt)
      .execute();
  });
  const shown = shownUrl(found.url);
  const fields = {
    delivery: deliveryId,
    webhook: found.webhook_id,
    url: shown,
    attempt,
    durationMs,
  };
  if (ok) deps.logger?.info({ ...fields, status: answer?.status }, 'webhook delivered');
  else
    deps.logger?.warn(
      { ...fields, status: answer?.status, error, next: nextAttemptAt?.toISOString() },
      status === 'pending' ? 'webhook not delivered; it is retried' : 'webhook delivery failed',
    );
  if (status === 'pending' && deps.retries)
    await deps.retries
      .scheduleRetry(deliveryId, attempt + 1, delayMs)
      .catch((err: unknown) =>
        deps.logger?.warn(
          { err, delivery: deliveryId },
          'the retry could not be queued; the sweep adds it when it is due',
        ),
      );
  return {
    deliveryId,
    attempted: true,
    attempt,
    ok,
    status: answer?.status ?? null,
    error,
    durationMs,
    url: shown,
    deliveryStatus: status,
    nextAttemptAt,
  };
}

function requestHeaders(
  d: { headers: Record<string, string>; secret: string; trigger: string; body: string },
  deliveryId: string,
  timestamp: number,
): Record<string, string> {
  const own = Object.keys(d.headers).map((h) => h.toLowerCase());
  return {
    ...(own.includes('content-type') ? {} : { 'Content-Type': 'application/json' }),
    ...(own.includes('user-agent') ? {} : { 'User-Agent': `docpipe/${docpipeVersion()}` }),
    ...d.headers,
    [EVENT_HEADER]: d.trigger,
    [DELIVERY_HEADER]: deliveryId,
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: signatureOf(d.secret, timestamp, d.body),
  };
}

/** Why an answer is a failure, or null for a 2xx. */
function answerError(answer: WebhookAnswer): string | null {
  const { status } = answer;
  if (status >= 200 && status < 300) return null;
  const line = `${status}${answer.statusText ? ` ${answer.statusText}` : ''}`;
  if (status >= 300 && status < 400)
    return `${line}: redirects are not followed${answer.location ? ` (Location: ${answer.location})` : ''}`;
  return line;
}

/** Text PostgreSQL keeps: no NUL (a text column refuses it). */
function storable(text: string): string {
  return text.replaceAll('\u0000', '\ufffd');
}
