import { sql, type Kysely, type RawBuilder } from 'kysely';
import {
  decodeKeysetCursor,
  keysetCursorAt,
  keysetPage,
  olderThanCursor,
  type CaseSource,
  type Database,
} from '../db/index.js';
import type { CaseState } from './case-answer.js';
import { searchFolded } from './case-search-text.js';
import { flowOfCreatorKey } from './flow-creator-key.js';

/** What the dashboard's case list asks for; every field may be left out. */
export interface CaseSearch {
  state?: CaseState;
  folderId?: string;
  /** Made on or after this day (in `timeZone`), YYYY-MM-DD. */
  from?: string;
  /** Made on or before this day (in `timeZone`), YYYY-MM-DD. */
  to?: string;
  /**
   * The IANA zone whose days `from` and `to` name: the zone the dashboard shows its times in.
   * @defaultValue 'UTC'
   */
  timeZone?: string;
  /** A case-insensitive substring of the title, the reference, or a recipient's name or e-mail. */
  q?: string;
  /** The `next` of the page before: the cases older than its last. */
  cursor?: string;
  /** @defaultValue 50 */
  limit?: number;
}

/** A case as the dashboard's lists show it. */
export interface CaseListRow {
  id: string;
  title: string;
  state: CaseState;
  /** Its signers (recipients who sign) who have signed, and all its signers. */
  signed: number;
  signers: number;
  activeGroup: number | null;
  folderName: string;
  createdAt: Date;
  /**
   * The key's name, the member's, or the web-flow that made the case (its id); null when none
   * is known (or they were removed).
   */
  creator: { kind: 'key' | 'member'; name: string } | { kind: 'webflow'; flowId: string } | null;
  source: CaseSource | null;
}

export interface CaseListPage {
  cases: CaseListRow[];
  /** The cursor of the next (older) page; undefined on the last page. */
  next?: string;
}

const DEFAULT_LIMIT = 50;
/** Any more and one page's signer counts cost more than the list is worth to read at once. */
const MAX_LIMIT = 200;

/** LIKE's own characters in a search are matched as themselves. */
function likeEscaped(q: string): string {
  return q.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The search's state, folder, dates and cursor as conditions on the cases table (as `c`),
 * always at least one.
 */
function filters(search: CaseSearch): RawBuilder<boolean>[] {
  const col = (name: string) => sql.ref(`c.${name}`);
  const conditions: RawBuilder<boolean>[] = [sql<boolean>`true`];
  if (search.state) conditions.push(sql<boolean>`${col('state')} = ${search.state}`);
  if (search.folderId) conditions.push(sql<boolean>`${col('folder_id')} = ${search.folderId}`);
  const zone = search.timeZone ?? 'UTC';
  if (search.from && DAY.test(search.from))
    conditions.push(
      sql<boolean>`${col('created_at')} >= (${search.from}::date)::timestamp at time zone ${zone}`,
    );
  if (search.to && DAY.test(search.to))
    conditions.push(
      sql<boolean>`${col('created_at')} < (${search.to}::date + 1)::timestamp at time zone ${zone}`,
    );
  const after = search.cursor ? decodeKeysetCursor(search.cursor) : undefined;
  if (after) conditions.push(olderThanCursor(after, { createdAt: 'c.created_at', id: 'c.id' }));
  return conditions;
}

/**
 * One page of the company's cases, newest first, keyset-paged on (created_at desc, id desc)
 * through cases_company_created, so that a page costs the same far down the list as at its top.
 * The search is a substring of the case's folded search text (migration 0016's trigram index); a
 * tab's page reads cases_company_state_created (migration 0015), so that a rare state costs no
 * more than a common one.
 */
export async function searchCases(
  db: Kysely<Database>,
  company: string,
  search: CaseSearch = {},
): Promise<CaseListPage> {
  const limit = Math.min(Math.max(1, search.limit ?? DEFAULT_LIMIT), MAX_LIMIT);
  let query = db
    .selectFrom('cases as c')
    .innerJoin('folders as f', (j) =>
      j.onRef('f.company_id', '=', 'c.company_id').onRef('f.id', '=', 'c.folder_id'),
    )
    .leftJoin('api_keys as k', (j) =>
      j.onRef('k.company_id', '=', 'c.company_id').onRef('k.id', '=', 'c.created_by_key'),
    )
    .leftJoin('users as u', (j) =>
      j.onRef('u.company_id', '=', 'c.company_id').onRef('u.id', '=', 'c.created_by_user'),
    )
    .select([
      'c.id',
      'c.title',
      'c.state',
      'c.created_at',
      'c.active_group',
      'c.source',
      'c.created_by_key',
      'f.name as folder_name',
      'k.name as key_name',
      'u.name as user_name',
    ])
    .select(keysetCursorAt('c.created_at').as('cursor_at'))
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
    .where('c.company_id', '=', company);
  for (const condition of filters(search)) query = query.where(condition);
  const ordered = (q: typeof query) =>
    q
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(limit + 1)
      .execute();
  const q = search.q?.trim();
  // One condition on one column (migration 0016), which the planner estimates from the column's
  // statistics: a rare term is read from the trigram index and sorted, a common one found by
  // walking the newest cases through cases_company_created until the page is full.
  const rows = await ordered(
    q
      ? query.where(sql<boolean>`c.search_text like ${`%${likeEscaped(searchFolded(q))}%`}`)
      : query,
  );
  const page = keysetPage(rows, limit);
  return {
    cases: page.rows.map((row) => ({
      id: row.id,
      title: row.title,
      state: row.state,
      signed: Number(row.signed ?? 0),
      signers: Number(row.signers ?? 0),
      activeGroup: row.active_group,
      folderName: row.folder_name,
      createdAt: row.created_at,
      creator: creatorOf(row),
      source: row.source,
    })),
    next: page.next,
  };
}

/** Who made a case, as the list says it: its key, its member, or its web-flow. */
function creatorOf(row: {
  key_name: string | null;
  user_name: string | null;
  created_by_key: string | null;
}): CaseListRow['creator'] {
  const flowId = flowOfCreatorKey(row.created_by_key);
  return flowId !== null
    ? { kind: 'webflow', flowId }
    : row.key_name !== null
      ? { kind: 'key', name: row.key_name }
      : row.user_name !== null
        ? { kind: 'member', name: row.user_name }
        : null;
}
