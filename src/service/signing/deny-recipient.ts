import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { CASE_DENIED, eventCase, writeSigningEvent } from './signing-events.js';
import { linkNotFound, SigningFailure } from './signing-failure.js';
import { readSigningSession } from './signing-session.js';

/** The reason for denying is read by the sender and kept in the case: a few sentences. */
export const MAX_DENIAL_REASON_CHARS = 1000;

export interface DenyOutcome {
  company: string;
  caseId: string;
  recipientId: string;
  deniedAt: Date;
}

/**
 * A signer denies with a reason, which ends the case as denied (DESIGN.md "States"): the
 * recipient becomes denied, the case denied with no active group, and `case.denied` is written
 * to the outbox, in one transaction under the case's lock. A signer may deny before their group
 * is active (they need not wait to say no); a recipient who only receives a copy cannot.
 * `reason` was checked by the caller (shownText).
 */
export async function denyRecipient(
  db: Kysely<Database>,
  token: string,
  reason: string,
  context: { ip: string; userAgent: string; now: Date },
): Promise<DenyOutcome> {
  const { now } = context;
  return db.transaction().execute(async (trx) => {
    const session = await readSigningSession(trx, token, now, { lock: true });
    if (!session) throw linkNotFound();
    if (!session.recipient.signing)
      throw new SigningFailure(
        'not-signing',
        'You receive a copy of this case; there is nothing for you to deny.',
      );
    const { company, caseId } = session;
    const recipient = await trx
      .updateTable('recipients')
      .set({
        status: 'denied',
        acted_at: now,
        denial_reason: reason,
        acted_ip: context.ip,
        updated_at: now,
      })
      .where('id', '=', session.recipient.id)
      .returning(['uid', 'name'])
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('cases')
      .set({ state: 'denied', active_group: null, updated_at: now })
      .where('company_id', '=', company)
      .where('id', '=', caseId)
      .execute();
    await writeSigningEvent(
      trx,
      company,
      caseId,
      CASE_DENIED,
      {
        case: eventCase(caseId, session.title, 'denied', null, now),
        recipient: {
          id: session.recipient.id,
          uid: recipient.uid,
          name: recipient.name,
          status: 'denied',
          at: now.toISOString(),
        },
        reason,
        ip: context.ip,
      },
      now,
    );
    return { company, caseId, recipientId: session.recipient.id, deniedAt: now };
  });
}
