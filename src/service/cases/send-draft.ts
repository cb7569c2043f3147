import type { Kysely } from 'kysely';
import { chargeCase } from '../credits/index.js';
import { DocpipeError, type FailureDetail } from '../../base/errors/index.js';
import type { Database } from '../db/index.js';
import { CASE_SENT, DEFAULT_EXPIRES_IN_DAYS } from './case-defaults.js';
import { caseExpiry } from './case-expiry.js';
import { writeCaseEvent } from './case-status.js';
import { sendPlaceProblems } from './draft-places.js';
import { firstReminderAt, type ReminderSettings } from './reminder-schedule.js';

/** A draft made open, and the event that hands it to delivery. */
export interface SentDraft {
  eventId: string;
  activeGroup: number | null;
  expiresAt: Date;
}

/**
 * Opens a draft (`POST /v3/api/cases/{id}/send`): under the case's row lock, a draft with
 * recipients and documents (create rule 1 for an open case) becomes `open`, its links live from
 * now for `expiresInDays`, its reminders scheduled, and `case.sent` written with the change, so
 * that delivery invites its first group. Anything but a draft is `validation-failed` at `state`;
 * another company's or no case is `case-not-found`.
 */
export async function sendDraft(
  db: Kysely<Database>,
  company: string,
  caseId: string,
  eventId: string,
  now: Date,
  /** What the sent case costs from the company's credits; 0: nothing. */
  credits = 0n,
): Promise<SentDraft> {
  return db.transaction().execute(async (trx) => {
    const kase = await trx
      .selectFrom('cases')
      .select(['state', 'settings', 'active_group', 'title'])
      .where('company_id', '=', company)
      .where('id', '=', caseId)
      .forUpdate()
      .executeTakeFirst();
    if (!kase)
      throw new DocpipeError('case-not-found', [
        { field: 'id', message: `the company has no case ${caseId}` },
      ]);
    if (kase.state !== 'draft')
      throw new DocpipeError('validation-failed', [
        { field: 'state', message: `the case is ${kase.state}: only a draft is sent` },
      ]);
    const [recipients, documents] = await Promise.all([
      trx
        .selectFrom('recipients')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('company_id', '=', company)
        .where('case_id', '=', caseId)
        .executeTakeFirstOrThrow(),
      trx
        .selectFrom('case_documents')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('company_id', '=', company)
        .where('case_id', '=', caseId)
        .executeTakeFirstOrThrow(),
    ]);
    const problems: FailureDetail[] = [];
    if (Number(recipients.n) === 0)
      problems.push({ field: 'recipients', message: 'a case is sent to at least one recipient' });
    if (Number(documents.n) === 0)
      problems.push({ field: 'documents', message: 'a case is sent with at least one document' });
    // Once some document carries places, every signer needs one (draft-places.ts says why).
    problems.push(...(await sendPlaceProblems(trx, company, caseId)));
    if (problems.length > 0) throw new DocpipeError('validation-failed', problems);
    const settings = (kase.settings ?? {}) as {
      expiresInDays?: number;
      expiresAt?: string;
      reminders?: Partial<ReminderSettings>;
    };
    // Its lifetime counts from the send; a moment it was given stays that moment.
    const { expiresAt } = caseExpiry(settings, DEFAULT_EXPIRES_IN_DAYS, now);
    await trx
      .updateTable('cases')
      .set({
        state: 'open',
        expires_at: expiresAt,
        next_reminder_at: firstReminderAt(now, settings.reminders),
        updated_at: now,
      })
      .where('company_id', '=', company)
      .where('id', '=', caseId)
      .execute();
    await writeCaseEvent(trx, { id: eventId, company, caseId, trigger: CASE_SENT, at: now });
    // Last: the company's balance row stays locked only until the commit.
    await chargeCase(trx, company, caseId, credits);
    return { eventId, activeGroup: kase.active_group, expiresAt };
  });
}
