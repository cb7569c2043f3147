/**
 * Issue 22's third case target: `GET /v3/api/cases` answers in at most 20 ms (p50) with 100,000
 * cases in the company. The cases are written straight into PostgreSQL in batches (a case through
 * the API costs a render; 100,000 would take half an hour), each batch one transaction of bulk
 * INSERTs through Kysely, with the rows shaped as case-writer.ts writes them: the case, its two
 * recipients, its stored document and its `case.created` event. Then, one request at a time: the
 * first page, a filtered page (state, referenceId and createdAfter), a page reached by cursor
 * halfway down the list, and the first page of a rare state (4% of the cases, so that the page
 * must pass over many others).
 */
import { randomUUID } from 'node:crypto';
import { sql, type Insertable } from 'kysely';
import type {
  CaseDocumentsTable,
  CaseEventsTable,
  CasesTable,
  RecipientsTable,
} from '../src/service/db/index.js';
import { caseDocumentKey } from '../src/service/cases/case-storage.js';
import { newRecipientUid, newSigningToken } from '../src/service/cases/signing-token.js';
import { Caller, percentiles } from './cases-caller.js';
import type { CasesStack } from './cases-stack.js';

export interface CasesListOptions {
  cases: number;
  /** Requests per measured query. */
  requests: number;
  batch?: number;
}

export interface ListRow {
  name: string;
  path: string;
  p50: number;
  p95: number;
  /** Cases on the answered page. */
  returned: number;
}

export interface CasesList {
  seeded: number;
  seedSeconds: number;
  rows: ListRow[];
  failed: number;
  firstFailure?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** The seeded cases were made over this many days before now, evenly. */
const SPAN_DAYS = 365;
/** A referenceId is shared by this many cases (`ref-<n>`), as a customer's order number may be. */
const PER_REFERENCE = 20;

type State = 'draft' | 'open' | 'signed' | 'denied' | 'expired';

/** 70% open, 15% draft, 10% signed, 4% denied, 1% expired. */
function stateOf(i: number): State {
  const p = i % 100;
  return p < 70 ? 'open' : p < 85 ? 'draft' : p < 95 ? 'signed' : p < 99 ? 'denied' : 'expired';
}

export async function seedCases(stack: CasesStack, count: number, batch = 1000): Promise<void> {
  const { db, company, defaultFolder, user, keyId } = stack;
  const now = Date.now();
  const folder = { id: defaultFolder.id, name: defaultFolder.name };
  const sender = { id: user.id, name: user.name, email: user.email };
  const settings = JSON.stringify({ expiresInDays: 30, language: 'da', signingSchemas: ['draw'] });
  const people = [
    { name: 'Ann Tenant', email: 'ann@tenant.example' },
    { name: 'Bob Landlord', email: 'bob@landlord.example' },
  ];
  for (let from = 0; from < count; from += batch) {
    const n = Math.min(batch, count - from);
    const cases: Insertable<CasesTable>[] = [];
    const recipients: Insertable<RecipientsTable>[] = [];
    const documents: Insertable<CaseDocumentsTable>[] = [];
    const events: Insertable<CaseEventsTable>[] = [];
    for (let k = 0; k < n; k++) {
      const i = from + k;
      const id = randomUUID();
      const at = new Date(now - SPAN_DAYS * DAY_MS + (i * SPAN_DAYS * DAY_MS) / count);
      const state = stateOf(i);
      const referenceId = `ref-${i % Math.max(1, Math.floor(count / PER_REFERENCE))}`;
      const title = `Lease ${i}`;
      const expiresAt = new Date(at.getTime() + 30 * DAY_MS);
      const ofCase = { company_id: company, case_id: id };
      cases.push({
        company_id: company,
        id,
        title,
        state,
        folder_id: folder.id,
        reference_id: referenceId,
        settings,
        language: 'da',
        signing_schemas: JSON.stringify(['draw']),
        message_template_id: null,
        expires_at: expiresAt,
        active_group: 0,
        sender_id: sender.id,
        sender_name: sender.name,
        sender_email: sender.email,
        created_by_key: keyId,
        created_at: at,
        updated_at: at,
      });
      const made = people.map((p, position) => ({
        ...ofCase,
        id: randomUUID(),
        uid: newRecipientUid(),
        position,
        name: p.name,
        email: p.email,
        phone: null,
        type: 'email' as const,
        signing: true,
        group: 0,
        message_template_id: null,
        details: JSON.stringify({}),
        status: 'pending' as const,
        signing_token_hash: newSigningToken().hash,
        created_at: at,
        updated_at: at,
      }));
      recipients.push(...made);
      documents.push({
        ...ofCase,
        index: 0,
        name: 'lease.docx',
        source: 'content' as const,
        storage_key: caseDocumentKey(company, id, 0),
        url: null,
        sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        bytes: 30_000,
        pages: 2,
        library_document_id: null,
        library_version_id: null,
        created_at: at,
      });
      events.push({
        ...ofCase,
        trigger: 'case.created',
        payload: JSON.stringify({
          trigger: 'case.created',
          case: {
            _id: id,
            title,
            state,
            referenceId,
            folder,
            activeGroup: 0,
            sender,
            recipients: made.map((r) => ({
              id: r.id,
              uid: r.uid,
              name: r.name,
              email: r.email,
              phone: null,
              type: 'email',
              signing: true,
              group: 0,
              status: 'pending',
            })),
            documents: [{ index: 0, name: 'lease.docx', source: 'content' }],
            expiresAt: expiresAt.toISOString(),
            createdAt: at.toISOString(),
            updatedAt: at.toISOString(),
          },
        }),
        created_at: at,
      });
    }
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('cases').values(cases).execute();
      await trx.insertInto('recipients').values(recipients).execute();
      await trx.insertInto('case_documents').values(documents).execute();
      await trx.insertInto('case_events').values(events).execute();
    });
  }
  // What autovacuum does soon after a table grows this much: the planner's statistics.
  for (const table of ['cases', 'recipients', 'case_documents', 'case_events'] as const)
    await sql`analyze ${sql.table(table)}`.execute(db);
}

export async function casesList(stack: CasesStack, options: CasesListOptions): Promise<CasesList> {
  const started = performance.now();
  await seedCases(stack, options.cases, options.batch);
  const seedSeconds = (performance.now() - started) / 1000;
  const caller = new Caller(stack.url, stack.key, 1);
  let failed = 0;
  let firstFailure: string | undefined;
  const get = async (path: string) => {
    const answer = await caller.send('GET', path);
    if (answer.status !== 200) {
      failed++;
      firstFailure ??= `GET ${path}: ${answer.status} ${answer.body.slice(0, 500)}`;
      return { answer, page: { cases: [] as unknown[] } };
    }
    return {
      answer,
      page: JSON.parse(answer.body) as { cases: unknown[]; nextCursor?: string },
    };
  };
  try {
    // Halfway down the list by cursor, as a caller pages: 1,000 cases a page.
    let cursor: string | undefined;
    for (let seen = 0; seen < options.cases / 2; seen += 1000) {
      const { page } = await get(
        `/v3/api/cases?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    const halfway = new Date(Date.now() - (SPAN_DAYS / 2) * DAY_MS).toISOString();
    const reference = `ref-${Math.floor(options.cases / PER_REFERENCE / 3)}`;
    const queries: { name: string; path: string }[] = [
      { name: 'first page (100 newest)', path: '/v3/api/cases' },
      {
        name: `filtered: state=open, referenceId (${PER_REFERENCE} cases share one), createdAfter half a year ago`,
        path: `/v3/api/cases?state=open&referenceId=${reference}&createdAfter=${encodeURIComponent(halfway)}`,
      },
      {
        name: `page reached by cursor (after ${Math.round(options.cases / 2 / 1000) * 1000} cases)`,
        path: `/v3/api/cases?cursor=${encodeURIComponent(cursor ?? '')}`,
      },
      { name: 'first page of a rare state (denied: 4%)', path: '/v3/api/cases?state=denied' },
    ];
    const rows: ListRow[] = [];
    for (const q of queries) {
      let returned = 0;
      for (let i = 0; i < Math.min(20, options.requests); i++) await get(q.path);
      const times: number[] = [];
      for (let i = 0; i < options.requests; i++) {
        const { answer, page } = await get(q.path);
        times.push(answer.ms);
        returned = page.cases.length;
      }
      const stats = percentiles(times);
      rows.push({ name: q.name, path: q.path, p50: stats.p50, p95: stats.p95, returned });
    }
    return {
      seeded: options.cases,
      seedSeconds,
      rows,
      failed,
      ...(firstFailure !== undefined ? { firstFailure } : {}),
    };
  } finally {
    caller.close();
  }
}
