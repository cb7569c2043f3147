import type { Kysely, QueryCreator } from 'kysely';
import { chargeCase } from '../credits/index.js';
import { MAX_BIND_PARAMETERS, rowBatches, type CaseSource, type Database } from '../db/index.js';
import { recipientView, type CaseState } from './case-answer.js';
import { CASE_CREATED } from './case-defaults.js';
import type { ProducedDocument } from './case-documents.js';
import { caseSearchText } from './case-search-text.js';
import { caseEventRow, caseStatusOf } from './case-status.js';

/** A recipient as written: its token only as a hash. */
export interface NewRecipient {
  id: string;
  uid: string;
  position: number;
  name: string;
  email: string | null;
  phone: string | null;
  type: 'email' | 'sms' | 'eboks';
  signing: boolean;
  group: number;
  messageTemplateId: string | null;
  details: Record<string, unknown>;
  tokenHash: Buffer;
  /** The CPR number, encrypted (form submit's `needsCpr`); null when none was given. */
  cprEncrypted?: Buffer | null;
}

export interface NewCase {
  company: string;
  id: string;
  title: string;
  state: CaseState;
  folder: { id: string; name: string };
  referenceId: string | null;
  settings: Record<string, unknown>;
  language: string;
  signingSchemas: string[];
  messageTemplateId: string | null;
  expiresAt: Date;
  /** When its first reminder is due (an open case with reminders on); null for none. */
  nextReminderAt: Date | null;
  /** The id of its `case.created` event, so that its delivery can be awaited. */
  eventId: string;
  activeGroup: number | null;
  sender: { id: string; name: string; email: string };
  /** The creating key; null when a member made it in the dashboard. */
  createdByKey: string | null;
  /** The member who made it in the dashboard; null when a key did. */
  createdByUser: string | null;
  source: CaseSource;
  now: Date;
  recipients: NewRecipient[];
  documents: ProducedDocument[];
  /** What an open case costs from the company's credits (DOCPIPE_CREDITS_PER_CASE); 0: nothing. */
  credits?: bigint;
}

/**
 * spec 4.4's last step: the case, its recipients, its documents and its `case.created` event (the
 * outbox) are written at once, so that a case exists whole or not at all, and its event exists
 * exactly when it does. The event's payload is fixed here, from what was written; spec 6 keys a
 * consumer's deduplication on `trigger`, `case._id` and `case.updatedAt`.
 *
 * One statement when its values fit one (every case but one of thousands of recipients): the
 * rows as data-modifying CTEs of the event's insert, atomic as a statement is, its foreign keys
 * checked at its end. A case that takes credits adds the charge in a transaction around it (4
 * round trips more); a larger case is the statements one after another in a transaction.
 */
export async function writeCase(db: Kysely<Database>, c: NewCase): Promise<void> {
  const rows = caseRows(c);
  const charged = c.state === 'open' && (c.credits ?? 0n) > 0n;
  if (!fitsOneStatement(rows)) {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('cases').values(rows.case).execute();
      // In statements below the driver's bind-parameter limit (row-batches.ts), whatever the count.
      for (const batch of rowBatches(rows.recipients))
        await trx.insertInto('recipients').values(batch).execute();
      for (const batch of rowBatches(rows.documents))
        await trx.insertInto('case_documents').values(batch).execute();
      await trx.insertInto('case_events').values(rows.event).execute();
      if (charged) await chargeCase(trx, c.company, c.id, c.credits ?? 0n);
    });
    return;
  }
  if (!charged) return insertAtOnce(db, rows);
  await db.transaction().execute(async (trx) => {
    await insertAtOnce(trx, rows);
    // Last: the company's balance row stays locked only until the commit.
    await chargeCase(trx, c.company, c.id, c.credits ?? 0n);
  });
}

type CaseRows = ReturnType<typeof caseRows>;

/** The rows of a new case, its event's with the status they make (no query to read it back). */
function caseRows(c: NewCase) {
  // Every row below the case's own is under its company's case.
  const ofCase = { company_id: c.company, case_id: c.id };
  return {
    case: {
      company_id: c.company,
      id: c.id,
      title: c.title,
      state: c.state,
      folder_id: c.folder.id,
      reference_id: c.referenceId,
      settings: JSON.stringify(c.settings),
      language: c.language,
      signing_schemas: JSON.stringify(c.signingSchemas),
      message_template_id: c.messageTemplateId,
      expires_at: c.expiresAt,
      next_reminder_at: c.nextReminderAt,
      active_group: c.activeGroup,
      sender_id: c.sender.id,
      sender_name: c.sender.name,
      sender_email: c.sender.email,
      created_by_key: c.createdByKey,
      created_by_user: c.createdByUser,
      source: c.source,
      search_text: caseSearchText(c),
      created_at: c.now,
      updated_at: c.now,
    },
    recipients: c.recipients.map((r) => ({
      ...ofCase,
      id: r.id,
      uid: r.uid,
      position: r.position,
      name: r.name,
      email: r.email,
      phone: r.phone,
      type: r.type,
      signing: r.signing,
      group: r.group,
      message_template_id: r.messageTemplateId,
      details: JSON.stringify(r.details),
      status: 'pending' as const,
      signing_token_hash: r.tokenHash,
      cpr_encrypted: r.cprEncrypted ?? null,
      created_at: c.now,
      updated_at: c.now,
    })),
    documents: c.documents.map((d) => ({
      ...ofCase,
      index: d.index,
      name: d.name,
      source: d.source,
      storage_key: d.storageKey,
      url: d.url,
      sha256: d.sha256,
      bytes: d.bytes,
      pages: d.pages,
      library_document_id: d.libraryDocumentId,
      library_version_id: d.libraryVersionId,
      places: JSON.stringify(d.places),
      must_be_read: d.mustBeRead,
      evidence: d.evidence ? JSON.stringify(d.evidence) : null,
      created_at: c.now,
    })),
    event: caseEventRow(
      {
        id: c.eventId,
        company: c.company,
        caseId: c.id,
        trigger: CASE_CREATED,
        at: c.now,
        caseExtra: createdPayload(c).case,
      },
      // What readCaseStatus would read back of the rows just written: a new case's recipients
      // have done nothing yet.
      caseStatusOf(
        {
          id: c.id,
          title: c.title,
          state: c.state,
          reference_id: c.referenceId,
          active_group: c.activeGroup,
          expires_at: c.expiresAt,
          updated_at: c.now,
        },
        [...c.recipients]
          .sort((a, b) => a.position - b.position)
          .map((r) => recipientView({ ...r, status: 'pending' })),
      ),
    ),
  };
}

/** Whether every value of the rows fits one statement's bind parameters (row-batches.ts). */
function fitsOneStatement(rows: CaseRows): boolean {
  const width = (list: readonly object[]) =>
    list.length === 0 ? 0 : list.length * Math.max(...list.map((r) => Object.keys(r).length));
  const values =
    width([rows.case]) + width(rows.recipients) + width(rows.documents) + width([rows.event]);
  return values <= MAX_BIND_PARAMETERS;
}

/** The rows in one statement: the event's insert, the others as its CTEs (none without rows). */
async function insertAtOnce(db: QueryCreator<Database>, rows: CaseRows): Promise<void> {
  // Each `with` widens the builder's tables by its CTE's name, which nothing reads: the builder
  // is kept as the database's own, so that the CTEs can be added one by one.
  let q = db.with('new_case', (w) =>
    w.insertInto('cases').values(rows.case),
  ) as unknown as typeof db;
  if (rows.recipients.length > 0)
    q = q.with('new_recipients', (w) =>
      w.insertInto('recipients').values(rows.recipients),
    ) as unknown as typeof db;
  if (rows.documents.length > 0)
    q = q.with('new_documents', (w) =>
      w.insertInto('case_documents').values(rows.documents),
    ) as unknown as typeof db;
  await q.insertInto('case_events').values(rows.event).execute();
}

/**
 * The `case.created` payload: spec 6's `trigger` and `case` with `_id` and `updatedAt`; its
 * `case` is written with the case's status over it (writeCaseEvent), as every event's is.
 */
function createdPayload(c: NewCase) {
  const at = c.now.toISOString();
  return {
    trigger: CASE_CREATED,
    case: {
      _id: c.id,
      title: c.title,
      state: c.state,
      referenceId: c.referenceId,
      folder: c.folder,
      activeGroup: c.activeGroup,
      sender: c.sender,
      recipients: c.recipients.map((r) => recipientView({ ...r, status: 'pending' })),
      documents: c.documents.map((d) => ({ index: d.index, name: d.name, source: d.source })),
      expiresAt: c.expiresAt.toISOString(),
      createdAt: at,
      updatedAt: at,
    },
  };
}
