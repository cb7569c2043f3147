import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { DocpipeError, reportedProblems, type FailureDetail } from '../../base/errors/index.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../base/files/index.js';
import { normalizeTagName } from '../../document/values/index.js';
import type { Storage } from '../../render/storage/index.js';
import {
  chooseSender,
  firstReminderAt,
  reminderSettings,
  type ServiceNotice,
} from '../cases/index.js';
import type { CprCipher } from '../cpr/index.js';
import type { Database } from '../db/index.js';
import {
  FormRepository,
  formTagValues,
  valueProblems,
  type FormRecord,
  type TagDefinition,
} from '../forms/index.js';
import { caseRequestProblems, sealCaseRequest } from './flow-case-request.js';
import { flowFormOf } from './flow-form.js';
import { copyFlowTemplates, flowTemplatesFolder, removeFlowTemplates } from './flow-templates.js';
import { WORKFLOW_CREATED } from './flow-triggers.js';
import {
  IDEMPOTENCY_TTL_MS,
  idempotencyKeyProblem,
  requestFingerprint,
} from './idempotency-key.js';
import { DEFAULT_EXPIRES_IN_DAYS, type WebflowBody } from './webflow-body.js';
import { newWebflowRecipientId, webflowTokenFor } from './webflow-token.js';
import { readWebflowView, summaryOf, type WebflowSummary } from './webflow-view.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface CreateWebflowDeps {
  db: Kysely<Database>;
  /** The installation's signing secret: each person's link token is derived from it. */
  signingSecret: string;
  /** Where a flow with `case` keeps its own copies of its form's templates. */
  storage: Storage;
  /** Encrypts the CPR numbers of the `case` member's recipients; absent: none may be sent. */
  cipher?: CprCipher;
  /** The clock. @defaultValue the system's */
  now?: () => Date;
}

export interface CreateWebflowRequest {
  company: string;
  /** The key's user, who sends when the body names no sender. */
  keyUserId?: string;
  /** The `Idempotency-Key` header as sent; undefined when it was not. */
  idempotencyKey: string | undefined;
  /** The body, structurally sound (WebflowBodySchema). */
  body: WebflowBody;
}

export interface CreatedWebflow {
  webflow: WebflowSummary;
  /** `sender-defaulted-to-key-creator` when the key's user sends; none on a replay. */
  notices: ServiceNotice[];
  /** The key and body were seen before: this is the first request's flow, nothing new made. */
  replayed: boolean;
}

/**
 * `POST /v3/api/webflows`: the flow, its recipients (each with a link token kept as its SHA-256
 * only), its `workflow.created` event (delivery sends the invitations when it handles it) and the
 * idempotency key, in one transaction. A flow with `case` gets its own copies of the form's
 * templates first, so that a re-import of the form cannot take its case's documents; they are
 * removed again when the transaction fails. Calls with one key wait for each other on
 * an advisory lock taken before the key is looked up, so two at once make one flow: the later
 * finds the earlier's key. A live key with the same fingerprint answers its flow again; with
 * another, `idempotency-conflict`. A key past its 24 hours is replaced.
 */
export async function createWebflow(
  deps: CreateWebflowDeps,
  request: CreateWebflowRequest,
): Promise<CreatedWebflow> {
  const { company, body } = request;
  const keyProblem = idempotencyKeyProblem(request.idempotencyKey);
  if (keyProblem) throw new DocpipeError('validation-failed', [keyProblem]);
  const key = request.idempotencyKey!;
  // The open `case` member may nest anything; the fingerprint walks it recursively.
  if (nestsDeeperThan(body, MAX_JSON_DEPTH))
    throw new DocpipeError('validation-failed', [
      { field: 'case', message: `nests deeper than ${MAX_JSON_DEPTH} levels` },
    ]);
  const fingerprint = requestFingerprint(body);
  const now = deps.now?.() ?? new Date();
  // Made here so that the template copies can be filed under it before the row exists.
  const flowId = randomUUID();
  const copied: string[] = [];

  const made = deps.db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtext('docpipe-webflow'), hashtext(${`${company}:${key}`}))`.execute(
      tx,
    );
    const seen = await tx
      .selectFrom('webflow_idempotency')
      .selectAll()
      .where('company_id', '=', company)
      .where('key', '=', key)
      .executeTakeFirst();
    if (seen && seen.expires_at.getTime() > now.getTime()) {
      if (!seen.fingerprint.equals(fingerprint))
        throw new DocpipeError('idempotency-conflict', [
          {
            field: 'Idempotency-Key',
            message:
              'was used within the last 24 hours with another request body: send a new key for a new flow',
          },
        ]);
      const row = await tx
        .selectFrom('webflows')
        .selectAll()
        .where('id', '=', seen.flow_id)
        .executeTakeFirstOrThrow();
      return {
        webflow: summaryOf(await readWebflowView(tx, row, now)),
        notices: [],
        replayed: true,
      };
    }

    const form = await publishedWebflowForm(tx, company, body.formId);
    const problems: FailureDetail[] = [];
    const choice = await chooseSender(tx, company, body, request.keyUserId, {
      what: 'the web-flow',
    });
    problems.push(...choice.problems);
    const prefill = prefilledValues(form.tags, body.tags ?? [], problems);
    problems.push(...caseRequestProblems(body.case, form.recipients));
    if (problems.length > 0)
      throw new DocpipeError('validation-failed', reportedProblems(problems, 'body'));
    if (choice.keyless || !choice.sender)
      throw new DocpipeError('sender-not-in-company', [
        {
          field: 'senderEmail',
          message:
            "the API key's user is no longer a member of the company, so the web-flow has no sender: send senderId or senderEmail",
        },
      ]);
    const sender = choice.sender;
    const caseRequest =
      body.case === undefined ? null : sealCaseRequest(body.case, deps.cipher, company);
    let documents = form.documents;
    if (caseRequest !== null) {
      documents = await copyFlowTemplates(
        deps.storage,
        company,
        flowTemplatesFolder(company, flowId),
        form.documents,
      );
      copied.push(...documents.map((d) => d.storageKey));
    }

    const expiresInDays = body.settings?.expiresInDays ?? DEFAULT_EXPIRES_IN_DAYS;
    const resolved = reminderSettings({
      ...(form.settings.reminders ?? {}),
      ...(body.settings?.reminders ?? {}),
    });
    const { autoSend: _autoSend, ...reminders } = resolved;
    const flow = await tx
      .insertInto('webflows')
      .values({
        id: flowId,
        company_id: company,
        form_id: form.id,
        form: JSON.stringify({ ...flowFormOf(form, prefill), documents }),
        title: body.title ?? form.title,
        message: body.message ?? null,
        sender_user_id: sender.id,
        sender_email: sender.email,
        sender_name: sender.name,
        settings: JSON.stringify({ expiresInDays, reminders }),
        case_request: caseRequest === null ? null : JSON.stringify(caseRequest),
        expires_at: new Date(now.getTime() + expiresInDays * DAY_MS),
        // A flow reminds by itself or not at all: it has no "remind now" of a case's.
        next_reminder_at: firstReminderAt(now, { ...resolved, autoSend: true }),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('webflow_recipients')
      .values(
        body.recipients.map((r, position) => {
          const id = newWebflowRecipientId();
          return {
            id,
            flow_id: flow.id,
            company_id: company,
            position,
            name: r.name,
            email: r.email,
            language: r.language ?? null,
            // Only the hash is stored; delivery derives the token again for each e-mail.
            token_sha256: webflowTokenFor(deps.signingSecret, id).hash,
          };
        }),
      )
      .execute();
    // The outbox: delivery plans and sends the invitations once this has committed.
    await tx
      .insertInto('case_events')
      .values({
        company_id: company,
        flow_id: flow.id,
        case_id: null,
        trigger: WORKFLOW_CREATED,
        payload: JSON.stringify({
          trigger: WORKFLOW_CREATED,
          flow: { _id: flow.id, updatedAt: flow.updated_at.toISOString() },
        }),
        created_at: now,
      })
      .execute();
    // Under the lock the key is absent or expired: an expired one is taken over in place.
    const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
    await tx
      .insertInto('webflow_idempotency')
      .values({
        company_id: company,
        key,
        fingerprint,
        flow_id: flow.id,
        created_at: now,
        expires_at: expiresAt,
      })
      .onConflict((oc) =>
        oc
          .columns(['company_id', 'key'])
          .doUpdateSet({ fingerprint, flow_id: flow.id, expires_at: expiresAt }),
      )
      .execute();
    return {
      webflow: summaryOf(await readWebflowView(tx, flow, now)),
      notices: choice.notice ? [choice.notice] : [],
      replayed: false,
    };
  });
  return made.catch(async (err: unknown) => {
    await removeFlowTemplates(deps.storage, copied);
    throw err;
  });
}

/**
 * The company's form that may start a flow: published (`active`) and web-flow enabled. Absent,
 * another company's, unpublished and not enabled are answered alike, so that the answer tells
 * nothing of another company's forms.
 */
async function publishedWebflowForm(
  db: Kysely<Database>,
  company: string,
  formId: string,
): Promise<FormRecord> {
  const form = await new FormRepository(db).find(company, formId);
  if (!form || !form.active || !form.webflow)
    throw new DocpipeError('form-not-found', [
      {
        field: 'formId',
        message: `no published web-flow-enabled form ${JSON.stringify(formId)} in the company`,
      },
    ]);
  return form;
}

/**
 * The prefilled values by tag: each a question of the form, of its type, and a value the
 * pipeline's own parsers take (the same check a form submit makes). Problems at `tags[i]...`.
 * A question left out is simply not prefilled (the form submit's "no value" rule is the case's).
 */
function prefilledValues(
  questions: readonly TagDefinition[],
  tags: NonNullable<WebflowBody['tags']>,
  problems: FailureDetail[],
): Map<string, TagDefinition['value']> {
  const checked = formTagValues(questions, tags);
  problems.push(...checked.problems.filter((p) => p.field !== 'tags'));
  problems.push(...valueProblems(tags, undefined));
  const prefill = new Map<string, TagDefinition['value']>();
  for (const t of tags) {
    const value = t.value;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      prefill.set(normalizeTagName(t.tag), value);
  }
  return prefill;
}
