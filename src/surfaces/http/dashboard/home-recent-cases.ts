import type { Kysely } from 'kysely';
import { searchCases, type CaseListRow } from '../../../service/cases/index.js';
import type { Database } from '../../../service/db/index.js';

/** A case as the dashboard's lists show it. */
export type RecentCase = CaseListRow;

/**
 * The company's `limit` most recent cases, newest first: the case list's own query (its first
 * page, nothing filtered), so that the home page and /dashboard/cases cannot disagree.
 */
export async function recentCases(
  db: Kysely<Database>,
  company: string,
  limit: number,
): Promise<RecentCase[]> {
  return (await searchCases(db, company, { limit })).cases;
}
