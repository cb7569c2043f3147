import type { Kysely } from 'kysely';
import { DocpipeError } from '../../base/errors/index.js';
import { FolderRepository } from '../companies/index.js';
import type { Database } from '../db/index.js';
import {
  type CasePage,
  type CaseSummary,
  type CaseView,
  type DocumentView,
} from './case-answer.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './case-defaults.js';
import { caseStatusOf, readRecipientStatuses } from './case-status.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type DocumentUrl = (key: string, name: string) => string | Promise<string>;

/** The company's case, or `case-not-found` (also for another company's: absent, never forbidden). */
export async function readCase(
  db: Kysely<Database>,
  company: string,
  id: string,
  documentUrl: DocumentUrl,
): Promise<CaseView> {
  const notFound = () =>
    new DocpipeError('case-not-found', [{ field: 'id', message: `no case ${id} in the company` }]);
  // cases.id is a uuid: anything else would be PostgreSQL's error, not an absent case.
  if (!UUID.test(id)) throw notFound();
  const row = await casesWithFolders(db)
    .select([
      ...SUMMARY_COLUMNS,
      'cases.sender_id',
      'cases.sender_name',
      'cases.sender_email',
      'cases.language',
      'cases.active_group',
      'cases.expires_at',
      'cases.settings',
      'cases.completed_at',
      'cases.sealed_at',
    ])
    .where('cases.company_id', '=', company)
    .where('cases.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound();
  const [recipients, documents] = await Promise.all([
    readRecipientStatuses(db, company, id),
    db
      .selectFrom('case_documents')
      .select([
        'name',
        'source',
        'storage_key',
        'url',
        'pages',
        'sha256',
        'sealed_storage_key',
        'sealed_sha256',
        'evidence',
      ])
      .where('company_id', '=', company)
      .where('case_id', '=', id)
      .orderBy('index')
      .execute(),
  ]);
  // The case's status as its events carry it too (case-status.ts), with what only a read shows.
  const status = caseStatusOf(row, recipients);
  return {
    id: status.id,
    title: status.title,
    state: status.state,
    referenceId: status.referenceId,
    folder: { id: row.folder_id, name: row.folder_name },
    sender: { id: row.sender_id, name: row.sender_name, email: row.sender_email },
    language: row.language,
    activeGroup: status.activeGroup,
    sealing: row.state === 'open' && row.completed_at !== null && row.sealed_at === null,
    expiresAt: status.expiresAt,
    createdAt: row.created_at.toISOString(),
    updatedAt: status.updatedAt,
    settings: row.settings as Record<string, unknown>,
    recipients: status.recipients,
    documents: await Promise.all(
      // A sealed case downloads its sealed PDFs; the copies shown to the signers stay stored
      // as evidence, their hashes in each document's evidence. Sealed as the case row read
      // says: a seal committed between the two reads shows at the next read, whole, so that
      // `state`, `sealing` and each document's `sealed` and `url` always agree.
      documents.map(async (d): Promise<DocumentView> => {
        const sealed = row.sealed_at !== null && d.sealed_storage_key !== null;
        const key = sealed ? d.sealed_storage_key : d.storage_key;
        return {
          name: d.name,
          url: key ? await documentUrl(key, pdfName(d.name)) : d.url!,
          source: d.source,
          // The file at `url`: a sealed one has the signature page and audit trail added.
          pages: sealed ? (sealedPages(d.evidence) ?? d.pages) : d.pages,
          shownPages: d.pages,
          sha256: sealed ? d.sealed_sha256 : d.sha256,
          sealed,
        };
      }),
    ),
  };
}

export interface ListQuery {
  state?: CaseSummary['state'];
  folder?: string;
  referenceId?: string;
  createdAfter?: Date;
  cursor?: string;
  limit?: number;
}

/**
 * A page of the company's cases, newest first, by (created_at, id): the cursor is the last
 * case's pair, opaque to the caller (base64url JSON), so that a page never repeats or skips a
 * case when others are created meanwhile. A folder the company does not have lists nothing.
 */
export async function listCases(
  db: Kysely<Database>,
  company: string,
  query: ListQuery,
): Promise<CasePage> {
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT)
    throw new DocpipeError('validation-failed', [
      { field: 'limit', message: `must be an integer from 1 to ${MAX_PAGE_LIMIT} (got ${limit})` },
    ]);
  const after = query.cursor === undefined ? undefined : parseCursor(query.cursor);
  let folderId: string | undefined;
  if (query.folder !== undefined) {
    const folder = await new FolderRepository(db).find(company, query.folder);
    if (!folder) return { cases: [] };
    folderId = folder.id;
  }
  let q = casesWithFolders(db).select(SUMMARY_COLUMNS).where('cases.company_id', '=', company);
  if (query.state !== undefined) q = q.where('cases.state', '=', query.state);
  if (folderId !== undefined) q = q.where('cases.folder_id', '=', folderId);
  if (query.referenceId !== undefined) q = q.where('cases.reference_id', '=', query.referenceId);
  if (query.createdAfter !== undefined) q = q.where('cases.created_at', '>=', query.createdAfter);
  if (after)
    q = q.where((eb) =>
      eb(eb.refTuple('cases.created_at', 'cases.id'), '<', eb.tuple(after.createdAt, after.id)),
    );
  const rows = await q
    .orderBy('cases.created_at', 'desc')
    .orderBy('cases.id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    cases: page.map((r) => ({
      id: r.id,
      title: r.title,
      state: r.state,
      referenceId: r.reference_id,
      folder: { id: r.folder_id, name: r.folder_name },
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
    })),
    ...(rows.length > limit && last ? { nextCursor: cursorOf(last.created_at, last.id) } : {}),
  };
}

function cursorOf(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString('base64url');
}

function parseCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const createdAt = new Date(String(at));
    if (typeof at === 'string' && typeof id === 'string' && UUID.test(id) && !isNaN(+createdAt))
      return { createdAt, id };
  } catch {
    // Not one of ours: said below.
  }
  throw new DocpipeError('validation-failed', [
    {
      field: 'cursor',
      message: 'not a cursor this service gave: use nextCursor of the previous page',
    },
  ]);
}

/** The PDF is named after the document: `lease.docx` downloads as `lease.pdf`. */
export function pdfName(name: string): string {
  return `${name.replace(/\.(docx|pdf)$/i, '')}.pdf`;
}

/** What a list's line shows of a case (CaseSummary), and a read of one case too. */
const SUMMARY_COLUMNS = [
  'cases.id',
  'cases.title',
  'cases.state',
  'cases.reference_id',
  'cases.folder_id',
  'folders.name as folder_name',
  'cases.created_at',
  'cases.updated_at',
] as const;

/** Cases with their folder (its name is in every read), the folder in the case's own company. */
function casesWithFolders(db: Kysely<Database>) {
  return db
    .selectFrom('cases')
    .innerJoin('folders', (j) =>
      j
        .onRef('folders.company_id', '=', 'cases.company_id')
        .onRef('folders.id', '=', 'cases.folder_id'),
    );
}

/** The sealed PDF's page count, as the seal recorded it in the document's evidence. */
function sealedPages(evidence: unknown): number | undefined {
  const pages =
    typeof evidence === 'object' && evidence !== null
      ? (evidence as { sealedPages?: unknown }).sealedPages
      : undefined;
  return typeof pages === 'number' && Number.isInteger(pages) ? pages : undefined;
}
