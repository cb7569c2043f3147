import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/index.js';
import { StatementBatcher, batcherFor } from '../webhooks/index.js';

/** What handling an event reads of its row. */
export type EventRow = Pick<
  Selectable<Database['case_events']>,
  'id' | 'company_id' | 'case_id' | 'flow_id' | 'trigger' | 'payload'
>;

const rows = new WeakMap<
  Kysely<Database>,
  Map<number, StatementBatcher<string, EventRow | undefined>>
>();

/**
 * An event's row from the outbox, read with the other events of the batch by one statement;
 * undefined when it is gone (its case deleted).
 */
export function readEventRow(
  db: Kysely<Database>,
  eventId: string,
  batchSize = 1,
): Promise<EventRow | undefined> {
  return batcherFor(
    rows,
    db,
    batchSize,
    (max) =>
      new StatementBatcher<string, EventRow | undefined>(async (ids) => {
        const found = await db
          .selectFrom('case_events')
          .select(['id', 'company_id', 'case_id', 'flow_id', 'trigger', 'payload'])
          .where('id', 'in', [...new Set(ids)])
          .execute();
        const byId = new Map(found.map((r) => [r.id, r]));
        return ids.map((id) => byId.get(id));
      }, max),
  ).add(eventId);
}
