import type { Kysely } from 'kysely';
import type { Database } from '../../../service/db/index.js';
import { flowCaseCreatorKey } from '../../../service/webflows/index.js';

/** What every web-flow's creating key starts with (`webflow:<flow id>`). */
const PREFIX = flowCaseCreatorKey('');

/**
 * The web-flow that made each of these cases, by case id: a completed flow's case has
 * `webflow:<flow id>` as its creating key, which is no API key, so the case list's read names no
 * creator for it. Read here by the cases' primary key until service/cases answers it itself.
 */
export async function flowCreators(
  db: Kysely<Database>,
  company: string,
  caseIds: readonly string[],
): Promise<Map<string, string>> {
  if (caseIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('cases')
    .select(['id', 'created_by_key'])
    .where('company_id', '=', company)
    .where('id', 'in', caseIds)
    .where('created_by_key', 'like', `${PREFIX}%`)
    .execute();
  return new Map(rows.map((r) => [r.id, (r.created_by_key ?? '').slice(PREFIX.length)]));
}
