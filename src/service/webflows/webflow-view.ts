import type { Kysely, Selectable } from 'kysely';
import type { Database, WebflowRecipientStatus, WebflowState, WebflowsTable } from '../db/index.js';
import { caseErrorOf, type FlowCaseError } from './flow-case.js';
import type { FlowForm } from './flow-form.js';

/**
 * Where a message of the ledger stands, in the ledger's own words (messages.status, as the
 * dashboard's case page shows a case's messages), with one difference: `failed` is for good
 * only. A try that failed and is tried again later is still `pending`, with its error.
 */
export type WebflowMessageState = 'pending' | 'sent' | 'failed';

/** What a person's invitation e-mail did, read from the message ledger. */
export interface WebflowInvitationView {
  status: WebflowMessageState;
  /** When it went; null until it has. */
  sentAt: string | null;
  /** Why the last try failed: set when `failed`, and on a `pending` one that is tried again. */
  error: string | null;
}

/** A person asked, as the API answers them: never their link or its token. */
export interface WebflowRecipientView {
  id: string;
  name: string;
  email: string;
  status: WebflowRecipientStatus;
  invitation: WebflowInvitationView;
}

/**
 * How the flow's invitations are getting on, over all its people: `sent` when every one went,
 * `failed` when any failed for good (its person's `invitation.error` says why), else `pending`
 * (some are still to go, or to be tried again).
 */
export interface WebflowDelivery {
  email: WebflowMessageState;
}

/** One question's answer: whoever of the recipients gave it last. */
export interface WebflowAnswerView {
  tag: string;
  type: string;
  /** The value as answered; null for a CPR number, which is never answered in plain text. */
  value: string | number | boolean | null;
  /** The recipient's id. */
  answeredBy: string;
  answeredAt: string;
}

/** A flow as POST /v3/api/webflows answers it. */
export interface WebflowSummary {
  id: string;
  state: WebflowState;
  formId: string;
  title: string;
  recipients: WebflowRecipientView[];
  progress: { answered: number; total: number };
  createdAt: string;
  updatedAt: string;
  delivery: WebflowDelivery;
}

/** A flow as GET /v3/api/webflows/{id} answers it: with its answers and the case it made. */
export interface WebflowView extends WebflowSummary {
  answers: WebflowAnswerView[];
  caseId: string | null;
  /** Why the completed flow made no case (webflows.case_error); null when it made one or none was asked. */
  caseError: FlowCaseError | null;
}

/** A ledger row of an invitation, as the view reads it. */
interface InvitationRow {
  flow_recipient_id: string | null;
  status: WebflowMessageState;
  next_attempt_at: Date | null;
  sent_at: Date | null;
  error: string | null;
}

/**
 * A person's invitation from its ledger row. A failed row with a next try is not failed yet
 * (message-ledger's markFailed sets next_attempt_at only while tries are left). No row yet:
 * delivery plans the invitations when it handles the flow's `workflow.created`, a moment after
 * the flow is made, so that the creation's answer has none and says `pending`.
 */
function invitationOf(row: InvitationRow | undefined): WebflowInvitationView {
  if (!row) return { status: 'pending', sentAt: null, error: null };
  if (row.status === 'sent')
    return { status: 'sent', sentAt: row.sent_at?.toISOString() ?? null, error: null };
  const retried = row.status === 'failed' && row.next_attempt_at !== null;
  return { status: retried ? 'pending' : row.status, sentAt: null, error: row.error };
}

/** The flow's delivery from its people's invitations: one failed for good fails it. */
function deliveryOf(invitations: readonly WebflowInvitationView[]): WebflowDelivery {
  if (invitations.some((i) => i.status === 'failed')) return { email: 'failed' };
  if (invitations.length > 0 && invitations.every((i) => i.status === 'sent'))
    return { email: 'sent' };
  return { email: 'pending' };
}

/**
 * The flow with this row, read with its recipients, their invitations (the ledger's
 * `flow-invitation` rows of the flow, in one query) and its answers. A running flow past its
 * expiry is `expired` here already, before the sweep writes it, so that no reader sees a flow
 * open that no longer takes answers.
 */
export async function readWebflowView(
  db: Kysely<Database>,
  row: Selectable<WebflowsTable>,
  now: Date,
): Promise<WebflowView> {
  const recipients = await db
    .selectFrom('webflow_recipients')
    .select(['id', 'name', 'email', 'status'])
    .where('flow_id', '=', row.id)
    .orderBy('position')
    .execute();
  const answers = await db
    .selectFrom('webflow_answers')
    .select(['tag', 'type', 'value', 'answered_by', 'answered_at'])
    .where('flow_id', '=', row.id)
    .orderBy('tag')
    .execute();
  const ledger: InvitationRow[] = await db
    .selectFrom('messages')
    .select(['flow_recipient_id', 'status', 'next_attempt_at', 'sent_at', 'error'])
    .where('company_id', '=', row.company_id)
    .where('flow_id', '=', row.id)
    .where('kind', '=', 'flow-invitation')
    // The newest last, so that it is the one kept should a person ever have two.
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const invitationRows = new Map(ledger.map((m) => [m.flow_recipient_id, m] as const));
  const people = recipients.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    status: r.status,
    invitation: invitationOf(invitationRows.get(r.id)),
  }));
  const questions = new Set((row.form as FlowForm).tags.map((t) => t.tag));
  const running = row.state === 'pending' || row.state === 'in_progress';
  return {
    id: row.id,
    state: running && row.expires_at.getTime() <= now.getTime() ? 'expired' : row.state,
    formId: row.form_id,
    title: row.title,
    recipients: people,
    progress: {
      answered: answers.filter((a) => questions.has(a.tag)).length,
      total: questions.size,
    },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    delivery: deliveryOf(people.map((p) => p.invitation)),
    answers: answers.map((a) => ({
      tag: a.tag,
      type: a.type,
      value: (a.value ?? null) as WebflowAnswerView['value'],
      answeredBy: a.answered_by,
      answeredAt: a.answered_at.toISOString(),
    })),
    caseId: row.case_id,
    caseError: row.case_id === null ? caseErrorOf(row.case_error) : null,
  };
}

/** The creation's answer: the view without the answers and the case. */
export function summaryOf(view: WebflowView): WebflowSummary {
  const { answers: _answers, caseId: _caseId, caseError: _caseError, ...summary } = view;
  return summary;
}
