import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { recipientOfToken } from './token-recipient.js';

/** What a recipient's signing page shows, found by the token of their link. */
export interface SigningView {
  company: string;
  caseId: string;
  title: string;
  state: 'draft' | 'open' | 'signed' | 'denied' | 'expired';
  /** The case's language (`da`, `en`, ...): the page's words. */
  language: string;
  recipient: { name: string; status: 'pending' | 'signed' | 'denied'; signing: boolean };
  /** In the case's order; `storageKey` null for a document kept only by its URL. */
  documents: { index: number; name: string; pages: number | null; storageKey: string | null }[];
}

/**
 * The signing page's view of the recipient whose link carries `token`, or undefined when no
 * recipient has it (wrong, absent or malformed alike: the caller answers them the same). Only the
 * token's SHA-256 is stored, so the lookup is by hash; the token is the capability, which is
 * why this first read names no company, and the documents' read then names the recipient's.
 */
export async function readSigningView(
  db: Kysely<Database>,
  token: string,
): Promise<SigningView | undefined> {
  const row = await recipientOfToken(db, token)
    ?.select([
      'recipients.company_id',
      'recipients.case_id',
      'recipients.name',
      'recipients.status',
      'recipients.signing',
      'cases.title',
      'cases.state',
      'cases.language',
    ])
    .executeTakeFirst();
  if (!row) return undefined;
  const documents = await db
    .selectFrom('case_documents')
    .select(['index', 'name', 'pages', 'storage_key'])
    .where('company_id', '=', row.company_id)
    .where('case_id', '=', row.case_id)
    .orderBy('index')
    .execute();
  return {
    company: row.company_id,
    caseId: row.case_id,
    title: row.title,
    state: row.state,
    language: row.language,
    recipient: { name: row.name, status: row.status, signing: row.signing },
    documents: documents.map((d) => ({
      index: d.index,
      name: d.name,
      pages: d.pages,
      storageKey: d.storage_key,
    })),
  };
}
