import { makeTry, type AttemptOutcome } from './attempt-delivery.js';
import type { WebhookDeps } from './webhook-deps.js';
import { activeWebhooksOf, insertDeliveries } from './webhook-batches.js';
import { shownUrl } from './webhook-records.js';
import { receives } from './webhook-triggers.js';

/** An event of the outbox (case_events), as its processing hands it over. */
export interface WebhookEvent {
  id: string;
  company: string;
  caseId: string | null;
  trigger: string;
  /** The JSON object as stored: sent as it is, on every try. */
  payload: unknown;
}

/** What became of an event's webhooks: `result` is what a case's `delivery.webhook` reports. */
export interface DispatchOutcome {
  /** The deliveries made now (0 when this event was dispatched before). */
  deliveries: number;
  /** `attempted: false` (and ok) when no active webhook receives the event: nothing failed. */
  result: { ok: boolean; attempted: boolean; error?: string; reason?: string };
}

/**
 * A fan-out's first tries are made while their deliveries are claimed: a process that dies
 * before a try is recorded leaves the delivery to the sweep this long after its timeout.
 */
const FIRST_TRY_MARGIN_MS = 5_000;

/** The summary of failures stays one readable line in the create answer. */
const MAX_SUMMARY_CHARS = 1000;

/**
 * Fans an event out to its company's active webhooks that receive its trigger: one delivery each
 * (the body fixed now, from the stored payload), made once per event and webhook (a second
 * dispatch of the same event makes none), then the first try of each new delivery at once, a
 * few at a time, its failure retried later (attemptDelivery). ok when every delivery succeeded.
 */
export async function dispatchEvent(
  deps: WebhookDeps,
  event: WebhookEvent,
): Promise<DispatchOutcome> {
  const { db } = deps;
  // Read once for every event of the company in the batch (webhook-batches.ts).
  const webhooks = (await activeWebhooksOf(db, deps.settings, event.company)).filter((w) =>
    receives(w.triggers, event.trigger),
  );
  if (webhooks.length === 0)
    return {
      deliveries: 0,
      result: {
        ok: true,
        attempted: false,
        reason: `no active webhook receives ${event.trigger}`,
      },
    };
  const now = (deps.now ?? (() => new Date()))();
  const body = JSON.stringify(event.payload);
  const made = await insertDeliveries(
    db,
    deps.settings,
    webhooks.map((w) => ({
      company_id: event.company,
      webhook_id: w.id,
      event_id: event.id,
      case_id: event.caseId,
      trigger: event.trigger,
      body,
      // Made claimed for its first try, made below at once; should that never happen (a
      // crash), the sweep makes the next once this is past.
      attempts: 1,
      next_attempt_at: new Date(now.getTime() + deps.settings.timeoutMs + FIRST_TRY_MARGIN_MS),
      created_at: now,
      updated_at: now,
    })),
  );
  const byId = new Map(webhooks.map((w) => [w.id, w]));
  const outcomes = await mapLimited(made, deps.settings.concurrency, (d) => {
    const w = byId.get(d.webhook_id)!;
    const claimed = {
      deliveryId: d.id,
      attempt: 1,
      createdAt: d.created_at,
      trigger: event.trigger,
      body,
      webhook: { ...w, active: true },
    };
    // A try that could not be made or recorded (the database): the sweep makes it later.
    return makeTry(deps, claimed).catch((err: unknown): AttemptOutcome => {
      deps.logger?.warn({ err, delivery: d.id }, 'webhook: the first try failed to run');
      return {
        deliveryId: d.id,
        attempted: false,
        skipped: `not tried yet (${err instanceof Error ? err.message : String(err)})`,
        attempt: 0,
        ok: false,
        status: null,
        error: null,
        durationMs: 0,
        url: null,
        deliveryStatus: 'pending',
        nextAttemptAt: null,
      };
    });
  });
  const urlOf = new Map(webhooks.map((w) => [w.id, shownUrl(w.url)]));
  const failures = outcomes
    .map((o, i) => ({ o, url: urlOf.get(made[i]!.webhook_id)! }))
    .filter(({ o }) => !o.ok)
    .map(({ o, url }) => `${url}: ${failureText(o)}`);
  // Deliveries made by an earlier dispatch of this event: reported as they stand.
  const earlier = webhooks.filter((w) => !made.some((d) => d.webhook_id === w.id));
  if (earlier.length > 0) {
    const rows = await db
      .selectFrom('webhook_deliveries')
      .select(['webhook_id', 'status', 'last_error'])
      .where('event_id', '=', event.id)
      .where(
        'webhook_id',
        'in',
        earlier.map((w) => w.id),
      )
      .execute();
    for (const r of rows)
      if (r.status !== 'succeeded')
        failures.push(
          `${urlOf.get(r.webhook_id)!}: ${r.status}${r.last_error ? ` (${r.last_error})` : ''}`,
        );
  }
  const result: DispatchOutcome['result'] =
    failures.length === 0
      ? { ok: true, attempted: true }
      : { ok: false, attempted: true, error: summary(failures) };
  return { deliveries: made.length, result };
}

function failureText(o: AttemptOutcome): string {
  return o.error ?? o.skipped ?? 'not delivered';
}

function summary(failures: string[]): string {
  const text = failures.join('; ');
  return text.length > MAX_SUMMARY_CHARS ? `${text.slice(0, MAX_SUMMARY_CHARS - 3)}...` : text;
}

/** `work` over `items`, at most `limit` at once, the results in the items' order. */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, lane));
  return results;
}
