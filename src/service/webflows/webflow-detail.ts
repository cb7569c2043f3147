import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import type { TagDefinition } from '../forms/index.js';
import type { FlowForm } from './flow-form.js';
import { readWebflowView, type WebflowView } from './webflow-view.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A flow as the dashboard's page shows it: the API's view, and what the page says beyond it
 * (the sender, the expiry, the questions' names, when each person opened and answered, which
 * answers are kept only encrypted, and whether a case was asked for). Why no case was made is
 * the view's `caseError`, as the API answers it.
 */
export interface WebflowDetail {
  view: WebflowView;
  formTitle: string;
  message: string | null;
  sender: { name: string; email: string; removed: boolean };
  expiresAt: Date;
  completedAt: Date | null;
  /** The flow's questions, in its form's order, as its own copy of the form names them. */
  questions: Pick<TagDefinition, 'tag' | 'name' | 'type'>[];
  /** When each recipient (by id) opened their link and answered. */
  moments: ReadonlyMap<string, { openedAt: Date | null; answeredAt: Date | null }>;
  /** The tags whose answer is kept only encrypted (a CPR number): its value is never shown. */
  encrypted: ReadonlySet<string>;
  /** Whether the flow asked for a signing case once completed (its `case` member). */
  makesCase: boolean;
}

/**
 * The company's flow with this id for the dashboard, or undefined when there is none (another
 * company's too, and an id that is no uuid). Unlike GET /v3/api/webflows/{id}, a flow whose
 * sender was removed is still shown (the page says so): the company's members may read it.
 */
export async function readWebflowDetail(
  db: Kysely<Database>,
  company: string,
  id: string,
  now: Date = new Date(),
): Promise<WebflowDetail | undefined> {
  if (!UUID.test(id)) return undefined;
  const row = await db
    .selectFrom('webflows')
    .selectAll()
    .where('company_id', '=', company)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const [view, people, secret] = await Promise.all([
    readWebflowView(db, row, now),
    db
      .selectFrom('webflow_recipients')
      .select(['id', 'opened_at', 'answered_at'])
      .where('flow_id', '=', row.id)
      .execute(),
    db
      .selectFrom('webflow_answers')
      .select('tag')
      .where('flow_id', '=', row.id)
      .where('value_encrypted', 'is not', null)
      .execute(),
  ]);
  const form = row.form as FlowForm;
  return {
    view,
    formTitle: form.title,
    message: row.message,
    sender: {
      name: row.sender_name,
      email: row.sender_email,
      removed: row.sender_user_id === null,
    },
    expiresAt: row.expires_at,
    completedAt: row.completed_at,
    questions: form.tags.map((t) => ({ tag: t.tag, name: t.name, type: t.type })),
    moments: new Map(
      people.map((p) => [p.id, { openedAt: p.opened_at, answeredAt: p.answered_at }] as const),
    ),
    encrypted: new Set(secret.map((s) => s.tag)),
    makesCase: row.case_request !== null,
  };
}
