import {
  DocpipeError,
  joinField,
  reportedProblems,
  type FailureDetail,
} from '../../base/errors/index.js';
import { schemaChecker } from '../../base/schema/index.js';
import { resolveLocale } from '../../document/values/index.js';
import { CaseBodySchema, caseBodyRuleProblems } from './case-body.js';
import type { CaseInput } from './case-input.js';
import { recipientCprs } from '../cpr/index.js';
import { V2CaseBodySchema, type V2CaseBody } from './v2-case-body.js';

/** Compiled once: every v2 create is checked against both. */
const V2 = schemaChecker(V2CaseBodySchema);
const V3 = schemaChecker(CaseBodySchema);

/** A v2 body that passed the check, and whether it came wrapped in `values`. */
export interface CheckedV2Body {
  body: V2CaseBody;
  wrapped: boolean;
}

/**
 * Rule 1 for a v2 body: `values` unwrapped when the body is wrapped in it (spec 9), then the v2
 * schema (types and ranges of the members v2 knows; any other member is ignored, as v2 did) and
 * the rules beside it, every problem at once in one `validation-failed`, each at its path in the
 * request as sent (`values.` first when wrapped).
 */
export function checkV2Body(raw: unknown): CheckedV2Body {
  const wrapped = isObject(raw) && isObject(raw.values);
  const body = wrapped ? (raw as { values: unknown }).values : raw;
  const prefix = wrapped ? 'values' : '';
  if (!isObject(body))
    throw new DocpipeError('validation-failed', [
      { field: prefix, message: 'must be a JSON object: the case to create' },
    ]);
  const problems = [...V2(body), ...v2BodyRuleProblems(body)].map((p) => ({
    ...p,
    field: p.field ? joinField(prefix, p.field) : prefix,
  }));
  if (problems.length > 0)
    throw new DocpipeError('validation-failed', reportedProblems(problems, prefix || 'body'));
  return { body: body, wrapped };
}

/**
 * The mapped input held to v3's own structure (case-body.ts), each problem said at its v2 path:
 * a safety net behind the v2 schema, whose ranges are v3's, so that a v2 case is never one v3
 * would refuse the shape of.
 */
export function checkMappedInput(input: CaseInput, fieldOf: (v3Field: string) => string): void {
  const problems = [...V3(input), ...caseBodyRuleProblems(input)].map((p) => ({
    ...p,
    field: fieldOf(p.field),
  }));
  if (problems.length > 0)
    throw new DocpipeError('validation-failed', reportedProblems(problems, 'body'));
}

/**
 * What the v2 schema says badly: a title (`title` or `name`); each document's `file` (a
 * `document_id` is refused: v2's document store is not here, and the file must be sent); a
 * recipient's `cpr` only with `needsCpr` and in its form (it is stored encrypted); one message
 * template when both spellings are sent; a language
 * docpipe formats for.
 */
export function v2BodyRuleProblems(body: Record<string, unknown>): FailureDetail[] {
  const problems: FailureDetail[] = [];
  if (body.title === undefined && body.name === undefined)
    problems.push({ field: 'title', message: 'is required (or its old name, name)' });
  if (Array.isArray(body.documents))
    body.documents.forEach((d: unknown, i) => {
      if (!isObject(d)) return;
      const at = `documents[${i}]`;
      if (d.document_id !== undefined)
        problems.push({
          field: `${at}.document_id`,
          message:
            'is not supported: documents are not taken by id here; upload the file (POST /v3/company/{company}/file/upload) and send its URL, or its bytes as base64, in file',
        });
      else if (d.file === undefined)
        problems.push({
          field: `${at}.file`,
          message:
            'is required: the document as base64 (fileIsBlob true) or its URL (fileIsBlob false)',
        });
    });
  problems.push(...recipientCprs(body.recipients, { requiredWithNeedsCpr: false }).problems);
  if (
    typeof body.emailtemplate === 'string' &&
    typeof body.emailTemplate === 'string' &&
    body.emailtemplate !== body.emailTemplate
  )
    problems.push({
      field: 'emailTemplate',
      message: 'names another message template than emailtemplate: send one of them',
    });
  if (isObject(body.settings) && typeof body.settings.lang === 'string') {
    const resolved = resolveLocale(body.settings.lang);
    if (typeof resolved === 'string') problems.push({ field: 'settings.lang', message: resolved });
  }
  return problems;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
