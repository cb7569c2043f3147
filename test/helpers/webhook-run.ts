import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../src/service/db/index.js';

type Delivery = Insertable<Database['webhook_deliveries']>;

/**
 * A company's webhook at `url` with one delivery of an event of a case, written straight to the
 * database: a page test's run (delivered, failed or waiting to be tried again) without a
 * receiver or a relay.
 */
export async function webhookRun(
  db: Kysely<Database>,
  run: {
    company: string;
    url: string;
    caseId: string;
    eventId: string;
    trigger: string;
    /** Off: no later event of the test goes to it. */
    active?: boolean;
  } & Pick<Delivery, 'status' | 'attempts' | 'last_status' | 'last_error' | 'next_attempt_at'>,
): Promise<{ webhookId: string; deliveryId: string }> {
  const hook = await db
    .insertInto('webhooks')
    .values({
      company_id: run.company,
      url: run.url,
      active: run.active ?? true,
      headers: '{}',
      triggers: JSON.stringify(['*']),
      secret: 'whsec',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const delivery = await db
    .insertInto('webhook_deliveries')
    .values({
      company_id: run.company,
      webhook_id: hook.id,
      event_id: run.eventId,
      case_id: run.caseId,
      trigger: run.trigger,
      body: '{}',
      status: run.status,
      attempts: run.attempts,
      next_attempt_at: run.next_attempt_at ?? null,
      last_status: run.last_status ?? null,
      last_error: run.last_error ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { webhookId: hook.id, deliveryId: delivery.id };
}
