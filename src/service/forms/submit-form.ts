import type { Kysely } from 'kysely';
import { DocpipeError, reportedProblems, type FailureDetail } from '../../base/errors/index.js';
import { schemaChecker } from '../../base/schema/index.js';
import { DEFAULT_TIME_ZONE } from '../../document/fill/index.js';
import {
  DEFAULT_LOCALE,
  resolveLocale,
  resolveTagInputs,
  type ValueLimits,
} from '../../document/values/index.js';
import type { Storage } from '../../render/storage/index.js';
import {
  type KeyCreator,
  type CaseService,
  type CreateV2CaseOptions,
  type V2CaseData,
  type V2DocumentAnswer,
  type V2RecipientAnswer,
} from '../cases/index.js';
import { CprKeyMissingError, recipientCprs, type CprCipher } from '../cpr/index.js';
import type { Database } from '../db/index.js';
import { FormRepository } from './form-repository.js';
import { formTagValues } from './form-tags.js';
import type { FormRecord } from './form-types.js';
import { FormSubmitBodySchema, SUBMIT_STATES, type FormSubmitBody } from './submit-body.js';

export interface SubmitFormDeps {
  db: Kysely<Database>;
  /** Where the forms' templates are. */
  storage: Storage;
  /** The case service the case is created through (v2's create path). */
  cases: Pick<CaseService, 'createV2Case'>;
  /** Stores CPR numbers encrypted; absent: a submit with `needsCpr` is CprKeyMissingError. */
  cipher?: CprCipher;
  /** What tag values may be (config.values), as the worker's fill holds them. @defaultValue DEFAULT_VALUE_LIMITS */
  valueLimits?: ValueLimits;
}

export type SubmitFormOptions = Omit<CreateV2CaseOptions, 'state' | 'encryptedCprs'>;

/** The created case as submit answers it (spec 4.1): a case summary and its recipients. */
export interface FormContract {
  _id: string;
  title: string;
  folder: string;
  type: string;
  /** Present for a draft only (spec 4.1). */
  state?: 'draft';
  createdAt: string;
  updatedAt: string;
  /** Each with `url` only when the case is open, `redirectUrl` as submitted; never a CPR. */
  recipients: ContractRecipient[];
  documents: V2DocumentAnswer[];
}

/** A v2 recipient answer without its signing token (the last segment of `url` anyway). */
export interface ContractRecipient extends Record<string, unknown> {
  _id: string;
  uid: string;
  signed: string;
  type: string;
  url?: string;
  redirectUrl?: string;
}

export interface FormSubmitted {
  status: 'OK';
  message: 'Contract created and sent' | 'Contract created';
  contract: FormContract;
}

const checkBody = schemaChecker(FormSubmitBodySchema);

/**
 * `POST /api/v2/{company}/forms/{form_id}/submit` (spec 4.1, 3): the company's form filled with
 * the submitted TagInputs and its defaults, made a case through v2's create path (its checks,
 * the pipeline, one transaction), under spec 3's state rules:
 * - `state` omitted or `open`: an open case; `draft`: a draft;
 * - `autoSend` defaults to true, to false for a draft, and a given one wins; the message is
 *   "Contract created and sent" when it is sent, "Contract created" when not;
 * - a recipient's `url` is answered for an open case only; `redirectUrl` is echoed;
 * - `needsCpr` requires `cpr`, which is stored encrypted with the recipient (CprCipher), never in
 *   plain text, and never answered;
 * - `order` is the legacy name of `group`.
 * The case's recipients are the submitted ones, then the form's preset ones. Every problem of
 * the body is one `validation-failed` with every path; an unknown or inactive form is
 * `form-not-found`. Nothing is written unless the answer is the case.
 */
export async function submitForm(
  deps: SubmitFormDeps,
  company: string,
  creator: KeyCreator,
  formId: string,
  raw: unknown,
  options: SubmitFormOptions,
): Promise<FormSubmitted> {
  const form = await new FormRepository(deps.db).find(company, formId);
  if (!form)
    throw new DocpipeError('form-not-found', [
      { field: 'form_id', message: `the company has no form ${JSON.stringify(formId)}` },
    ]);
  if (!form.active)
    throw new DocpipeError('form-not-found', [
      { field: 'form_id', message: `the form ${JSON.stringify(formId)} is not active` },
    ]);
  return submitFormRecord(deps, company, creator, form, raw, options);
}

/**
 * What a submit fills: the form as its row has it, or a web-flow's copy of it as it was when
 * the flow was made (service/webflows' FlowForm with the form's id), which no re-import changes.
 */
export type SubmittedForm = Pick<
  FormRecord,
  'id' | 'title' | 'folder' | 'settings' | 'tags' | 'recipients' | 'documents'
>;

/**
 * submitForm's work once the form is known, for a caller that has the form itself: a completed
 * web-flow makes its case from its own copy of the form, which may since have been re-imported
 * or unpublished. The same checks, rules and answer as submitForm.
 */
export async function submitFormRecord(
  deps: SubmitFormDeps,
  company: string,
  creator: KeyCreator,
  form: SubmittedForm,
  raw: unknown,
  options: SubmitFormOptions,
): Promise<FormSubmitted> {
  const { body, tags, cprs } = checkedSubmit(form, raw, deps.valueLimits);
  if (cprs.some((c) => c !== undefined) && !deps.cipher) throw new CprKeyMissingError();

  const state = body.state === 'draft' ? 'draft' : 'open';
  const autoSend = body.autoSend ?? state !== 'draft';
  const documents = await Promise.all(
    form.documents.map(async (d) => {
      const bytes = await deps.storage.get(d.storageKey);
      if (!bytes)
        throw new Error(
          `the template of form ${form.id} document ${d.name} (${d.storageKey}) is gone from storage; import the form again`,
        );
      return {
        name: d.name,
        file: bytes.toString('base64'),
        fileIsBlob: true,
        ...(d.signObligated !== undefined ? { signObligated: d.signObligated } : {}),
        ...(d.documentMustBeRead !== undefined ? { documentMustBeRead: d.documentMustBeRead } : {}),
        ...(d.signatories !== undefined ? { signatories: d.signatories } : {}),
      };
    }),
  );
  const submitted = body.recipients.map(({ cpr, ...r }) => (void cpr, r));
  const v2Body = {
    title: body.title ?? form.title,
    settings: mergedSettings(form.settings, body.settings),
    ...(body.folder !== undefined || form.folder !== null
      ? { folder: body.folder ?? form.folder }
      : {}),
    ...pick(body, [
      'referenceId',
      'customMessage',
      'message',
      'user_name',
      'user_email',
      'signingSchemas',
    ]),
    autoSend,
    tags,
    recipients: [...submitted, ...form.recipients],
    documents,
  };
  const encryptedCprs = cprs.map((c) =>
    c === undefined ? undefined : deps.cipher!.encrypt(c, company),
  );
  let created;
  try {
    created = await deps.cases.createV2Case(company, creator, v2Body, {
      ...options,
      source: 'form',
      state,
      encryptedCprs,
    });
  } catch (err) {
    if (!(err instanceof DocpipeError)) throw err;
    throw new DocpipeError(
      err.slug,
      err.details.map((d) => ({
        ...d,
        field: submitField(d.field, submitted.length, body.tags.length),
      })),
      { cause: err, retryable: err.retryable },
    );
  }
  return {
    status: 'OK',
    message: autoSend ? 'Contract created and sent' : 'Contract created',
    contract: contractOf(created.data, state),
  };
}

/** The body's structure and its rules, every problem at once; the tag values and CPR numbers. */
function checkedSubmit(
  form: SubmittedForm,
  raw: unknown,
  valueLimits: ValueLimits | undefined,
): { body: FormSubmitBody; tags: FormSubmitBody['tags']; cprs: (string | undefined)[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new DocpipeError('validation-failed', [
      { field: '', message: 'must be a JSON object: {tags, recipients, ...}' },
    ]);
  const problems: FailureDetail[] = checkBody(raw, '');
  const body = raw as FormSubmitBody;
  if (body.state !== undefined && !(SUBMIT_STATES as readonly unknown[]).includes(body.state))
    problems.push({
      field: 'state',
      message: `must be ${SUBMIT_STATES.join(' or ')} (or left out: open)`,
    });
  const { cprs, problems: cprProblems } = recipientCprs(body.recipients, {
    requiredWithNeedsCpr: true,
  });
  problems.push(...cprProblems);
  let tags: FormSubmitBody['tags'] = [];
  if (Array.isArray(body.tags) && body.tags.every((t) => typeof t === 'object' && t !== null)) {
    const values = formTagValues(form.tags, body.tags);
    problems.push(...values.problems);
    // The values' own problems (a date that is none, a bad format), found now rather than when
    // the templates are filled, so that one answer lists them with the rest. The same parser
    // the fill runs; the locale only formats, so the default one serves here.
    problems.push(...valueProblems(body.tags, valueLimits));
    tags = values.tags;
  }
  if (problems.length > 0)
    throw new DocpipeError('validation-failed', reportedProblems(problems, 'body'));
  return { body, tags, cprs };
}

/**
 * Every problem the fill would find in the submitted values, at `tags[i]...`; web-flows check
 * their prefilled values with it too, so that a value a flow takes is one its case can fill.
 */
export function valueProblems(
  tags: FormSubmitBody['tags'],
  limits: ValueLimits | undefined,
): FailureDetail[] {
  const locale = resolveLocale(DEFAULT_LOCALE);
  if (typeof locale === 'string') throw new Error(locale);
  return resolveTagInputs(tags, {
    locale,
    timeZone: DEFAULT_TIME_ZONE,
    ...(limits ? { values: limits } : {}),
  }).problems;
}

/** A problem's path as the caller knows it: the form's own recipients and documents named so. */
function submitField(field: string, recipients: number, tags: number): string {
  const recipient = /^recipients\[(\d+)\](.*)$/.exec(field);
  if (recipient && Number(recipient[1]) >= recipients)
    return `form.recipients[${Number(recipient[1]) - recipients}]${recipient[2]}`;
  const tag = /^documents\[\d+\]\.tags\[(\d+)\](.*)$/.exec(field);
  if (tag) return Number(tag[1]) < tags ? `tags[${tag[1]}]${tag[2]}` : `form.tags${tag[2]}`;
  const doc = /^documents\[(\d+)\](.*)$/.exec(field);
  if (doc) return `form.documents[${doc[1]}]${doc[2]}`;
  return field;
}

/** The form's settings beneath the submitted ones, member by member one level down. */
function mergedSettings(
  form: Record<string, unknown>,
  given: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...form };
  for (const [key, value] of Object.entries(given ?? {})) {
    const below = out[key];
    out[key] = isObject(below) && isObject(value) ? { ...below, ...value } : value;
  }
  return out;
}

function contractOf(data: V2CaseData, state: 'open' | 'draft'): FormContract {
  return {
    _id: data._id,
    title: data.title,
    folder: data.folder,
    type: data.type,
    ...(state === 'draft' ? { state } : {}),
    createdAt: data.createdAt,
    updatedAt: data.updatedAt,
    // The token is the last segment of `url`: the link is the one thing a caller needs.
    recipients: data.recipients.map(contractRecipient),
    documents: data.documents,
  };
}

function contractRecipient(r: V2RecipientAnswer): ContractRecipient {
  const { signingToken, _id, uid, signed, type, url, ...rest } = r;
  void signingToken;
  return { ...rest, _id, uid, signed, type, ...(url !== undefined ? { url } : {}) };
}

function pick<T extends object, K extends keyof T>(
  from: T,
  keys: readonly K[],
): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (from[k] !== undefined) out[k] = from[k];
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
