import { sql, type Kysely } from 'kysely';
import type { Logger } from '../../base/log/index.js';
import type { Database } from '../db/index.js';
import { readFlowContext, waitingPeople } from './flow-context.js';
import { planFlowMessages } from './message-ledger.js';
import { sendMessages, type MessageDeps } from './send-messages.js';

/** Flows taken per tick, as cases are: a backlog is worked off over a few ticks. */
const BATCH = 200;

/**
 * Ends every running web-flow whose expiry has passed: `expired`, no reminder due. Its links
 * stopped working at the expiry already (the answer page and the view read `expires_at`); this
 * makes the row say so, for lists and the dashboard. No webhook trigger names a flow's expiry.
 */
export async function expireFlows(
  db: Kysely<Database>,
  now: Date,
  logger?: Logger,
): Promise<number> {
  const ended = await db
    .updateTable('webflows')
    .set({
      state: 'expired',
      next_reminder_at: null,
      updated_at: sql<Date>`greatest(${now}::timestamptz, updated_at + interval '1 millisecond')`,
    })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webflows')
        .select('id')
        .where('state', 'in', ['pending', 'in_progress'])
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(BATCH),
    )
    .where('state', 'in', ['pending', 'in_progress'])
    .returning('id')
    .execute();
  if (ended.length > 0) logger?.info({ flows: ended.map((f) => f.id) }, 'web-flows expired');
  return ended.length;
}

/**
 * Sends the web-flow reminders that are due, as remind does for cases: per flow, the next
 * reminder's number taken and its messages planned (to the people who have not sent their
 * answers) in one transaction, so that a crash after it leaves them due in the ledger for the
 * next tick; then sent. The last reminder leaves no next one.
 */
export async function remindFlows(deps: MessageDeps): Promise<number> {
  const now = deps.now();
  const due = await deps.db
    .selectFrom('webflows')
    .select(['company_id', 'id'])
    .where('state', 'in', ['pending', 'in_progress'])
    .where('expires_at', '>', now)
    .where('next_reminder_at', '<=', now)
    .orderBy('next_reminder_at')
    .limit(BATCH)
    .execute();
  let reminded = 0;
  for (const f of due) {
    const flow = await readFlowContext(deps.db, f.company_id, f.id);
    if (!flow) continue;
    const ids = await deps.db.transaction().execute(async (trx) => {
      const taken = await trx
        .updateTable('webflows')
        .set((eb) => ({
          reminders_sent: eb('reminders_sent', '+', 1),
          next_reminder_at: sql<Date | null>`case when reminders_sent + 1 < ${flow.reminders.amount}
            then ${now}::timestamptz + make_interval(days => ${flow.reminders.daysBetween}) else null end`,
        }))
        .where('company_id', '=', f.company_id)
        .where('id', '=', f.id)
        .where('state', 'in', ['pending', 'in_progress'])
        .where('next_reminder_at', '<=', now)
        .returning('reminders_sent')
        .executeTakeFirst();
      if (!taken) return [];
      return planFlowMessages(
        trx,
        waitingPeople(flow).map((p) => ({
          company: f.company_id,
          flowId: f.id,
          flowRecipientId: p.id,
          kind: 'flow-reminder' as const,
          sequence: taken.reminders_sent,
          toAddress: p.email,
        })),
        now,
      );
    });
    if (ids.length === 0) continue;
    await sendMessages(deps, ids);
    reminded += 1;
  }
  return reminded;
}
