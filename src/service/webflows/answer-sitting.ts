import type { Kysely, Transaction } from 'kysely';
import type { Database, WebflowRecipientStatus } from '../db/index.js';
import type { FlowForm } from './flow-form.js';
import { questionsOf, type FlowQuestion } from './answer-questions.js';
import { hashWebflowToken } from './webflow-token.js';

/** One person's visit to their flow's page: what the page shows and the answers so far. */
export interface FlowSitting {
  flowId: string;
  company: string;
  title: string;
  message: string | null;
  senderName: string;
  /** The asking company's name: the page says who asks, not only which person. */
  companyName: string;
  recipient: {
    id: string;
    name: string;
    language: string | null;
    status: WebflowRecipientStatus;
  };
  questions: FlowQuestion[];
  /**
   * The flow's answers by tag, whoever gave them (answers are shared per flow). A CPR answer is
   * `null` with `secret` set: it is never read back in plain text, not even to the page.
   */
  answers: Map<string, { value: string | number | boolean | null; secret: boolean }>;
  progress: { answered: number; total: number };
}

type Db = Kysely<Database> | Transaction<Database>;

/**
 * The sitting a link's token opens, or undefined: no such token, a person who has sent their
 * answers already, a flow that is completed, expired (past `expires_at` before the sweep marks
 * it) or whose sender is no longer a member. Each is answered alike, so that the page tells a
 * guesser nothing. `lock` takes the flow's and the person's rows for the transaction (saving and
 * sending), so that two sittings of one flow finish one at a time.
 */
export async function readSitting(
  db: Db,
  token: string,
  now: Date,
  lock = false,
): Promise<FlowSitting | undefined> {
  if (token.length === 0 || token.length > 128) return undefined;
  let query = db
    .selectFrom('webflow_recipients as r')
    .innerJoin('webflows as f', 'f.id', 'r.flow_id')
    .innerJoin('companies as c', 'c.id', 'f.company_id')
    .select([
      'c.name as company_name',
      'r.id as recipientId',
      'r.name',
      'r.language',
      'r.status',
      'f.id as flowId',
      'f.company_id',
      'f.title',
      'f.message',
      'f.sender_name',
      'f.sender_user_id',
      'f.state',
      'f.expires_at',
      'f.form',
    ])
    .where('r.token_sha256', '=', hashWebflowToken(token));
  // The person's and the flow's rows, not the company's: other flows of it go on meanwhile.
  if (lock) query = query.forUpdate(['r', 'f']);
  const row = await query.executeTakeFirst();
  if (
    !row ||
    row.status === 'answered' ||
    (row.state !== 'pending' && row.state !== 'in_progress') ||
    row.expires_at.getTime() <= now.getTime() ||
    row.sender_user_id === null
  )
    return undefined;
  const questions = questionsOf(row.form as FlowForm);
  const stored = await db
    .selectFrom('webflow_answers')
    .select(['tag', 'value', 'value_encrypted'])
    .where('flow_id', '=', row.flowId)
    .execute();
  const asked = new Set(questions.map((q) => q.tag));
  const answers: FlowSitting['answers'] = new Map();
  for (const a of stored)
    if (asked.has(a.tag))
      answers.set(a.tag, {
        value: a.value_encrypted ? null : ((a.value ?? null) as string | number | boolean | null),
        secret: a.value_encrypted !== null,
      });
  return {
    flowId: row.flowId,
    company: row.company_id,
    title: row.title,
    message: row.message,
    senderName: row.sender_name,
    companyName: row.company_name,
    recipient: { id: row.recipientId, name: row.name, language: row.language, status: row.status },
    questions,
    answers,
    progress: { answered: answers.size, total: questions.length },
  };
}

/**
 * Opens a person's page: their sitting, and their status `opened` the first time (the sender
 * sees who has looked). Undefined answers like an absent page (readSitting).
 */
export async function openSitting(
  deps: { db: Kysely<Database>; now?: () => Date },
  token: string,
): Promise<FlowSitting | undefined> {
  const now = deps.now?.() ?? new Date();
  const sitting = await readSitting(deps.db, token, now);
  if (!sitting || sitting.recipient.status !== 'pending') return sitting;
  await deps.db
    .updateTable('webflow_recipients')
    .set({ status: 'opened', opened_at: now })
    .where('id', '=', sitting.recipient.id)
    .where('status', '=', 'pending')
    .execute();
  return { ...sitting, recipient: { ...sitting.recipient, status: 'opened' } };
}
