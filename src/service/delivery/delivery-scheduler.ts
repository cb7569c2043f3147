import { sql, type Kysely } from 'kysely';
import type { Logger } from '../../base/log/index.js';
import { writeCaseEvent } from '../cases/index.js';
import type { Database } from '../db/index.js';
import { readCaseContext, waitingSigners } from './case-context.js';
import { CASE_EXPIRED } from './event-triggers.js';
import { expireFlows, remindFlows } from './flow-schedule.js';
import { dueMessages, planMessages } from './message-ledger.js';
import { sendMessages, type MessageDeps } from './send-messages.js';

/** Cases and messages taken per tick: a backlog is worked off over a few ticks. */
const BATCH = 200;

/** What one tick did. */
export interface TickReport {
  expired: number;
  reminded: number;
  /** Web-flows past their expiry, now `expired`. */
  flowsExpired: number;
  /** Web-flows that sent a reminder. */
  flowsReminded: number;
  retried: number;
}

/**
 * The clock's work, run by one worker at a time (the caller holds a lock): cases past their
 * expiry become `expired` with their `case.expired` event (their links stop working); cases
 * whose next reminder is due get it (to the signers the case waits for), and their next is set;
 * web-flows expire and remind the same way (flow-schedule.ts); messages due (a worker died
 * before sending them, or a failed one's next try) are sent. Every
 * step is written in PostgreSQL before it is acted on, so a restart loses none and repeats none.
 * `deps.now` is the clock: tests move it days ahead without waiting.
 */
export async function runSchedule(deps: MessageDeps): Promise<TickReport> {
  const expired = await expireCases(deps.db, deps.now(), deps.logger);
  const reminded = await remind(deps);
  const flowsExpired = await expireFlows(deps.db, deps.now(), deps.logger);
  const flowsReminded = await remindFlows(deps);
  const due = await dueMessages(deps.db, deps.now(), BATCH);
  const sent = await sendMessages(deps, due);
  return { expired, reminded, flowsExpired, flowsReminded, retried: sent.length };
}

/** Ends every open case whose expiry has passed, each with its event, in one transaction. */
export async function expireCases(
  db: Kysely<Database>,
  now: Date,
  logger?: Logger,
): Promise<number> {
  const ended = await db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('cases')
      .select(['company_id', 'id'])
      .where('state', '=', 'open')
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(BATCH)
      .forUpdate()
      .skipLocked()
      .execute();
    if (due.length === 0) return [];
    const rows = await trx
      .updateTable('cases')
      .set({
        state: 'expired',
        expired_at: now,
        next_reminder_at: null,
        updated_at: sql<Date>`greatest(${now}::timestamptz, updated_at + interval '1 millisecond')`,
      })
      .where(
        'id',
        'in',
        due.map((d) => d.id),
      )
      .where('state', '=', 'open')
      .returning(['company_id', 'id'])
      .execute();
    // One at a time: each event carries its case's status (writeCaseEvent), recipients and all.
    for (const r of rows)
      await writeCaseEvent(trx, {
        company: r.company_id,
        caseId: r.id,
        trigger: CASE_EXPIRED,
        at: now,
      });
    return rows;
  });
  if (ended.length > 0) logger?.info({ cases: ended.map((c) => c.id) }, 'cases expired');
  return ended.length;
}

/**
 * Sends the reminders that are due: for each case, the next reminder's number is taken and its
 * messages planned in one transaction (so a crash after it leaves them due in the ledger, sent
 * by the next tick), then sent.
 */
async function remind(deps: MessageDeps): Promise<number> {
  const now = deps.now();
  const due = await deps.db
    .selectFrom('cases')
    .select(['company_id', 'id'])
    .where('state', '=', 'open')
    .where('next_reminder_at', '<=', now)
    .orderBy('next_reminder_at')
    .limit(BATCH)
    .execute();
  let reminded = 0;
  for (const c of due) {
    const context = await readCaseContext(deps.db, c.company_id, c.id);
    if (!context) continue;
    const ids = await deps.db.transaction().execute(async (trx) => {
      const taken = await trx
        .updateTable('cases')
        .set((eb) => ({
          reminders_sent: eb('reminders_sent', '+', 1),
          next_reminder_at: sql<Date | null>`case when reminders_sent + 1 < ${context.reminders.amount}
            then ${now}::timestamptz + make_interval(days => ${context.reminders.daysBetween}) else null end`,
        }))
        .where('company_id', '=', c.company_id)
        .where('id', '=', c.id)
        .where('state', '=', 'open')
        .where('next_reminder_at', '<=', now)
        .returning('reminders_sent')
        .executeTakeFirst();
      if (!taken) return [];
      return planMessages(
        trx,
        waitingSigners(context).map((r) => ({
          company: c.company_id,
          caseId: c.id,
          recipientId: r.id,
          channel: r.type,
          kind: 'reminder' as const,
          sequence: taken.reminders_sent,
          toAddress: r.type === 'sms' ? r.phone : r.type === 'email' ? r.email : null,
        })),
        now,
      );
    });
    if (ids.length === 0) continue;
    await sendMessages(deps, ids, context);
    reminded += 1;
  }
  return reminded;
}
