import type { Transaction } from 'kysely';
import type { Database } from '../db/index.js';
import type { NumberLocale } from './answer-number.js';
import { checkAnswers, type AnswerProblem } from './answer-check.js';
import { readSitting, type FlowSitting } from './answer-sitting.js';
import { writeAnswers, type AnswerDeps } from './answer-write.js';
import { WORKFLOW_COMPLETED } from './flow-triggers.js';

/**
 * A send's outcome: gone (answers as absent); refused with every problem (what passed is saved,
 * as a save would); or sent, and whether it completed the flow.
 */
export type SendOutcome =
  | { kind: 'gone' }
  | { kind: 'refused'; sitting: FlowSitting; problems: AnswerProblem[] }
  | { kind: 'sent'; sitting: FlowSitting; completed: boolean };

/**
 * "Send answers": the sitting's last answers saved and checked, then every question the form
 * needs an answer to (no default, no answer: its case could not fill the tag) must have one,
 * else every problem is answered at once and nothing is sent. Sent: the person's status is
 * `answered` and their link opens nothing any more. The last recipient's send completes the flow
 * (`completed`, `completed_at`) and writes its `workflow.completed` event in the same
 * transaction (the outbox), so that the event exists exactly when the flow is completed.
 */
export async function sendAnswers(
  deps: AnswerDeps,
  token: string,
  given: ReadonlyMap<string, string>,
  /** The page's language: how its numbers are written. */
  locale: NumberLocale,
): Promise<SendOutcome> {
  const now = deps.now?.() ?? new Date();
  return deps.db.transaction().execute(async (tx): Promise<SendOutcome> => {
    const sitting = await readSitting(tx, token, now, true);
    if (!sitting) return { kind: 'gone' };
    const { writes, problems } = checkAnswers(sitting.questions, given, locale);
    await writeAnswers(tx, deps, sitting, writes, now);
    const after = (await readSitting(tx, token, now))!;
    const refused = new Set(problems.map((p) => p.tag));
    for (const q of after.questions)
      if (q.required && !after.answers.has(q.tag) && !refused.has(q.tag))
        problems.push({ tag: q.tag, index: q.index, code: 'required', message: 'is required' });
    if (problems.length > 0) {
      problems.sort((a, b) => a.index - b.index);
      return { kind: 'refused', sitting: after, problems };
    }
    await tx
      .updateTable('webflow_recipients')
      .set({ status: 'answered', answered_at: now })
      .where('id', '=', after.recipient.id)
      .execute();
    const completed = await completeIfAllSent(tx, after, now);
    return { kind: 'sent', sitting: after, completed };
  });
}

/** Completes the flow when no recipient is left to send, with its event; whether it did. */
async function completeIfAllSent(
  tx: Transaction<Database>,
  sitting: FlowSitting,
  now: Date,
): Promise<boolean> {
  const waiting = await tx
    .selectFrom('webflow_recipients')
    .select('id')
    .where('flow_id', '=', sitting.flowId)
    .where('status', '!=', 'answered')
    .executeTakeFirst();
  if (waiting) {
    await tx
      .updateTable('webflows')
      .set({ updated_at: now })
      .where('id', '=', sitting.flowId)
      .execute();
    return false;
  }
  const flow = await tx
    .updateTable('webflows')
    .set({ state: 'completed', completed_at: now, updated_at: now, next_reminder_at: null })
    .where('id', '=', sitting.flowId)
    .returning(['id', 'form_id', 'title', 'updated_at', 'completed_at'])
    .executeTakeFirstOrThrow();
  // The payload is fixed now, as a case event's is: consumers deduplicate on
  // trigger:_id:updatedAt, and a webhook's body never changes after.
  const payload = {
    trigger: WORKFLOW_COMPLETED,
    flow: {
      _id: flow.id,
      updatedAt: flow.updated_at.toISOString(),
      state: 'completed',
      formId: flow.form_id,
      title: flow.title,
      completedAt: flow.completed_at!.toISOString(),
    },
  };
  await tx
    .insertInto('case_events')
    .values({
      company_id: sitting.company,
      flow_id: sitting.flowId,
      case_id: null,
      trigger: WORKFLOW_COMPLETED,
      payload: JSON.stringify(payload),
      created_at: now,
    })
    .execute();
  return true;
}
