import type { Kysely } from 'kysely';
import type { CaseState } from '../../../service/cases/index.js';
import type { Database } from '../../../service/db/index.js';

/** A case as the dashboard's lists show it. */
export interface RecentCase {
  id: string;
  title: string;
  state: CaseState;
  /** Its signers (recipients who sign) who have signed, and all its signers. */
  signed: number;
  signers: number;
  createdAt: Date;
}

/**
 * The company's `limit` most recent cases, newest first. The cases are read through the list's
 * index (cases_company_created: company_id, created_at desc, id desc), and each case's signers
 * through recipients_case_uid (company_id, case_id, ...), so that the page costs the same with
 * 100,000 cases as with ten.
 */
export async function recentCases(
  db: Kysely<Database>,
  company: string,
  limit: number,
): Promise<RecentCase[]> {
  const rows = await db
    .selectFrom('cases as c')
    .select(['c.id', 'c.title', 'c.state', 'c.created_at'])
    .select((eb) => [
      eb
        .selectFrom('recipients as r')
        .select((r) => r.fn.countAll<string>().as('n'))
        .whereRef('r.company_id', '=', 'c.company_id')
        .whereRef('r.case_id', '=', 'c.id')
        .where('r.signing', '=', true)
        .as('signers'),
      eb
        .selectFrom('recipients as r')
        .select((r) => r.fn.countAll<string>().as('n'))
        .whereRef('r.company_id', '=', 'c.company_id')
        .whereRef('r.case_id', '=', 'c.id')
        .where('r.signing', '=', true)
        .where('r.status', '=', 'signed')
        .as('signed'),
    ])
    .where('c.company_id', '=', company)
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    state: row.state,
    signed: Number(row.signed ?? 0),
    signers: Number(row.signers ?? 0),
    createdAt: row.created_at,
  }));
}
