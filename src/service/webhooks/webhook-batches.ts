import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from './webhook-settings.js';
import { batcherFor, StatementBatcher } from './statement-batcher.js';

/**
 * The statements of dispatching and trying deliveries, each made once for a batch of events or
 * tries (statement-batcher.ts): a company's webhooks read once for all its events in the batch,
 * the deliveries of many events inserted by one statement, many tries recorded by one.
 */

/** A company's active webhooks, as a dispatch reads them. */
export interface ActiveWebhook {
  id: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  secret: string;
  triggers: string[];
}

type Db = Kysely<Database>;

const batchOf = (settings: WebhookSettings) =>
  settings.batchSize ?? DEFAULT_WEBHOOK_SETTINGS.batchSize ?? 1;

const hooksCache = new WeakMap<Db, Map<number, StatementBatcher<string, ActiveWebhook[]>>>();

/** The active webhooks of `company`, read with those of the other companies of the batch. */
export function activeWebhooksOf(
  db: Db,
  settings: WebhookSettings,
  company: string,
): Promise<ActiveWebhook[]> {
  return batcherFor(
    hooksCache,
    db,
    batchOf(settings),
    (max) =>
      new StatementBatcher<string, ActiveWebhook[]>(async (companies) => {
        const rows = await db
          .selectFrom('webhooks')
          .select(['id', 'company_id', 'url', 'method', 'headers', 'secret', 'triggers'])
          .where('company_id', 'in', [...new Set(companies)])
          .where('active', '=', true)
          // The order a company's webhooks are tried in, whatever the batch.
          .orderBy('created_at')
          .orderBy('id')
          .execute();
        return companies.map((c) =>
          rows.filter((r) => r.company_id === c).map(({ company_id: _, ...w }) => w),
        );
      }, max),
  ).add(company);
}

export type NewDelivery = Insertable<Database['webhook_deliveries']>;
export interface MadeDelivery {
  id: string;
  webhook_id: string;
  created_at: Date;
}

const insertCache = new WeakMap<
  Db,
  Map<number, StatementBatcher<readonly NewDelivery[], MadeDelivery[]>>
>();

/**
 * Inserts one event's deliveries (one per webhook; none where the event and webhook have one
 * already), with the other events' of the batch in one statement; answers the ones made now.
 * The same event dispatched twice in one batch makes its deliveries once: a row the statement
 * returns goes to the first of the two only.
 */
export function insertDeliveries(
  db: Db,
  settings: WebhookSettings,
  rows: readonly NewDelivery[],
): Promise<MadeDelivery[]> {
  if (rows.length === 0) return Promise.resolve([]);
  return batcherFor(
    insertCache,
    db,
    batchOf(settings),
    (max) =>
      new StatementBatcher<readonly NewDelivery[], MadeDelivery[]>(async (events) => {
        const made = await db
          .insertInto('webhook_deliveries')
          .values(events.flat())
          .onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing())
          .returning(['id', 'webhook_id', 'event_id', 'created_at'])
          .execute();
        const byKey = new Map(made.map((m) => [`${m.webhook_id}|${m.event_id}`, m]));
        return events.map((rowsOfEvent) =>
          rowsOfEvent.flatMap((r) => {
            const key = `${r.webhook_id}|${r.event_id}`;
            const m = byKey.get(key);
            if (!m) return [];
            byKey.delete(key);
            return [{ id: m.id, webhook_id: m.webhook_id, created_at: m.created_at }];
          }),
        );
      }, max),
  ).add(rows);
}

/** One try, and the state its delivery is left in. */
export interface TryRecord {
  deliveryId: string;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  status: number | null;
  error: string | null;
  response: string | null;
  deliveryStatus: 'pending' | 'succeeded' | 'failed';
  nextAttemptAt: Date | null;
  updatedAt: Date;
}

const recordCache = new WeakMap<Db, Map<number, StatementBatcher<TryRecord, void>>>();

/**
 * Records a try and its delivery's new state, with the other tries of the batch, in one
 * statement: the tries inserted, each delivery updated while its try count is the try's (a
 * delivery another worker moved on is left as that worker left it), all or nothing.
 */
export function recordTry(db: Db, settings: WebhookSettings, record: TryRecord): Promise<void> {
  return batcherFor(
    recordCache,
    db,
    batchOf(settings),
    (max) =>
      new StatementBatcher<TryRecord, void>(async (tries) => {
        const values = sql.join(
          tries.map(
            (t) =>
              sql`(${t.deliveryId}::uuid, ${t.attempt}::int, ${t.startedAt}::timestamptz, ${t.durationMs}::int, ${t.status}::int, ${t.error}::text, ${t.response}::text, ${t.deliveryStatus}::text, ${t.nextAttemptAt}::timestamptz, ${t.updatedAt}::timestamptz)`,
          ),
        );
        await sql`
          with v (delivery_id, attempt, started_at, duration_ms, status, error, response, delivery_status, next_attempt_at, updated_at) as (values ${values}),
          tried as (
            insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, status, error, response)
            select delivery_id, attempt, started_at, duration_ms, status, error, response from v
            returning attempt
          )
          update webhook_deliveries d
          set status = v.delivery_status, last_status = v.status, last_error = v.error,
              next_attempt_at = v.next_attempt_at, updated_at = v.updated_at
          from v
          where d.id = v.delivery_id and d.attempts = v.attempt`.execute(db);
        return tries.map(() => undefined);
      }, max),
  ).add(record);
}
