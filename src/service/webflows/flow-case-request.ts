import type { FailureDetail } from '../../base/errors/index.js';
import { CprKeyMissingError, recipientCprs, type CprCipher } from '../cpr/index.js';
import type { WebflowBody } from './webflow-body.js';

/**
 * Where a recipient's CPR number waits in a flow's stored `case` member (`webflows.case_request`)
 * until the case is made: encrypted as every stored CPR number is (base64 of the cipher's bytes),
 * never in plain text. The member's name is docpipe's; a request never sends it.
 */
const SEALED_CPR = 'cprEncrypted';

type CaseRequest = NonNullable<WebflowBody['case']>;

/**
 * What the form submit body of the flow's case may not carry at creation. `tags`: the answers
 * are the case's tags (the form submit schema is open, so the member would pass its check and be
 * dropped without a word). The recipients' CPR numbers under the form submit's rules (only with
 * `needsCpr: true`, required there, 10 digits or 6, a dash and 4), at `case.recipients[i].cpr`:
 * the submit itself would refuse them, but only days later, when the flow is completed. And at
 * least one signer (among the member's and the form's recipients) unless it asks for a draft.
 */
export function caseRequestProblems(
  request: CaseRequest | undefined,
  formRecipients: readonly { signing?: boolean | undefined }[],
): FailureDetail[] {
  if (request === undefined) return [];
  const problems: FailureDetail[] = [];
  // A form submit's recipient only gets a copy unless it says `signing: true` (v2's default):
  // an open case whose people all just get copies could never be signed, and would wait for
  // nobody until it expired. The form's own recipients count, as the submit adds them.
  const signers = [...recipientsOf(request), ...formRecipients].filter((r) => r.signing === true);
  if (request.state !== 'draft' && signers.length === 0)
    problems.push({
      field: 'case.recipients',
      message:
        'nobody would sign the case: give "signing": true to each recipient who must sign (without it a recipient gets a copy only, as in a form submit)',
    });
  if (Object.hasOwn(request, 'tags'))
    problems.push({
      field: 'case.tags',
      message:
        "is not taken: the flow's answers are its case's tags; send values that prefill the questions as the flow's own tags",
    });
  if (Object.hasOwn(request, SEALED_CPR) || recipientsOf(request).some((r) => SEALED_CPR in r))
    problems.push({
      field: 'case',
      message: `${SEALED_CPR} is docpipe's own member: leave it out`,
    });
  const { problems: cprProblems } = recipientCprs(request.recipients, {
    requiredWithNeedsCpr: true,
  });
  problems.push(...cprProblems.map((p) => ({ ...p, field: `case.${p.field}` })));
  return problems;
}

/**
 * The `case` member as it is stored: each recipient's CPR number encrypted for the company
 * (`cprEncrypted`), the rest as sent. Throws CprKeyMissingError when a CPR number is given and
 * no CPR key is configured, as a form submit does.
 */
export function sealCaseRequest(
  request: CaseRequest,
  cipher: CprCipher | undefined,
  company: string,
): Record<string, unknown> {
  // caseRequestProblems has refused every other number before this is called.
  const { cprs } = recipientCprs(request.recipients, { requiredWithNeedsCpr: true });
  if (cprs.every((c) => c === undefined)) return { ...request };
  if (!cipher) throw new CprKeyMissingError();
  return {
    ...request,
    recipients: request.recipients.map((r, i) => {
      const cpr = cprs[i];
      if (cpr === undefined) return r;
      const { cpr: _given, ...rest } = r;
      return { ...rest, [SEALED_CPR]: cipher.encrypt(cpr, company).toString('base64') };
    }),
  };
}

/**
 * The stored `case` member as the form submit body it was sent as: each sealed CPR number
 * decrypted again, in memory only, for the submit that encrypts it again with the case.
 */
export function openCaseRequest(
  stored: unknown,
  cipher: CprCipher | undefined,
  company: string,
): Record<string, unknown> {
  const request = { ...(stored as Record<string, unknown>) };
  const recipients = recipientsOf(request);
  if (!recipients.some((r) => typeof r[SEALED_CPR] === 'string')) return request;
  if (!cipher) throw new CprKeyMissingError();
  request.recipients = recipients.map((r) => {
    const sealed = r[SEALED_CPR];
    if (typeof sealed !== 'string') return r;
    const { [SEALED_CPR]: _sealed, ...rest } = r;
    return { ...rest, cpr: cipher.decrypt(Buffer.from(sealed, 'base64'), company) };
  });
  return request;
}

function recipientsOf(request: object): Record<string, unknown>[] {
  const recipients = (request as { recipients?: unknown }).recipients;
  return Array.isArray(recipients)
    ? recipients.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null)
    : [];
}
