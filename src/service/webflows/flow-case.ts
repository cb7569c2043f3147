import type { Kysely, Transaction } from 'kysely';
import { DocpipeError, type FailureDetail } from '../../base/errors/index.js';
import type { TagInput } from '../../document/values/index.js';
import { flowCaseCreatorKey } from '../cases/index.js';
import { UserRepository } from '../companies/index.js';
import { CprKeyMissingError } from '../cpr/index.js';
import type { Database } from '../db/index.js';
import { submitFormRecord, type SubmitFormDeps, type SubmitFormOptions } from '../forms/index.js';
import { openCaseRequest } from './flow-case-request.js';
import type { FlowForm } from './flow-form.js';

export interface FlowCaseDeps extends SubmitFormDeps {
  /** This service's public base URL: the case's signing links. */
  publicUrl: string;
  /** The clock. @defaultValue the system's */
  now?: () => Date;
}

/** Why a completed flow made no case, as `webflows.case_error` keeps it and GET shows it. */
export interface FlowCaseError {
  slug: string;
  details: FailureDetail[];
}

/** What makeCaseOfFlow did. */
export type FlowCaseOutcome =
  /** This call made the case. */
  | { outcome: 'created'; caseId: string }
  /** The flow had its case already (an earlier call's, or one made before a crash). */
  | { outcome: 'existing'; caseId: string }
  /** The case was refused (now, or by an earlier call): the reason is the flow's case_error. */
  | { outcome: 'refused'; error: FlowCaseError }
  /** Nothing to make: no such flow in the company, not completed, or no `case` member. */
  | { outcome: 'none'; reason: 'no-flow' | 'not-completed' | 'no-case-request' };

/**
 * A completed flow's signing case (issue 36): its `case` member (`case_request`) as the form
 * submit body of spec 3, with the answers as its tags, filled from the flow's own copy of the
 * form (not the form as it is now), created by the flow's sender. Once: the flow's row is locked
 * for the whole call, so that a second call at once waits and then sees `case_id`; a call after
 * a crash finds the case by its creating key (flowCaseCreatorKey). A refusal that would be the
 * same on a retry (the sender removed: `sender-not-in-company`; a DocpipeError that is not
 * retryable, such as `validation-failed` with its paths) is kept as the flow's `case_error` and
 * answered, not thrown. An outage (storage, database, a busy converter) throws, so that the
 * event's job tries again. A CPR answer is decrypted here only, in memory, as the tag value the
 * case's documents are filled with.
 */
export async function makeCaseOfFlow(
  deps: FlowCaseDeps,
  company: string,
  flowId: string,
): Promise<FlowCaseOutcome> {
  if (!UUID.test(flowId)) return { outcome: 'none', reason: 'no-flow' };
  return deps.db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom('webflows')
      .selectAll()
      .where('company_id', '=', company)
      .where('id', '=', flowId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return { outcome: 'none', reason: 'no-flow' } as const;
    if (row.case_id !== null) return { outcome: 'existing', caseId: row.case_id } as const;
    const recorded = caseErrorOf(row.case_error);
    if (recorded) return { outcome: 'refused', error: recorded } as const;
    if (row.state !== 'completed') return { outcome: 'none', reason: 'not-completed' } as const;
    if (row.case_request === null) return { outcome: 'none', reason: 'no-case-request' } as const;
    const now = deps.now?.() ?? new Date();

    const earlier = await tx
      .selectFrom('cases')
      .select('id')
      .where('company_id', '=', company)
      .where('created_by_key', '=', flowCaseCreatorKey(row.id))
      .executeTakeFirst();
    if (earlier) {
      await storeCase(tx, row.id, earlier.id, now);
      return { outcome: 'existing', caseId: earlier.id } as const;
    }

    const sender =
      row.sender_user_id === null
        ? undefined
        : await new UserRepository(tx).findById(company, row.sender_user_id);
    if (!sender) {
      const error: FlowCaseError = {
        slug: 'sender-not-in-company',
        details: [
          {
            field: 'senderId',
            message: `the web-flow's sender ${row.sender_email} is no longer a member of the company, so its case was not made`,
          },
        ],
      };
      await storeError(tx, row.id, error, now);
      return { outcome: 'refused', error } as const;
    }

    const form = row.form as FlowForm;
    const answers = await flowTagInputs(tx, deps, company, row.id, form);
    const options: SubmitFormOptions = { publicUrl: deps.publicUrl, now };
    try {
      const submitted = await submitFormRecord(
        deps,
        company,
        { id: flowCaseCreatorKey(row.id), userId: sender.id },
        { ...form, id: row.form_id },
        // The flow's title unless the case member names its own: two flows of one form make
        // cases one can tell apart.
        {
          title: row.title,
          ...openCaseRequest(row.case_request, deps.cipher, company),
          tags: answers.tags,
        },
        options,
      );
      await storeCase(tx, row.id, submitted.contract._id, now);
      return { outcome: 'created', caseId: submitted.contract._id } as const;
    } catch (err) {
      if (!(err instanceof DocpipeError) || err.retryable) throw err;
      const error: FlowCaseError = {
        slug: err.slug,
        details: err.details.map((d) => ({ ...d, field: flowField(d.field, answers.rowOf) })),
      };
      await storeError(tx, row.id, error, now);
      return { outcome: 'refused', error } as const;
    }
  });
}

/**
 * The flow's `case_error` as GET /v3/api/webflows/{id} shows it (`caseError`), or null when the
 * case was not refused.
 */
export function caseErrorOf(stored: unknown): FlowCaseError | null {
  if (typeof stored !== 'object' || stored === null) return null;
  const { slug, details } = stored as Partial<FlowCaseError>;
  if (typeof slug !== 'string' || !Array.isArray(details)) return null;
  return { slug, details: details.map((d) => ({ field: d.field, message: d.message })) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The answers as TagInputs, of their question's type (the flow's form's, which the submit
 * checks them against); a question left unanswered takes the form's default in the submit, or
 * is its `validation-failed`. `rowOf[i]` is the place of tags[i]'s answer among the flow's
 * answers ordered by tag (as GET lists them), for the paths of a refusal.
 */
async function flowTagInputs(
  tx: Transaction<Database>,
  deps: FlowCaseDeps,
  company: string,
  flowId: string,
  form: FlowForm,
): Promise<{ tags: TagInput[]; rowOf: number[] }> {
  const rows = await tx
    .selectFrom('webflow_answers')
    .select(['tag', 'type', 'value', 'value_encrypted'])
    .where('flow_id', '=', flowId)
    .orderBy('tag')
    .execute();
  const questions = new Map(form.tags.map((t) => [t.tag, t]));
  const tags: TagInput[] = [];
  const rowOf: number[] = [];
  for (const [i, r] of rows.entries()) {
    const question = questions.get(r.tag);
    if (!question) continue;
    let value: unknown = r.value;
    if (r.value_encrypted !== null) {
      if (!deps.cipher) throw new CprKeyMissingError();
      // Plain text only here, for the document it is filled into; never stored or logged.
      value = deps.cipher.decrypt(r.value_encrypted, company);
    }
    if (value === null || value === undefined) continue;
    tags.push({ tag: r.tag, value, type: question.type });
    rowOf.push(i);
  }
  return { tags, rowOf };
}

/**
 * A refusal's path as the flow's caller knows it: a submitted tag is one of the flow's answers
 * (`answers[i]`, as GET lists them), the tags left without value are the answers, the form's
 * own members keep their `form.` paths, and the rest is the request's `case` member.
 */
function flowField(field: string, rowOf: readonly number[]): string {
  const tag = /^tags\[(\d+)\](.*)$/.exec(field);
  if (tag && Number(tag[1]) < rowOf.length) return `answers[${rowOf[Number(tag[1])]}]${tag[2]}`;
  if (field === 'tags') return 'answers';
  if (field.startsWith('form.')) return field;
  if (field === '') return 'case';
  return `case.${field}`;
}

async function storeCase(
  tx: Kysely<Database>,
  flowId: string,
  caseId: string,
  now: Date,
): Promise<void> {
  await tx
    .updateTable('webflows')
    .set({ case_id: caseId, case_error: null, updated_at: now })
    .where('id', '=', flowId)
    .execute();
}

async function storeError(
  tx: Kysely<Database>,
  flowId: string,
  error: FlowCaseError,
  now: Date,
): Promise<void> {
  await tx
    .updateTable('webflows')
    .set({ case_error: JSON.stringify(error), updated_at: now })
    .where('id', '=', flowId)
    .execute();
}
