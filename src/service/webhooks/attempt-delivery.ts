import { performance } from 'node:perf_hooks';
import { DestinationRefusedError, resolveDestination } from './destination-guard.js';
import { retryDelay } from './retry-delay.js';
import { recordTry } from './webhook-batches.js';
import { unsendableHeader } from './webhook-header-rules.js';
import type { WebhookDeps } from './webhook-deps.js';
import { requestHeaders } from './webhook-request-headers.js';
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

/** A delivery claimed for one try, with what the try needs (read with the claim). */
export interface ClaimedTry {
  deliveryId: string;
  attempt: number;
  /** When the delivery was made: its retries end `retryForMs` after. */
  createdAt: Date;
  trigger: string;
  body: string;
  webhook: {
    id: string;
    url: string;
    method: string;
    headers: Record<string, string>;
    secret: string;
    active: boolean;
  };
}

/**
 * Makes one try of a delivery: sends its fixed body to its webhook, signed now, and records the
 * try and the delivery's new state in one statement. The delivery is claimed first by a
 * conditional update (still pending, at the try count expected), so two workers never both send
 * it, and one that succeeded is never sent again. A failure is retried with backoff (the next
 * try put on `deps.retries`) until `settings.retryForMs` after the delivery was made; then, or
 * at once for a refused private destination, a disabled webhook or a stored header that cannot
 * be sent, the delivery is failed.
 */
export async function attemptDelivery(
  deps: WebhookDeps,
  deliveryId: string,
  options: AttemptOptions = {},
): Promise<AttemptOutcome> {
  let attempt = options.attempt;
  if (attempt === undefined) {
    const found = await deps.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempts'])
      .where('id', '=', deliveryId)
      .executeTakeFirst();
    if (!found) return skipped(deliveryId, NO_DELIVERY, null);
    if (found.status !== 'pending')
      return skipped(deliveryId, `the delivery is ${found.status}`, found.status);
    attempt = found.attempts + 1;
  }
  const claimed = await claimTry(deps, deliveryId, attempt);
  if (claimed) return makeTry(deps, claimed, options);
  // Why not: read only on this rare path.
  const now = await deps.db
    .selectFrom('webhook_deliveries')
    .select(['status', 'attempts'])
    .where('id', '=', deliveryId)
    .executeTakeFirst();
  if (!now) return skipped(deliveryId, NO_DELIVERY, null);
  if (now.status !== 'pending')
    return skipped(deliveryId, `the delivery is ${now.status}`, now.status);
  return skipped(
    deliveryId,
    now.attempts >= attempt ? `try ${attempt} was made already` : `try ${attempt} is not due`,
    now.status,
  );
}

const NO_DELIVERY = 'no such delivery (its webhook was removed?)';

function skipped(deliveryId: string, why: string, status: DeliveryStatus | null): AttemptOutcome {
  return {
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
  };
}

/**
 * Claims the `attempt`th try of a pending delivery whose tries are one short of it, in one
 * statement: of two workers that race for it, one gets it (the other's update finds the count
 * moved). While the try is in flight, next_attempt_at is past its timeout, out of the sweep's way.
 */
async function claimTry(
  deps: WebhookDeps,
  deliveryId: string,
  attempt: number,
): Promise<ClaimedTry | undefined> {
  const now = (deps.now ?? (() => new Date()))();
  const row = await deps.db
    .updateTable('webhook_deliveries as d')
    .from('webhooks as w')
    .set({
      attempts: attempt,
      next_attempt_at: new Date(now.getTime() + deps.settings.timeoutMs + IN_FLIGHT_MARGIN_MS),
      updated_at: now,
    })
    .whereRef('w.id', '=', 'd.webhook_id')
    .where('d.id', '=', deliveryId)
    .where('d.status', '=', 'pending')
    .where('d.attempts', '=', attempt - 1)
    .returning([
      'd.trigger',
      'd.body',
      'd.created_at',
      'w.id as webhook_id',
      'w.url',
      'w.method',
      'w.headers',
      'w.secret',
      'w.active',
    ])
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    deliveryId,
    attempt,
    createdAt: row.created_at,
    trigger: row.trigger,
    body: row.body,
    webhook: {
      id: row.webhook_id,
      url: row.url,
      method: row.method,
      headers: row.headers,
      secret: row.secret,
      active: row.active,
    },
  };
}

/** The try of a claimed delivery (attemptDelivery's, or a fan-out's that made it claimed). */
export async function makeTry(
  deps: WebhookDeps,
  claimed: ClaimedTry,
  options: AttemptOptions = {},
): Promise<AttemptOutcome> {
  const { db, settings } = deps;
  const now = deps.now ?? (() => new Date());
  const { deliveryId, attempt, webhook } = claimed;
  // The real time, whatever the schedule's clock: a receiver checks the signed timestamp
  // against its own.
  const startedAt = new Date();
  const started = performance.now();
  const url = new URL(webhook.url);
  let answer: WebhookAnswer | undefined;
  let error: string | null = null;
  /** A failure that no retry can mend: a refused destination, a disabled webhook, a bad header. */
  let final = false;
  const badHeader = unsendableHeader(webhook.headers);
  if (!webhook.active) {
    error = 'not sent: the webhook is disabled';
    final = true;
  } else if (badHeader !== undefined) {
    // Stored before its headers were checked as they are now: every try would fail alike.
    error = `not sent: a header of the webhook cannot be sent (${badHeader}); remove the webhook and add it again without it`;
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
        method: webhook.method,
        headers: requestHeaders(claimed, timestamp),
        body: claimed.body,
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
    if (next.getTime() - claimed.createdAt.getTime() <= settings.retryForMs) {
      status = 'pending';
      nextAttemptAt = next;
    }
  }
  // The try and the delivery's state in one statement, with the other tries of the batch:
  // one round trip, all or nothing.
  await recordTry(db, settings, {
    deliveryId,
    attempt,
    startedAt,
    durationMs,
    status: answer?.status ?? null,
    error,
    response: answer ? storable(answer.body) : null,
    deliveryStatus: status,
    nextAttemptAt,
    updatedAt: now(),
  });
  const shown = shownUrl(webhook.url);
  const fields = { delivery: deliveryId, webhook: webhook.id, url: shown, attempt, durationMs };
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
