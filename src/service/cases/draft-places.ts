import type { Kysely, Transaction } from 'kysely';
import { DocpipeError, type FailureDetail } from '../../base/errors/index.js';
import type { PageSize, SignaturePlace } from '../../document/anchors/index.js';
import type { Storage } from '../../render/storage/index.js';
import type { Database } from '../db/index.js';
import {
  givenPlaceProblems,
  pageSizesOf,
  storedPlace,
  unplacedSignerProblems,
  type CasePlace,
} from './case-places.js';

/** One document of a case as the places editor shows it. */
export interface PlacesDocument {
  index: number;
  name: string;
  /** Each page's size in points; empty for a document kept by reference (no pages known). */
  pages: PageSize[];
  places: SignaturePlace[];
}

/** A case's documents, recipients and places, with what stops it from being sent as placed. */
export interface CasePlaces {
  id: string;
  title: string;
  state: string;
  recipients: { position: number; name: string; signing: boolean }[];
  documents: PlacesDocument[];
  /** The typed problems sending would answer (`documents[0].places[1].rect`, `recipients[1]`). */
  problems: FailureDetail[];
}

type Db = Kysely<Database> | Transaction<Database>;

function notFound(caseId: string): DocpipeError {
  return new DocpipeError('case-not-found', [
    { field: 'id', message: `the company has no case ${caseId}` },
  ]);
}

async function recipientsOf(db: Db, company: string, caseId: string) {
  return db
    .selectFrom('recipients')
    .select(['position', 'name', 'signing'])
    .where('company_id', '=', company)
    .where('case_id', '=', caseId)
    .orderBy('position')
    .execute();
}

function storedPlaces(value: unknown): SignaturePlace[] {
  return Array.isArray(value) ? (value as SignaturePlace[]) : [];
}

/**
 * The signers with no place when some document carries places (case-places.ts says why), for
 * the send of a draft: the same problems whoever sends it (v3 `POST .../send`, the dashboard).
 */
export async function sendPlaceProblems(
  db: Db,
  company: string,
  caseId: string,
): Promise<FailureDetail[]> {
  const [recipients, documents] = await Promise.all([
    recipientsOf(db, company, caseId),
    db
      .selectFrom('case_documents')
      .select(['places', 'source'])
      .where('company_id', '=', company)
      .where('case_id', '=', caseId)
      .execute(),
  ]);
  return unplacedSignerProblems(
    documents.map((d) => ({ places: storedPlaces(d.places), source: d.source })),
    recipients,
  );
}

/** A company's case with what the places editor needs; another company's is case-not-found. */
export async function readCasePlaces(
  db: Kysely<Database>,
  storage: Storage,
  company: string,
  caseId: string,
): Promise<CasePlaces> {
  const kase = await db
    .selectFrom('cases')
    .select(['id', 'title', 'state'])
    .where('company_id', '=', company)
    .where('id', '=', caseId)
    .executeTakeFirst();
  if (!kase) throw notFound(caseId);
  const [recipients, rows] = await Promise.all([
    recipientsOf(db, company, caseId),
    db
      .selectFrom('case_documents')
      .select(['index', 'name', 'storage_key', 'places', 'source'])
      .where('company_id', '=', company)
      .where('case_id', '=', caseId)
      .orderBy('index')
      .execute(),
  ]);
  const documents: PlacesDocument[] = [];
  for (const row of rows) {
    const pdf = row.storage_key === null ? undefined : await storage.get(row.storage_key);
    documents.push({
      index: row.index,
      name: row.name,
      pages: pdf ? await pageSizesOf(pdf) : [],
      places: storedPlaces(row.places),
    });
  }
  const problems = [
    ...documents.flatMap((d) =>
      givenPlaceProblems(d.places, d.pages, recipients, `documents[${d.index}]`),
    ),
    ...unplacedSignerProblems(
      documents.map((d, i) => ({ places: d.places, source: rows[i]!.source })),
      recipients,
    ),
  ];
  return { ...kase, recipients, documents, problems };
}

/**
 * Replaces a draft's places with `byDocument` (document index to its places), checked as v3
 * checks `documents[i].places`: all problems at once, nothing written unless all pass. A case
 * that is no longer a draft is `validation-failed` at `state`.
 */
export async function saveDraftPlaces(
  db: Kysely<Database>,
  storage: Storage,
  company: string,
  caseId: string,
  byDocument: ReadonlyMap<number, readonly CasePlace[]>,
): Promise<void> {
  const current = await readCasePlaces(db, storage, company, caseId);
  if (current.state !== 'draft')
    throw new DocpipeError('validation-failed', [
      { field: 'state', message: `the case is ${current.state}: only a draft's places change` },
    ]);
  const problems: FailureDetail[] = [];
  for (const index of byDocument.keys())
    if (!current.documents.some((d) => d.index === index))
      problems.push({ field: `documents[${index}]`, message: 'the case has no such document' });
  const next = current.documents.map((d) => ({
    index: d.index,
    places: byDocument.get(d.index)?.map(storedPlace) ?? d.places,
  }));
  for (const d of current.documents) {
    if (!byDocument.has(d.index)) continue;
    if (d.pages.length === 0) {
      problems.push({
        field: `documents[${d.index}].places`,
        message:
          'the document is kept by reference: its pages are not known, so it takes no places',
      });
      continue;
    }
    const places = next.find((n) => n.index === d.index)!.places;
    problems.push(
      ...givenPlaceProblems(places, d.pages, current.recipients, `documents[${d.index}]`),
    );
  }
  if (problems.length > 0) throw new DocpipeError('validation-failed', problems);
  await db.transaction().execute(async (trx) => {
    const kase = await trx
      .selectFrom('cases')
      .select('state')
      .where('company_id', '=', company)
      .where('id', '=', caseId)
      .forUpdate()
      .executeTakeFirst();
    if (!kase) throw notFound(caseId);
    if (kase.state !== 'draft')
      throw new DocpipeError('validation-failed', [
        { field: 'state', message: `the case is ${kase.state}: only a draft's places change` },
      ]);
    for (const n of next)
      if (byDocument.has(n.index))
        await trx
          .updateTable('case_documents')
          .set({ places: JSON.stringify(n.places) })
          .where('company_id', '=', company)
          .where('case_id', '=', caseId)
          .where('index', '=', n.index)
          .execute();
    await trx
      .updateTable('cases')
      .set({ updated_at: new Date() })
      .where('company_id', '=', company)
      .where('id', '=', caseId)
      .execute();
  });
}
