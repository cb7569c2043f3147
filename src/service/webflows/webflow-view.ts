import type { Kysely, Selectable } from 'kysely';
import type { Database, WebflowRecipientStatus, WebflowState, WebflowsTable } from '../db/index.js';
import type { FlowForm } from './flow-form.js';

/** A person asked, as the API answers them: never their link or its token. */
export interface WebflowRecipientView {
  id: string;
  name: string;
  email: string;
  status: WebflowRecipientStatus;
}

/**
 * How the flow's e-mails are getting on. `pending`: not sent yet; this version sends none (the
 * invitations come with the next part of web-flows), and says so rather than claiming a send.
 */
export interface WebflowDelivery {
  email: 'pending';
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
}

/**
 * The flow with this row, read with its recipients and answers. A running flow past its
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
  const questions = new Set((row.form as FlowForm).tags.map((t) => t.tag));
  const running = row.state === 'pending' || row.state === 'in_progress';
  return {
    id: row.id,
    state: running && row.expires_at.getTime() <= now.getTime() ? 'expired' : row.state,
    formId: row.form_id,
    title: row.title,
    recipients: recipients.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      status: r.status,
    })),
    progress: {
      answered: answers.filter((a) => questions.has(a.tag)).length,
      total: questions.size,
    },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    delivery: { email: 'pending' },
    answers: answers.map((a) => ({
      tag: a.tag,
      type: a.type,
      value: (a.value ?? null) as WebflowAnswerView['value'],
      answeredBy: a.answered_by,
      answeredAt: a.answered_at.toISOString(),
    })),
    caseId: row.case_id,
  };
}

/** The creation's answer: the view without the answers and the case. */
export function summaryOf(view: WebflowView): WebflowSummary {
  const { answers: _answers, caseId: _caseId, ...summary } = view;
  return summary;
}
