import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { isUuid } from './webhook-records.js';
import { requestHeaders } from './webhook-request-headers.js';
import type { WebhookRunSummary } from './webhook-run-list.js';

/** One try of a run, with the request it sent and the start of the answer. */
export interface WebhookRunTry {
  attempt: number;
  startedAt: Date;
  durationMs: number;
  status: number | null;
  error: string | null;
  /** The answer's first kilobyte (RESPONSE_KEPT_BYTES); null when no answer came. */
  response: string | null;
  /** The request's headers: docpipe's four as sent, and the webhook's own. */
  headers: Record<string, string>;
  /**
   * The webhook was changed after this try (edited, its secret rotated, switched on or off): its
   * own headers and the signature are shown as a try would send them now.
   */
  changedSince: boolean;
}

export interface WebhookRunDetail extends WebhookRunSummary {
  eventId: string;
  /** The request's body: the same bytes on every try. */
  body: string;
  /** Its tries, newest first. */
  tries: WebhookRunTry[];
}

/**
 * A run (one delivery) of a company's webhook, with every try: what was sent and what came back.
 * The tries' headers are built by the function the delivery sends them with, from the try's
 * time (the signed timestamp is its start, in seconds) and the webhook's headers and secret.
 * Undefined when the company has no such webhook or run.
 */
export async function findWebhookRun(
  db: Kysely<Database>,
  company: string,
  webhookId: string,
  deliveryId: string,
): Promise<WebhookRunDetail | undefined> {
  if (!isUuid(webhookId) || !isUuid(deliveryId)) return undefined;
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select([
      'd.id',
      'd.event_id',
      'd.trigger',
      'd.case_id',
      'd.body',
      'd.created_at',
      'd.status',
      'd.attempts',
      'd.last_status',
      'd.last_error',
      'w.headers',
      'w.secret',
      'w.updated_at as webhook_updated_at',
    ])
    .where('d.id', '=', deliveryId)
    .where('d.webhook_id', '=', webhookId)
    .where('d.company_id', '=', company)
    .where('w.company_id', '=', company)
    .executeTakeFirst();
  if (!row) return undefined;
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempt', 'desc')
    .execute();
  const source = {
    deliveryId: row.id,
    trigger: row.trigger,
    body: row.body,
    webhook: { headers: row.headers, secret: row.secret },
  };
  return {
    deliveryId: row.id,
    eventId: row.event_id,
    trigger: row.trigger,
    caseId: row.case_id,
    createdAt: row.created_at,
    status: row.status,
    attempts: row.attempts,
    lastStatus: row.last_status,
    lastError: row.last_error,
    durationMs: attempts[0]?.duration_ms ?? null,
    body: row.body,
    tries: attempts.map((a) => ({
      attempt: a.attempt,
      startedAt: a.started_at,
      durationMs: a.duration_ms,
      status: a.status,
      error: a.error,
      response: a.response,
      headers: requestHeaders(source, Math.floor(a.started_at.getTime() / 1000)),
      changedSince: row.webhook_updated_at.getTime() > a.started_at.getTime(),
    })),
  };
}
