import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';

/**
 * Makes an open case's next reminder due now: the delivery scheduler's next tick (delivery-
 * scheduler.ts `remind`) sends it to the signers still waiting, through the message ledger, as
 * any reminder, so that it is sent once and counted. False when the case is not the company's,
 * not open, or nobody is waiting to sign.
 */
export async function remindCaseNow(
  db: Kysely<Database>,
  company: string,
  id: string,
  now = new Date(),
): Promise<boolean> {
  const row = await db
    .updateTable('cases')
    .set({ next_reminder_at: now })
    .where('company_id', '=', company)
    .where('id', '=', id)
    .where('state', '=', 'open')
    .where('active_group', 'is not', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
