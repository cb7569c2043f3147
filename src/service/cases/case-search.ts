import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { CaseSource, Database } from '../db/index.js';
import type { CaseState } from './case-answer.js';

/** What the dashboard's case list asks for; every field may be left out. */
export interface CaseSearch {
  state?: CaseState;
  folderId?: string;
  /** Made on or after this day (UTC), YYYY-MM-DD. */
  from?: string;
  /** Made on or before this day (UTC), YYYY-MM-DD. */
  to?: string;
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
  /** The key's name, or the member's; null when neither is known (or they were removed). */
  creator: { kind: 'key' | 'member'; name: string } | null;
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

/** The cursor names the last row's created_at to the microsecond (a Date only has ms) and id. */
function encodeCursor(at: string, id: string): string {
  return Buffer.from(`${at}|${id}`, 'utf8').toString('base64url');
}

const CURSOR_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A cursor that is not one of ours reads as none: the list starts again at the newest. */
export function decodeCursor(cursor: string): { at: string; id: string } | undefined {
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length || !at || !id || !CURSOR_AT.test(at) || !UUID.test(id)) return undefined;
  return { at, id };
}

/** LIKE's own characters in a search are matched as themselves. */
function likeEscaped(q: string): string {
  return q.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Cases tested in their newest-first order before the indexes are asked (see searchCases). */
const NEWEST_WINDOW = 500;

/**
 * The search's state, folder, dates and cursor as conditions on the cases table under `alias`
 * (the page's own and the newest-cases window's), always at least one so they can be joined.
 */
function filtersOn(alias: string, search: CaseSearch): RawBuilder<boolean>[] {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  const conditions: RawBuilder<boolean>[] = [sql<boolean>`true`];
  if (search.state) conditions.push(sql<boolean>`${col('state')} = ${search.state}`);
  if (search.folderId) conditions.push(sql<boolean>`${col('folder_id')} = ${search.folderId}`);
  if (search.from && DAY.test(search.from))
    conditions.push(
      sql<boolean>`${col('created_at')} >= (${search.from}::date)::timestamp at time zone 'UTC'`,
    );
  if (search.to && DAY.test(search.to))
    conditions.push(
      sql<boolean>`${col('created_at')} < (${search.to}::date + 1)::timestamp at time zone 'UTC'`,
    );
  const after = search.cursor ? decodeCursor(search.cursor) : undefined;
  if (after)
    conditions.push(
      sql<boolean>`(${col('created_at')}, ${col('id')}) < (${after.at}::timestamptz, ${after.id}::uuid)`,
    );
  return conditions;
}

/**
 * One page of the company's cases, newest first, keyset-paged on (created_at desc, id desc)
 * through cases_company_created, so that a page costs the same far down the list as at its top.
 * The search uses exactly the expressions migration 0013 indexes with pg_trgm (lower(title),
 * lower(reference_id), lower(r.name), lower(r.email)), each in a query of its own, so that a
 * rare substring is four index scans, not a read of every case (a common one is found among the
 * newest cases first); a tab's page reads cases_company_state_created (migration 0015), so that
 * a rare state costs no more than a common one.
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
      'f.name as folder_name',
      'k.name as key_name',
      'u.name as user_name',
    ])
    .select(
      sql<string>`to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as(
        'cursor_at',
      ),
    )
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
  for (const condition of filtersOn('c', search)) query = query.where(condition);
  const ordered = (q: typeof query) =>
    q
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(limit + 1)
      .execute();
  const q = search.q?.trim();
  let rows: Awaited<ReturnType<typeof ordered>>;
  if (!q) rows = await ordered(query);
  else {
    const pattern = sql`'%' || lower(${likeEscaped(q)}) || '%'`;
    // A common term (a word in a fifth of the titles) is found in the newest few hundred cases:
    // walking them newest first and testing each is a few milliseconds, where gathering every
    // match from the indexes and sorting them is hundreds. Those are the page's first matches,
    // whatever lies beyond them, so the page is the same either way.
    const newest = await ordered(
      query.where(
        sql<boolean>`c.id in (select w.id from cases w where w.company_id = ${company}
          and ${sql.join(filtersOn('w', search), sql` and `)}
          order by w.created_at desc, w.id desc limit ${NEWEST_WINDOW})
        and (lower(c.title) like ${pattern} or lower(c.reference_id) like ${pattern}
          or exists (select 1 from recipients r where r.company_id = c.company_id
            and r.case_id = c.id and (lower(r.name) like ${pattern} or lower(r.email) like ${pattern})))`,
      ),
    );
    // A rarer one: one id set from each trigram index (migration 0013's exact expressions), joined.
    // The same OR in one WHERE across cases and recipients (an EXISTS) leaves the planner no index
    // to use and reads every case and every recipient of the company (issue 34's EXPLAIN).
    rows =
      newest.length > limit
        ? newest
        : await ordered(
            query.where(
              // The page's ids are chosen from the matches alone, each case read by its key
              // (offset 0 keeps the planner from a hash join over a scan of every case), before
              // the folder, creator and signer counts are joined to those few.
              sql<boolean>`c.id in (
                select h.id from (
                  select id from cases where company_id = ${company} and lower(title) like ${pattern}
                  union select id from cases where company_id = ${company} and lower(reference_id) like ${pattern}
                  union select case_id from recipients where company_id = ${company} and lower(name) like ${pattern}
                  union select case_id from recipients where company_id = ${company} and lower(email) like ${pattern}
                ) hit cross join lateral (
                  select w.id, w.created_at from cases w where w.company_id = ${company} and w.id = hit.id
                    and ${sql.join(filtersOn('w', search), sql` and `)} offset 0
                ) h
                order by h.created_at desc, h.id desc limit ${limit + 1})`,
            ),
          );
  }
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    cases: page.map((row) => ({
      id: row.id,
      title: row.title,
      state: row.state,
      signed: Number(row.signed ?? 0),
      signers: Number(row.signers ?? 0),
      activeGroup: row.active_group,
      folderName: row.folder_name,
      createdAt: row.created_at,
      creator:
        row.key_name !== null
          ? { kind: 'key', name: row.key_name }
          : row.user_name !== null
            ? { kind: 'member', name: row.user_name }
            : null,
      source: row.source,
    })),
    next: rows.length > limit && last ? encodeCursor(last.cursor_at, last.id) : undefined,
  };
}
