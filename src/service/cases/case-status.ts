import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/index.js';
import { recipientView, type CaseState, type RecipientView } from './case-answer.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * What a case is now, as GET /v3/api/cases/{id} reads it and every event of the case carries it
 * (issue 32, item 18): one function builds it for both, so that `referenceId`, each recipient's
 * status, when they acted, a denial's reason and the signer's address are in every one of them,
 * never only in the event of the moment.
 */
export interface CaseStatus {
  id: string;
  title: string;
  state: CaseState;
  referenceId: string | null;
  activeGroup: number | null;
  expiresAt: string;
  updatedAt: string;
  recipients: RecipientView[];
}

/** The columns of a case row its status is built from. */
export interface CaseStatusRow {
  id: string;
  title: string;
  state: CaseState;
  reference_id: string | null;
  active_group: number | null;
  expires_at: Date;
  updated_at: Date;
}

/** The case's status, or undefined when the company has no such case. */
export async function readCaseStatus(
  db: Db,
  company: string,
  caseId: string,
): Promise<CaseStatus | undefined> {
  const row = await db
    .selectFrom('cases')
    .select(['id', 'title', 'state', 'reference_id', 'active_group', 'expires_at', 'updated_at'])
    .where('company_id', '=', company)
    .where('id', '=', caseId)
    .executeTakeFirst();
  return row && caseStatusOf(row, await readRecipientStatuses(db, company, caseId));
}

/** A case row and its recipients as the status says them. */
export function caseStatusOf(row: CaseStatusRow, recipients: RecipientView[]): CaseStatus {
  return {
    id: row.id,
    title: row.title,
    state: row.state,
    referenceId: row.reference_id,
    activeGroup: row.active_group,
    expiresAt: row.expires_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    recipients,
  };
}

/**
 * The case's recipients in their order, each with what it did: `actedAt` (signed or denied),
 * the signer's `method`, a denier's `denialReason`, and the `ip` either acted from.
 */
export async function readRecipientStatuses(
  db: Db,
  company: string,
  caseId: string,
): Promise<RecipientView[]> {
  const rows = await db
    .selectFrom('recipients')
    .leftJoin('signatures', 'signatures.recipient_id', 'recipients.id')
    .select([
      'recipients.id',
      'recipients.uid',
      'recipients.name',
      'recipients.email',
      'recipients.phone',
      'recipients.type',
      'recipients.signing',
      'recipients.group',
      'recipients.status',
      'recipients.acted_at',
      'recipients.denial_reason',
      'recipients.acted_ip',
      'signatures.method',
      'signatures.ip as signed_ip',
    ])
    .where('recipients.company_id', '=', company)
    .where('recipients.case_id', '=', caseId)
    .orderBy('recipients.position')
    .execute();
  return rows.map(({ method, ...r }) => {
    const ip = r.signed_ip ?? r.acted_ip;
    return {
      ...recipientView(r),
      ...(r.acted_at ? { actedAt: r.acted_at.toISOString() } : {}),
      ...(method !== null && r.status === 'signed' ? { method } : {}),
      ...(r.denial_reason !== null ? { denialReason: r.denial_reason } : {}),
      ...(ip !== null && r.status !== 'pending' ? { ip } : {}),
    };
  });
}

/** The status as an event's `case` says it: spec 6's `_id` for its id. */
export function eventCaseOf(status: CaseStatus): Omit<CaseStatus, 'id'> & { _id: string } {
  const { id, ...rest } = status;
  return { _id: id, ...rest };
}

/** An event to write into the outbox (case_events) with its change. */
export interface CaseEventInput {
  company: string;
  caseId: string;
  trigger: string;
  at: Date;
  /** The event's id, when the writer names it (the create answer waits for it). */
  id?: string;
  /** Members of `case` that only this event has (the documents of `case.created`, ...). */
  caseExtra?: Record<string, unknown>;
  /** Members beside `case` that only this event has (the signer of `recipient.signed`, ...). */
  extra?: Record<string, unknown>;
  /** The status, when the writer has it already (a deleted case's, read before its rows went). */
  status?: CaseStatus;
}

/**
 * Writes an event in the transaction that makes its change, its payload fixed now (a webhook's
 * body never changes after): `trigger`, the case's status as the transaction sees it after the
 * change under `case` (with this event's own members), and the event's other members.
 */
export async function writeCaseEvent(trx: Db, event: CaseEventInput): Promise<void> {
  const status = event.status ?? (await readCaseStatus(trx, event.company, event.caseId));
  if (!status) throw new Error(`case ${event.caseId} is gone: its ${event.trigger} has no case`);
  await trx.insertInto('case_events').values(caseEventRow(event, status)).execute();
}

/**
 * The outbox row of an event whose status the writer has: what writeCaseEvent inserts, for a
 * writer that inserts it in a statement of its own making (case-writer.ts, the case and its
 * event in one).
 */
export function caseEventRow(event: CaseEventInput, status: CaseStatus) {
  const payload = {
    trigger: event.trigger,
    case: { ...event.caseExtra, ...eventCaseOf(status) },
    ...event.extra,
  };
  return {
    ...(event.id ? { id: event.id } : {}),
    company_id: event.company,
    case_id: event.caseId,
    trigger: event.trigger,
    payload: JSON.stringify(payload),
    created_at: event.at,
  };
}
