import type { Kysely } from 'kysely';
import { DocpipeError, type FailureDetail } from '../../base/errors/index.js';
import type { Storage } from '../../render/storage/index.js';
import { FolderRepository } from '../companies/index.js';
import type { Database } from '../db/index.js';
import type { CaseState } from './case-answer.js';
import { CASE_DELETED, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './case-defaults.js';
import { readCaseStatus, writeCaseEvent } from './case-status.js';
import { caseFolder } from './case-storage.js';
import { V2_CASE_TYPE, v2Settings, type V2CaseOne, type V2CaseSummary } from './v2-case-answer.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** spec 3's list filter: the signing status of a case. */
export type V2CaseStatus = 'signed' | 'denied' | 'pending';
export const V2_CASE_STATUSES: readonly V2CaseStatus[] = ['signed', 'denied', 'pending'];

/**
 * The case states each status lists: `pending` is a case nobody has finished, signed or denied
 * (a draft or an open case); an expired case is none of the three.
 */
const STATES: Record<V2CaseStatus, CaseState[]> = {
  signed: ['signed'],
  denied: ['denied'],
  pending: ['draft', 'open'],
};

export interface V2ListQuery {
  status?: V2CaseStatus;
  /** @defaultValue 100 */
  limit?: number;
  /** The page, from 0: the list skips `index * limit` cases. @defaultValue 0 */
  index?: number;
  /** A folder's id or name; one the company does not have lists nothing. */
  folder?: string;
}

/** The most ids one GET .../cases/{case_ids}/get may name. */
export const MAX_V2_CASE_IDS = MAX_PAGE_LIMIT;

/**
 * GET .../cases/get (spec 4.2): the company's cases, newest first, `limit` a page (default 100,
 * at most 1000), `index` the page from 0. `validation-failed` names each bad parameter.
 */
export async function listV2Cases(
  db: Kysely<Database>,
  company: string,
  query: V2ListQuery,
): Promise<V2CaseSummary[]> {
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
  const index = query.index ?? 0;
  const problems: FailureDetail[] = [];
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT)
    problems.push({
      field: 'limit',
      message: `must be an integer from 1 to ${MAX_PAGE_LIMIT} (got ${limit})`,
    });
  if (!Number.isSafeInteger(index) || index < 0 || index * limit > Number.MAX_SAFE_INTEGER)
    problems.push({ field: 'index', message: `must be a page number from 0 (got ${index})` });
  if (query.status !== undefined && !V2_CASE_STATUSES.includes(query.status))
    problems.push({
      field: 'status',
      message: `must be one of ${V2_CASE_STATUSES.join(', ')} (got ${JSON.stringify(query.status)})`,
    });
  if (problems.length > 0) throw new DocpipeError('validation-failed', problems);
  let folderId: string | undefined;
  if (query.folder !== undefined) {
    const folder = await new FolderRepository(db).find(company, query.folder);
    if (!folder) return [];
    folderId = folder.id;
  }
  let q = summaries(db).where('cases.company_id', '=', company);
  if (query.status !== undefined) q = q.where('cases.state', 'in', STATES[query.status]);
  if (folderId !== undefined) q = q.where('cases.folder_id', '=', folderId);
  const rows = await q
    .orderBy('cases.created_at', 'desc')
    .orderBy('cases.id', 'desc')
    .limit(limit)
    .offset(index * limit)
    .execute();
  return rows.map(summaryOf);
}

/**
 * GET .../cases/{case_ids}/get: the company's cases among the comma-separated ids, in the order
 * asked; an id that is not a case of the company (absent, another company's, not an id at all)
 * is left out. More than MAX_V2_CASE_IDS ids is `validation-failed` at `case_ids`.
 */
export async function getV2Cases(
  db: Kysely<Database>,
  company: string,
  ids: readonly string[],
): Promise<V2CaseSummary[]> {
  if (ids.length > MAX_V2_CASE_IDS)
    throw new DocpipeError('validation-failed', [
      {
        field: 'case_ids',
        message: `names ${ids.length} cases; at most ${MAX_V2_CASE_IDS} at once`,
      },
    ]);
  const wanted = [
    ...new Set(ids.map((id) => id.trim().toLowerCase()).filter((id) => UUID.test(id))),
  ];
  if (wanted.length === 0) return [];
  const rows = await summaries(db)
    .where('cases.company_id', '=', company)
    .where('cases.id', 'in', wanted)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return wanted.flatMap((id) => {
    const row = byId.get(id);
    return row ? [summaryOf(row)] : [];
  });
}

/** GET .../case/{case_id}/get: the company's case, or undefined (absent or another company's). */
export async function getV2Case(
  db: Kysely<Database>,
  company: string,
  id: string,
  now: Date = new Date(),
): Promise<V2CaseOne | undefined> {
  if (!UUID.test(id)) return undefined;
  const row = await db
    .selectFrom('cases')
    .select(['id', 'title', 'state', 'settings', 'expires_at', 'created_at', 'updated_at'])
    .where('company_id', '=', company)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    _id: row.id,
    title: row.title,
    type: V2_CASE_TYPE,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    settings: v2Settings(row.settings as Record<string, unknown>, row.state, row.expires_at, now),
  };
}

/** What a delete did, in spec 4.2's words (those of the document store v2 was built on). */
export interface V2DeleteResult {
  acknowledged: boolean;
  deletedCount: number;
}

/**
 * GET .../case/{case_id}/delete: removes the company's case (its recipients and documents go
 * with it by the foreign keys' cascade, its earlier events with it here) and writes
 * `case.deleted` in the same transaction, carrying the case's status as it was before (the
 * event outlives the rows: case_events does not cascade from cases), so that a webhook's copy
 * of the case does not go stale. Then its stored PDFs under `cases/<company>/<case>/` go, and
 * with them the folder (local storage removes the folders a delete leaves empty). A case that is
 * absent or another company's deletes nothing (`deletedCount` 0), and says no more than that.
 * The PDFs go after the row: a failure between the two leaves files no case points to (found by
 * their folder), never a case without its PDFs.
 */
export async function deleteV2Case(
  db: Kysely<Database>,
  storage: Storage,
  company: string,
  id: string,
  now: Date = new Date(),
): Promise<V2DeleteResult> {
  if (!UUID.test(id)) return { acknowledged: true, deletedCount: 0 };
  const deleted = await db.transaction().execute(async (trx) => {
    // Locked first: a signature or a message under way finishes before, or finds it gone.
    const locked = await trx
      .selectFrom('cases')
      .select('updated_at')
      .where('company_id', '=', company)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!locked) return false;
    const status = await readCaseStatus(trx, company, id);
    await trx
      .deleteFrom('case_events')
      .where('company_id', '=', company)
      .where('case_id', '=', id)
      .execute();
    await trx.deleteFrom('cases').where('company_id', '=', company).where('id', '=', id).execute();
    // The deletion's own moment, after every earlier event's: its deduplication key is new.
    const at = new Date(Math.max(now.getTime(), locked.updated_at.getTime() + 1));
    await writeCaseEvent(trx, {
      company,
      caseId: id,
      trigger: CASE_DELETED,
      at: now,
      status: { ...status!, updatedAt: at.toISOString() },
      caseExtra: { deletedAt: at.toISOString() },
    });
    return true;
  });
  if (!deleted) return { acknowledged: true, deletedCount: 0 };
  await removeCaseFiles(storage, caseFolder(company, id));
  return { acknowledged: true, deletedCount: 1 };
}

async function removeCaseFiles(storage: Storage, folder: string): Promise<void> {
  const keys: string[] = [];
  for await (const object of storage.list(folder)) keys.push(object.key);
  await Promise.all(keys.map((key) => storage.delete(key)));
}

function summaries(db: Kysely<Database>) {
  return db
    .selectFrom('cases')
    .innerJoin('folders', (j) =>
      j
        .onRef('folders.company_id', '=', 'cases.company_id')
        .onRef('folders.id', '=', 'cases.folder_id'),
    )
    .select([
      'cases.id',
      'cases.title',
      'folders.name as folder_name',
      'cases.created_at',
      'cases.updated_at',
    ]);
}

function summaryOf(r: {
  id: string;
  title: string;
  folder_name: string;
  created_at: Date;
  updated_at: Date;
}): V2CaseSummary {
  return {
    _id: r.id,
    title: r.title,
    folder: r.folder_name,
    type: V2_CASE_TYPE,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}
