import type { Kysely } from 'kysely';
import { recipientOfToken } from '../cases/index.js';
import type { Database } from '../db/index.js';

/** What a used link tells the recipient who signed with it: what they signed, and what comes next. */
export interface SignedReceipt {
  title: string;
  /** The case's language (`da`, `en`, ...). */
  language: string;
  sender: { name: string; email: string };
  signedAt: Date;
  /**
   * Where the case stands: `waiting` for other signers, `sealing` (every signer signed, the seal
   * job at work), `sealed` (the signed copy has gone out).
   */
  stage: 'waiting' | 'sealing' | 'sealed';
  /** How the recipient is reached, so how the signed copy's notice reaches them. */
  channel: 'email' | 'sms' | 'eboks';
  /** Whether a document of the case was given by another host's URL: signed by reference, never sealed. */
  byReference: boolean;
}

/**
 * The receipt a signing link opens once its recipient has signed with it, or undefined. Only the
 * link itself opens it (the token is the credential, 256 random bits, looked up by its SHA-256
 * as a live link is), so it tells a guesser nothing a wrong token does not; and it opens nothing
 * to act on: a used link still signs and denies nothing (readSigningSession stays undefined).
 * Every other used or dead link stays the one undefined: a recipient who denied, a copy
 * recipient, and a case that was denied, expired or deleted (the case ended otherwise than by
 * the signatures; docs/signing.md says why those stay alike).
 */
export async function readSignedReceipt(
  db: Kysely<Database>,
  token: string,
  now: Date,
): Promise<SignedReceipt | undefined> {
  const row = await recipientOfToken(db, token)
    ?.select([
      'recipients.status',
      'recipients.signing',
      'recipients.type',
      'recipients.acted_at',
      'cases.title',
      'cases.language',
      'cases.state',
      'cases.completed_at',
      'cases.expires_at',
      'cases.sender_name',
      'cases.sender_email',
    ])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('case_documents')
            .select('case_documents.index')
            .whereRef('case_documents.company_id', '=', 'recipients.company_id')
            .whereRef('case_documents.case_id', '=', 'recipients.case_id')
            .where('case_documents.storage_key', 'is', null),
        )
        .as('by_reference'),
    )
    .executeTakeFirst();
  if (!row || !row.signing || row.status !== 'signed' || row.acted_at === null) return undefined;
  let stage: SignedReceipt['stage'];
  if (row.state === 'signed') stage = 'sealed';
  else if (row.state !== 'open') return undefined;
  else if (row.completed_at !== null) stage = 'sealing';
  // Still waiting for others: past its expiry the case is over, as every link of it is.
  else if (row.expires_at.getTime() <= now.getTime()) return undefined;
  else stage = 'waiting';
  return {
    title: row.title,
    language: row.language,
    sender: { name: row.sender_name, email: row.sender_email },
    signedAt: row.acted_at,
    stage,
    channel: row.type,
    byReference: row.by_reference === true,
  };
}
