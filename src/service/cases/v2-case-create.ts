import { DocpipeError, isDocpipeError } from '../../base/errors/index.js';
import { CprKeyMissingError, recipientCprs, type CprCipher } from '../cpr/index.js';
import type { CaseView } from './case-answer.js';
import type {
  CaseCreator,
  CreateCaseOptions,
  CreatedCase,
  KeyCreator,
} from './case-create-options.js';
import type { CaseInput } from './case-input.js';
import { v2CaseData, type V2CreatedCase } from './v2-case-answer.js';
import { checkMappedInput, checkV2Body } from './v2-case-check.js';
import { v2CaseInput } from './v2-case-input.js';

/** What the v2 create needs of the case service (CaseService fits): its create and its read. */
export interface CaseCreatePath {
  createCase(
    company: string,
    creator: CaseCreator,
    body: CaseInput,
    options: CreateCaseOptions,
  ): Promise<CreatedCase>;
  getCase(company: string, id: string): Promise<CaseView>;
}

export interface CreateV2CaseOptions extends Omit<CreateCaseOptions, 'policy'> {
  /**
   * Encrypts the recipients' CPR numbers when the body carries them (and `encryptedCprs` is not
   * given): without it, such a body is CprKeyMissingError and nothing is created.
   */
  cprCipher?: Pick<CprCipher, 'encrypt'>;
  /**
   * `draft` creates without sending, and its recipients' links are not answered (spec 3, form
   * submit); v2 case create has no state: its cases are open. @defaultValue 'open'
   */
  state?: 'draft' | 'open';
}

/**
 * `POST /api/v2/{company}/case/create` (spec 4.2, 9) through the v3 create path: the v2 body
 * checked (every problem at once, at its v2 path), mapped to the case service's input (spec 9's
 * table), held to v3's structure, then CaseService.createCase under v2's policy (unknown folder:
 * the default one; `signing` false; 90 days; Danish; the sender as v2 names it), so that a v2
 * case is written by the same references check, pipeline and transaction as a v3 one. Every
 * failure is a DocpipeError whose details name the v2 members (`settings.lang`,
 * `documents[0].file`, `emailtemplate`, `user`). The answer is spec 2.3's `{data, notices}`.
 */
export async function createV2Case(
  cases: CaseCreatePath,
  company: string,
  creator: KeyCreator,
  raw: unknown,
  options: CreateV2CaseOptions,
): Promise<V2CreatedCase> {
  const { body, wrapped } = checkV2Body(raw);
  const mapping = v2CaseInput(body, wrapped);
  const { state, cprCipher, ...createOptions } = options;
  if (createOptions.encryptedCprs === undefined) {
    // The numbers were checked with the body; each goes to the writer only as ciphertext.
    const { cprs } = recipientCprs(body.recipients, { requiredWithNeedsCpr: false });
    if (cprs.some((c) => c !== undefined)) {
      if (!cprCipher) throw new CprKeyMissingError();
      createOptions.encryptedCprs = cprs.map((c) =>
        c === undefined ? undefined : cprCipher.encrypt(c, company),
      );
    }
  }
  const input = { ...mapping.input, ...(state !== undefined ? { state } : {}) };
  // `mustBeRead` (v2 documentMustBeRead) is no v3 member: the closed v3 schema checks the rest.
  checkMappedInput(
    {
      ...input,
      ...(input.documents
        ? { documents: input.documents.map(({ mustBeRead, ...d }) => (void mustBeRead, d)) }
        : {}),
    },
    mapping.fieldOf,
  );
  let created;
  try {
    created = await cases.createCase(company, creator, input, {
      ...createOptions,
      source: createOptions.source ?? 'v2',
      policy: mapping.policy,
    });
  } catch (err) {
    if (!isDocpipeError(err)) throw err;
    throw new DocpipeError(
      err.slug,
      err.details.map((d) => ({ ...d, field: mapping.fieldOf(d.field) })),
      { cause: err, retryable: err.retryable },
    );
  }
  const view = await cases.getCase(company, created.case.id);
  const data = v2CaseData({
    company,
    keyId: creator.id,
    given: { recipients: body.recipients ?? [], documents: mapping.documents },
    created: created.case,
    view,
    now: options.now ?? new Date(),
  });
  return { data, notices: created.notices };
}
