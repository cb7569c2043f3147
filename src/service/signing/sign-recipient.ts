import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { activeGroupOf } from './active-group.js';
import { eventCase, RECIPIENT_SIGNED, writeSigningEvent } from './signing-events.js';
import { linkNotFound, SigningFailure } from './signing-failure.js';
import { DRAW } from './signing-methods.js';
import { readSessionOf, readSigningSession, type SigningSession } from './signing-session.js';
import { typedNameMatches } from './typed-name.js';

/** What an eID broker said of the person who logged in (service/eid), kept with the signature. */
export interface EidIdentity {
  scheme: string;
  subject: string;
  /** The broker's claims, bounded and without the CPR number. */
  claims: Record<string, unknown>;
  /** The CPR number the broker returned, compared and then dropped; never stored. */
  cpr?: string;
}

/** The mark a recipient signs with. */
export type SignatureMark =
  | { method: 'draw'; image: Buffer }
  | { method: 'typed'; name: string }
  | { method: 'eid'; identity: EidIdentity };

export interface SignContext {
  ip: string;
  userAgent: string;
  now: Date;
  /** The documents the page says were paged through to their end (`documentMustBeRead`). */
  documentsRead?: readonly number[];
  /**
   * Whether `cpr` is the recipient's own, stored encrypted: the caller holds the CPR key (and
   * answers undefined when the recipient gave no number).
   */
  cprMatches?: (encrypted: Buffer, company: string, cpr: string) => boolean;
}

/** How the case stands after a signature. */
export interface SignOutcome {
  company: string;
  caseId: string;
  recipientId: string;
  /** The group that signs next; null when every signer has signed. */
  activeGroup: number | null;
  /** Every signer has signed: sealing is due. */
  completed: boolean;
  signedAt: Date;
  /** The case's language, for the page that follows. */
  language: string;
  /** The recipient's http(s) `redirectUrl`: the page goes there after signing. */
  redirectUrl: string | null;
}

/** Who is signing: the token of the link, or the recipient an eID login came back for. */
export type Signer = { token: string } | { company: string; caseId: string; recipientId: string };

/**
 * Records a recipient's signature, in one transaction with everything it changes: the recipient
 * becomes signed, the case's active group moves on (or the case is complete and sealing due),
 * and `recipient.signed` is written to the outbox. The case row and then the recipients' rows
 * are locked first, so two signatures at once (two tabs, a retried request, two signers of one
 * group) are taken one after the other: the second finds the recipient signed and gets the
 * link-not-found answer, and one signature is recorded (the table's key is the recipient).
 */
export async function signRecipient(
  db: Kysely<Database>,
  signer: Signer,
  mark: SignatureMark,
  context: SignContext,
): Promise<SignOutcome> {
  const { now } = context;
  return db.transaction().execute(async (trx) => {
    const session =
      'token' in signer
        ? await readSigningSession(trx, signer.token, now, { lock: true })
        : await readSessionOf(trx, signer.company, signer.caseId, signer.recipientId, now, {
            lock: true,
          });
    if (!session) throw linkNotFound();
    checkMaySign(session, mark, context);
    const { company, caseId } = session;
    const recipientId = session.recipient.id;

    let cprMatched: boolean | null = null;
    if (mark.method === 'eid' && session.recipient.needsCpr) {
      const stored = await trx
        .selectFrom('recipients')
        .select('cpr_encrypted')
        .where('id', '=', recipientId)
        .executeTakeFirstOrThrow();
      // Fails closed: no stored number (a case from before creation refused that), no CPR claim
      // from the broker, or no key to read the stored one with is no match.
      const claimed = mark.identity.cpr;
      cprMatched =
        stored.cpr_encrypted !== null &&
        claimed !== undefined &&
        context.cprMatches !== undefined &&
        context.cprMatches(stored.cpr_encrypted, company, claimed);
      if (!cprMatched)
        throw new SigningFailure(
          'identity-mismatch',
          'The eID you logged in with is not proved to be the person this case is for (its CPR number is not the one the sender gave). Nothing was signed.',
        );
    }

    const inserted = await trx
      .insertInto('signatures')
      .values({
        recipient_id: recipientId,
        company_id: company,
        case_id: caseId,
        method: mark.method === 'eid' ? mark.identity.scheme : mark.method,
        typed_name: mark.method === 'typed' ? mark.name : null,
        image: mark.method === 'draw' ? mark.image : null,
        identity:
          mark.method === 'eid'
            ? JSON.stringify({ subject: mark.identity.subject, claims: mark.identity.claims })
            : null,
        cpr_matched: cprMatched,
        ip: context.ip,
        user_agent: context.userAgent,
        signed_at: now,
      })
      .onConflict((c) => c.column('recipient_id').doNothing())
      .returning('recipient_id')
      .executeTakeFirst();
    if (!inserted) throw linkNotFound();

    const recipient = await trx
      .updateTable('recipients')
      .set({ status: 'signed', acted_at: now, updated_at: now })
      .where('id', '=', recipientId)
      .returning(['uid', 'name'])
      .executeTakeFirstOrThrow();
    const members = await trx
      .selectFrom('recipients')
      .select(['name', 'group', 'signing', 'status'])
      .where('company_id', '=', company)
      .where('case_id', '=', caseId)
      .execute();
    const activeGroup = activeGroupOf(members);
    const completed = activeGroup === null;
    await trx
      .updateTable('cases')
      .set({
        active_group: activeGroup,
        updated_at: now,
        ...(completed ? { completed_at: now } : {}),
      })
      .where('company_id', '=', company)
      .where('id', '=', caseId)
      .execute();
    await writeSigningEvent(
      trx,
      company,
      caseId,
      RECIPIENT_SIGNED,
      {
        case: { ...eventCase(caseId, session.title, 'open', activeGroup, now), completed },
        recipient: {
          id: recipientId,
          uid: recipient.uid,
          name: recipient.name,
          status: 'signed',
          method: mark.method === 'eid' ? mark.identity.scheme : mark.method,
          at: now.toISOString(),
        },
      },
      now,
    );
    return {
      company,
      caseId,
      recipientId,
      activeGroup,
      completed,
      signedAt: now,
      language: session.language,
      redirectUrl: session.recipient.redirectUrl,
    };
  });
}

/** The checks of a signature against its session, before anything is written. */
function checkMaySign(session: SigningSession, mark: SignatureMark, context: SignContext): void {
  if (!session.recipient.signing)
    throw new SigningFailure(
      'not-signing',
      'You receive a copy of this case; there is nothing for you to sign.',
    );
  if (!session.mayAct)
    throw new SigningFailure(
      'not-your-turn',
      `It is not your turn to sign yet: the case is waiting for ${session.waitingFor.join(', ')}.`,
      { waitingFor: session.waitingFor },
    );
  const method = mark.method === 'eid' ? mark.identity.scheme : DRAW;
  if (session.recipient.needsCpr && mark.method !== 'eid')
    throw new SigningFailure(
      'invalid',
      'This case must be signed with an eID that proves who you are (your CPR number).',
      {
        details: [
          {
            field: 'method',
            message: `must be an eID: the recipient's CPR number is checked (needsCpr), which a ${mark.method === 'typed' ? 'typed' : 'drawn'} signature cannot do`,
          },
        ],
      },
    );
  if (!session.recipient.methods.includes(method))
    throw new SigningFailure('invalid', `This case is not signed with ${method}.`, {
      details: [
        {
          field: 'method',
          message: `is not one of this recipient's methods (${session.recipient.methods.join(', ')})`,
        },
      ],
    });
  if (mark.method === 'typed' && !typedNameMatches(mark.name, session.recipient.name))
    throw new SigningFailure('invalid', 'A typed signature must be your name as the case has it.', {
      details: [
        {
          field: 'name',
          message: `must be ${session.recipient.name} (the name the case has for you), middle names may be added; to sign as someone else, ask the sender to change the case`,
        },
      ],
    });
  const read = new Set(context.documentsRead ?? []);
  const unread = session.documents.filter(
    (d) => d.mustBeRead && d.storageKey !== null && !read.has(d.index),
  );
  if (unread.length > 0)
    throw new SigningFailure(
      'invalid',
      'Some documents must be read to their end before signing.',
      {
        details: unread.map((d) => ({
          field: `documentsRead`,
          message: `must include ${d.index} (${d.name}): it must be read before signing`,
        })),
      },
    );
}
