import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { isDocpipeError, type FailureDetail } from '../../../base/errors/index.js';
import { CaseBodySchema, caseBodyRuleProblems } from '../../../service/cases/index.js';
import { companyLibrary } from '../../../document/library/index.js';
import { FolderRepository } from '../../../service/companies/index.js';
import { caseServiceOf } from '../common/case-service.js';
import { validationDetails } from '../common/validation-details.js';
import {
  memberOf,
  pageOf,
  sendPage,
  type DashboardPages,
  type FieldErrors,
  type Member,
  type PageContext,
} from '../pages/index.js';
import { redirectWithFlash } from './home-flash.js';
import { caseBodyOf, formFieldOf, readNewCase, type NewCaseValues } from './new-case-form.js';
import { NewCasePage } from './new-case-page.js';

const PATH = '/dashboard/cases/new';
// Flat url-encoded fields (`recipients.0.name`); readNewCase reads and bounds them.
const Body = Type.Record(Type.String({ maxLength: 100 }), Type.Unknown());

/** The refusals by the form's fields; two on one field are read together. */
function errorsOf(details: readonly FailureDetail[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const d of details) {
    const field = formFieldOf(d.field);
    errors[field] = errors[field] ? `${errors[field]} ${d.message}` : d.message;
  }
  return errors;
}

const EMPTY_ROW = { name: '', email: '', phone: '', channel: 'email', signing: true };

/**
 * The New case form (issue 34): the same CaseService.createCase and v3 body shape as
 * POST /v3/api/cases, as the logged-in member (no key, source 'dashboard'), so that it fires the
 * same webhooks and messages. Add/Remove recipient re-render the form without script.
 */
export const newCasePages: DashboardPages = async (scope, { context }) => {
  const { db, publicUrl, library } = context.deps;
  const folders = new FolderRepository(db);
  const cases = await caseServiceOf(context);

  const show = async (
    reply: FastifyReply,
    page: PageContext,
    member: Member,
    values: NewCaseValues,
    errors: FieldErrors = {},
    status = 200,
  ) => {
    const docs = await companyLibrary(library, member.companyId).list();
    return sendPage(
      reply,
      <NewCasePage
        page={page}
        values={values}
        folders={await folders.list(member.companyId)}
        documents={docs.map((d) => ({ id: d.id, name: d.name }))}
        errors={errors}
      />,
      status,
    );
  };

  scope.get(PATH, { schema: { hide: true } }, async (request, reply) => {
    const member = await memberOf(request, reply, {});
    if (!member) return reply;
    return show(reply, pageOf(request), member, {
      title: '',
      folder: '',
      documentId: '',
      expiresInDays: '',
      recipients: [{ ...EMPTY_ROW }],
    });
  });

  scope.post(PATH, { schema: { hide: true, body: Body } }, async (request, reply) => {
    const member = await memberOf(request, reply, {});
    if (!member) return reply;
    const page = pageOf(request);
    const body = request.body;
    const values = readNewCase(body);
    if (body.add !== undefined) {
      values.recipients.push({ ...EMPTY_ROW });
      return show(reply, page, member, values);
    }
    if (typeof body.remove === 'string') {
      values.recipients.splice(Number.parseInt(body.remove, 10), 1);
      return show(reply, page, member, values);
    }
    const state = body.state === 'draft' ? 'draft' : 'open';
    const caseBody = caseBodyOf(values, state);
    // Rule 1 (structure) as the v3 route checks it, every problem at once, before the service's rules.
    const structure = [
      ...validationDetails([...Value.Errors(CaseBodySchema, caseBody)], 'body'),
      ...caseBodyRuleProblems(caseBody),
    ];
    if (structure.length > 0) return show(reply, page, member, values, errorsOf(structure), 400);
    try {
      const created = await cases.createCase(
        member.companyId,
        { userId: member.userId },
        caseBody,
        { publicUrl, requestId: request.id, source: 'dashboard' },
      );
      const id = created.case.id;
      // A library document brings its own signers' places; only a draft goes to the editor.
      const to =
        state === 'draft' && values.documentId === ''
          ? `/dashboard/cases/${encodeURIComponent(id)}/places`
          : `/dashboard/cases/${encodeURIComponent(id)}`;
      return redirectWithFlash(reply, publicUrl, to, {
        key: 'created',
        values: { title: values.title.trim() },
      });
    } catch (err) {
      if (!isDocpipeError(err)) throw err;
      const errors = errorsOf(err.details);
      return show(
        reply,
        page,
        member,
        values,
        Object.keys(errors).length ? errors : { title: err.slug },
        400,
      );
    }
  });
};
