import type { Kysely } from 'kysely';
import { DocpipeError } from '../../base/errors/index.js';
import type { Database } from '../db/index.js';
import { signingTokenFor, signingUrl } from './signing-token.js';

/** Who takes the link: the member the audit record names. */
export interface LinkTaker {
  userId: string;
  name: string;
}

/** A pending recipient's signing link, as the invitation carries it, and whose it is. */
export interface TakenSigningLink {
  url: string;
  recipient: { id: string; name: string };
}

/**
 * A pending signer's signing link of an open case, written again from the installation's
 * signing secret exactly as delivery writes it into invitations and reminders (signingTokenFor,
 * signingUrl), for a member to hand over another way. Taking it is written to the case's audit
 * records (case_audit) in the same transaction that reads it, so no link leaves without its
 * record; it is no event of the outbox, so no webhook hears of it (a receiver has no business
 * knowing a link was copied). Refusals are typed: `case-not-found` (not the company's case or
 * recipient), `validation-failed` naming `state` (not open), `recipientId` (not a pending
 * signer) or `signingSecret` (the case was made under another secret: the link cannot be written
 * again; the one it was created with still works).
 */
export async function takeSigningLink(
  db: Kysely<Database>,
  options: {
    company: string;
    caseId: string;
    recipientId: string;
    taker: LinkTaker;
    secret: string;
    publicUrl: string;
    now?: Date;
  },
): Promise<TakenSigningLink> {
  const { company, caseId, recipientId } = options;
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('recipients')
      .innerJoin('cases', (j) =>
        j
          .onRef('cases.id', '=', 'recipients.case_id')
          .onRef('cases.company_id', '=', 'recipients.company_id'),
      )
      .innerJoin('companies', 'companies.id', 'cases.company_id')
      .select([
        'recipients.id',
        'recipients.name',
        'recipients.status',
        'recipients.signing',
        'recipients.signing_token_hash',
        'cases.state',
        'companies.signing_domain',
      ])
      .where('recipients.company_id', '=', company)
      .where('recipients.case_id', '=', caseId)
      .where('recipients.id', '=', recipientId)
      .executeTakeFirst();
    if (!row)
      throw new DocpipeError('case-not-found', [
        { field: 'recipientId', message: `the case ${caseId} has no recipient ${recipientId}` },
      ]);
    if (row.state !== 'open')
      throw new DocpipeError('validation-failed', [
        { field: 'state', message: `the case is ${row.state}: only an open case's links work` },
      ]);
    if (!row.signing || row.status !== 'pending')
      throw new DocpipeError('validation-failed', [
        {
          field: 'recipientId',
          message: row.signing
            ? `the recipient has ${row.status}: their link is spent`
            : 'the recipient receives a copy and has no signing link',
        },
      ]);
    const { token, hash } = signingTokenFor(options.secret, row.id);
    if (!hash.equals(row.signing_token_hash))
      throw new DocpipeError('validation-failed', [
        {
          field: 'signingSecret',
          message:
            'the signing link cannot be written again: the case was made with another signing secret; the link it was created with still works',
        },
      ]);
    await trx
      .insertInto('case_audit')
      .values({
        company_id: company,
        case_id: caseId,
        action: 'signing-link-taken',
        user_id: options.taker.userId,
        user_name: options.taker.name,
        recipient_id: row.id,
        ...(options.now ? { created_at: options.now } : {}),
      })
      .execute();
    return {
      url: signingUrl(row.signing_domain, options.publicUrl, token),
      recipient: { id: row.id, name: row.name },
    };
  });
}
