import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import type { DeliveryStatus } from './attempt-delivery.js';
import { isUuid } from './webhook-records.js';

/** A page of the dashboard's "Recent runs". */
export const RUNS_PAGE_SIZE = 25;

/** One delivery of an event to a webhook, as a list of runs shows it: its latest try's result. */
export interface WebhookRunSummary {
  deliveryId: string;
  trigger: string;
  caseId: string | null;
  /** When the event was fanned out to the webhook. */
  createdAt: Date;
  status: DeliveryStatus;
  /** Tries made so far. */
  attempts: number;
  /** The latest try's HTTP status; null when none came or no try was made. */
  lastStatus: number | null;
  lastError: string | null;
  /** The latest try's duration; null when no try was recorded yet. */
  durationMs: number | null;
}

export interface WebhookRunsPage {
  runs: WebhookRunSummary[];
  /** The cursor of the next (older) page, when there is one: the last run's delivery id. */
  next?: string;
}

/**
 * A company's webhook's deliveries, newest first, `limit` at a time, each with its latest try,
 * after the delivery `after` (a page's `next`). Paged by cursor on the index
 * webhook_deliveries_recent (webhook, created_at desc), so that a page costs the same with
 * 1,000 runs or a million: no offset is counted through. An unknown cursor reads as the start.
 */
export async function listWebhookRuns(
  db: Kysely<Database>,
  company: string,
  webhookId: string,
  options: { after?: string; limit?: number } = {},
): Promise<WebhookRunsPage> {
  if (!isUuid(webhookId)) return { runs: [] };
  const limit = Math.min(Math.max(1, options.limit ?? RUNS_PAGE_SIZE), 100);
  const after = options.after !== undefined && isUuid(options.after) ? options.after : undefined;
  let query = db
    .selectFrom('webhook_deliveries as d')
    .select([
      'd.id',
      'd.trigger',
      'd.case_id',
      'd.created_at',
      'd.status',
      'd.attempts',
      'd.last_status',
      'd.last_error',
    ])
    .where('d.webhook_id', '=', webhookId)
    .where('d.company_id', '=', company);
  if (after !== undefined) {
    const cursor = db
      .selectFrom('webhook_deliveries as c')
      .where('c.id', '=', after)
      .where('c.webhook_id', '=', webhookId);
    // created_at <= the cursor's is what the index ranges over; the row comparison breaks ties.
    query = query
      .where('d.created_at', '<=', cursor.select('c.created_at'))
      .where(sql<boolean>`(d.created_at, d.id) < (${cursor.select(['c.created_at', 'c.id'])})`);
  }
  const rows = await query
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit + 1)
    .execute();
  const shown = rows.slice(0, limit);
  const durations = new Map<string, number>();
  if (shown.length > 0) {
    // The latest try of each, by the attempts' primary key (delivery, attempt).
    const tries = await db
      .selectFrom('webhook_attempts')
      .select(['delivery_id', 'duration_ms'])
      .distinctOn('delivery_id')
      .where(
        'delivery_id',
        'in',
        shown.map((r) => r.id),
      )
      .orderBy('delivery_id')
      .orderBy('attempt', 'desc')
      .execute();
    for (const t of tries) durations.set(t.delivery_id, t.duration_ms);
  }
  const runs = shown.map((r) => ({
    deliveryId: r.id,
    trigger: r.trigger,
    caseId: r.case_id,
    createdAt: r.created_at,
    status: r.status,
    attempts: r.attempts,
    lastStatus: r.last_status,
    lastError: r.last_error,
    durationMs: durations.get(r.id) ?? null,
  }));
  return rows.length > limit ? { runs, next: shown[shown.length - 1]!.id } : { runs };
}
