import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { isDocpipeError, type FailureDetail } from '../../../base/errors/index.js';
import {
  CaseBodySchema,
  caseBodyRuleProblems,
  type CaseInput,
} from '../../../service/cases/index.js';
import { companyLibrary } from '../../../document/library/index.js';
import { FolderRepository } from '../../../service/companies/index.js';
import { newCaseChoices } from './new-case-choices.js';
import { caseServiceOf } from '../common/case-service.js';
import type { HttpApp } from '../common/create-app.js';
import { validationDetails } from '../common/validation-details.js';
import {
  fill,
  memberOf,
  pageOf,
  sendPage,
  type DashboardPages,
  type FieldErrors,
  type Member,
  type PageContext,
} from '../pages/index.js';
import { FileRefusal } from '../common/files-errors.js';
import { inPageOrder, refusalText } from './new-case-refusals.js';
import { redirectWithFlash, takeFlash } from './home-flash.js';
import {
  caseBodyOf,
  documentRowsOf,
  EMPTY_DOCUMENT,
  formFieldOf,
  readNewCase,
  type DocumentRow,
  type NewCaseValues,
} from './new-case-form.js';
import {
  formDocumentChoices,
  formDocumentContent,
  formDocumentOf,
  type FormDocument,
} from './new-case-forms.js';
import { libraryFields, type LibraryField } from './new-case-library.js';
import { withListRowAdded, withListRowRemoved } from './new-case-list-rows.js';
import { NewCasePage } from './new-case-page.js';
import {
  MAX_DOCUMENT_ROWS,
  newCaseFormParser,
  ownUpload,
  postedFiles,
  storeUpload,
} from './new-case-upload.js';

const PATH = '/dashboard/cases/new';
// Flat url-encoded fields (`recipients.0.name`); readNewCase reads and bounds them.
const Body = Type.Record(Type.String({ maxLength: 100 }), Type.Unknown());

/**
 * The refusals by the form's fields, in the page's words and order; two on one field are read
 * together, each once.
 */
function errorsOf(
  page: PageContext,
  details: readonly FailureDetail[],
  rows: readonly DocumentRow[] = [],
  errors: Record<string, string> = {},
  body?: CaseInput,
): Record<string, string> {
  for (const d of details) {
    const field = formFieldOf(d.field, rows, body);
    const had = errors[field];
    if (had === undefined) errors[field] = refusalText(page, field, d.message);
    else {
      const more = refusalText(page, '', d.message);
      if (!had.includes(more)) errors[field] = `${had} ${more}`;
    }
  }
  return inPageOrder(errors);
}

/**
 * A body for the service's rules without the settings its structure check refused: a value of
 * the wrong shape there (an expiry of `abc` days) is already the form's refusal, and the rules
 * after structure are written for sound values.
 */
function withoutRefusedSettings(body: CaseInput, refused: readonly FailureDetail[]): CaseInput {
  if (!body.settings) return body;
  const settings: Record<string, unknown> = { ...body.settings };
  for (const d of refused) {
    const m = /^settings\.([^.[]+)/.exec(d.field);
    if (m) delete settings[m[1]!];
  }
  return { ...body, settings };
}

const EMPTY_ROW = { name: '', email: '', phone: '', channel: 'email', signing: true };

/**
 * The New case form (issue 34): the same CaseService.createCase and v3 body shape as
 * POST /v3/api/cases, as the logged-in member (no key, source 'dashboard'), so that it fires the
 * same webhooks and messages. Add/Remove recipient re-render the form without script.
 */
export const newCasePages: DashboardPages = async (scope, { context }) => {
  const { db, publicUrl, library, preparer, storage, config } = context.deps;
  const maxInputBytes = config.limits.maxInputBytes;
  const folders = new FolderRepository(db);
  const cases = await caseServiceOf(context);

  const show = async (
    reply: FastifyReply,
    page: PageContext,
    member: Member,
    values: NewCaseValues,
    errors: FieldErrors = {},
    status = 200,
    fields: readonly (readonly LibraryField[] | undefined)[] = [],
    notice?: { kind: 'done' | 'problem'; text: string },
  ) => {
    const docs = await companyLibrary(library, member.companyId).list();
    return sendPage(
      reply,
      <NewCasePage
        page={page}
        values={values}
        folders={await folders.list(member.companyId)}
        documents={docs.map((d) => ({ id: d.id, name: d.name }))}
        fields={fields}
        forms={await formDocumentChoices(db, member.companyId)}
        choices={await newCaseChoices(db, config.eid, member.companyId)}
        errors={errors}
        notice={notice}
      />,
      status,
    );
  };

  scope.get(PATH, { schema: { hide: true } }, async (request, reply) => {
    const member = await memberOf(request, reply, {});
    if (!member) return reply;
    const page = pageOf(request);
    const flash = takeFlash(request, reply, publicUrl, page.words.newCase);
    return show(
      reply,
      page,
      member,
      {
        title: '',
        folder: '',
        documents: [{ ...EMPTY_DOCUMENT }],
        expiresInDays: '',
        recipients: [{ ...EMPTY_ROW }],
      },
      {},
      200,
      [],
      flash && { kind: flash.kind, text: fill(flash.text, flash.values) },
    );
  });

  // Multipart in a context of its own: only this route reads files (the rows' uploads).
  await scope.register((form: HttpApp, _options, done) => {
    form.addContentTypeParser('multipart/form-data', newCaseFormParser(maxInputBytes));
    // A form past the upload limits is cut off while it is read, before the page knows who sent
    // it: the form says so after a redirect (the rest of the body stays unread, the connection
    // is closed), as the logo form does.
    form.setErrorHandler((error, _request, reply) => {
      if (!(error instanceof FileRefusal)) throw error;
      void reply.header('connection', 'close');
      return redirectWithFlash(reply, publicUrl, PATH, {
        key: 'uploadCutOff',
        values: { max: String(Math.max(1, Math.round(maxInputBytes / (1024 * 1024)))) },
        problem: true,
      });
    });
    form.post(PATH, { schema: { hide: true, body: Body } }, async (request, reply) => {
      const member = await memberOf(request, reply, {});
      if (!member) return reply;
      const page = pageOf(request);
      const body = request.body;
      const values = readNewCase(body);
      // Every file chosen is kept at once as the company's upload, so that it survives whatever
      // re-render comes next; a refused one says why by its row.
      const fileErrors: Record<string, string> = {};
      for (const row of values.documents)
        row.upload = ownUpload(row.upload, publicUrl, member.companyId);
      for (const [i, file] of postedFiles(request)) {
        const row = values.documents[i];
        if (!row) continue;
        const stored = await storeUpload(
          { preparer, storage, publicUrl },
          member.companyId,
          file,
          maxInputBytes,
        );
        if ('problem' in stored) {
          fileErrors[`documents.${i}.file`] = fill(page.words.newCase.fileRefused, {
            reason: page.words.newCase.sniffReasons[stored.reason],
          });
          continue;
        }
        Object.assign(row, {
          source: 'upload',
          upload: stored.url,
          uploadName: stored.name,
          // A file chosen now is what the row is, whatever document it named before.
          documentId: '',
          formDocument: '',
        });
      }
      if (body.addDocument !== undefined && values.documents.length < MAX_DOCUMENT_ROWS)
        values.documents.push({ ...EMPTY_DOCUMENT, tags: {} });
      if (typeof body.removeDocument === 'string') {
        const gone = Number.parseInt(body.removeDocument, 10);
        values.documents.splice(gone, 1);
        // A refused file's reason stays with its row, which moved up one.
        const moved = Object.entries(fileErrors).flatMap(([key, reason]) => {
          const n = Number(/^documents\.(\d+)\./.exec(key)![1]);
          return n === gone ? [] : [[`documents.${n > gone ? n - 1 : n}.file`, reason] as const];
        });
        for (const key of Object.keys(fileErrors)) delete fileErrors[key];
        Object.assign(fileErrors, Object.fromEntries(moved));
      }
      // A list's rows, added and removed by posting the form ("0:lines", "0:2:lines").
      const addRow =
        typeof body.addListRow === 'string' ? /^(\d+):(.+)$/.exec(body.addListRow) : null;
      const addTo = addRow ? values.documents[Number(addRow[1])] : undefined;
      if (addRow && addTo) withListRowAdded(addTo.tags, addRow[2]!);
      const removeRow =
        typeof body.removeListRow === 'string'
          ? /^(\d+):(\d+):(.+)$/.exec(body.removeListRow)
          : null;
      const removeFrom = removeRow ? values.documents[Number(removeRow[1])] : undefined;
      if (removeRow && removeFrom)
        withListRowRemoved(removeFrom.tags, removeRow[3]!, Number(removeRow[2]));
      // A form document is looked up in the company's own forms: another's is simply absent.
      const formDocs: (FormDocument | undefined)[] = await Promise.all(
        values.documents.map((row) =>
          row.source === 'form'
            ? formDocumentOf(db, member.companyId, row.formDocument)
            : Promise.resolve(undefined),
        ),
      );
      const fields = await Promise.all(
        values.documents.map((row, i) =>
          row.source === 'library'
            ? libraryFields({ library, preparer }, member.companyId, row.documentId)
            : Promise.resolve(formDocs[i]?.fields),
        ),
      );
      const status = Object.keys(fileErrors).length > 0 ? 400 : 200;
      const again = (errors: FieldErrors = fileErrors, code = status) =>
        show(reply, page, member, values, errors, code, fields);
      if (body.add !== undefined) {
        values.recipients.push({ ...EMPTY_ROW });
        return again();
      }
      if (typeof body.remove === 'string') {
        values.recipients.splice(Number.parseInt(body.remove, 10), 1);
        return again();
      }
      if (
        body.addDocument !== undefined ||
        body.removeDocument !== undefined ||
        body.addListRow !== undefined ||
        body.removeListRow !== undefined ||
        body.showFields !== undefined
      )
        return again();
      const state = body.state === 'draft' ? 'draft' : 'open';
      const forms = await Promise.all(
        formDocs.map(async (d) => {
          const content = d ? await formDocumentContent(storage, d) : undefined;
          return d && content !== undefined ? { name: d.name, content } : undefined;
        }),
      );
      const names = new Map(
        (await companyLibrary(library, member.companyId).list()).map((d) => [d.id, d.name]),
      );
      const caseBody = caseBodyOf(values, state, fields, forms, names);
      // Structure first (rule 1, as the v3 route checks it). A body that fails it is still
      // checked against the service's own rules and documents (checkCase: createCase without
      // the write), so that every refusal shows at once by its field; a body that passes goes
      // straight to createCase with every rule's problems, its documents rendered once.
      const structure = [
        ...validationDetails([...Value.Errors(CaseBodySchema, caseBody)], 'body'),
        ...caseBodyRuleProblems(caseBody),
      ];
      const creator = { userId: member.userId };
      const options = { publicUrl, requestId: request.id, source: 'dashboard' as const };
      const refusedBy = (err: unknown): FailureDetail[] => {
        if (!isDocpipeError(err)) throw err;
        return err.details.length > 0 ? err.details : [{ field: 'title', message: err.slug }];
      };
      const refuse = (refused: FailureDetail[]) => {
        const errors = errorsOf(page, refused, values.documents, { ...fileErrors }, caseBody);
        // A form document the company does not have: said so, rather than what empty bytes earn.
        for (const [i, row] of values.documents.entries())
          if (row.source === 'form' && !forms[i])
            errors[`documents.${i}.formDocument`] = page.words.newCase.formDocumentNotFound;
        return again(errors, 400);
      };
      if (structure.length > 0 || status !== 200) {
        const rules = await cases
          .checkCase(
            member.companyId,
            creator,
            withoutRefusedSettings(caseBody, structure),
            options,
          )
          .then(() => [] as FailureDetail[], refusedBy);
        return refuse([...structure, ...rules]);
      }
      let created;
      try {
        created = await cases.createCase(member.companyId, creator, caseBody, {
          ...options,
          problems: 'all',
        });
      } catch (err) {
        return refuse(refusedBy(err));
      }
      const id = created.case.id;
      // A library document brings its own signers' places; only a draft goes to the editor.
      const fromLibrary = documentRowsOf(values.documents).some(
        (i) => values.documents[i]!.source === 'library',
      );
      const to =
        state === 'draft' && !fromLibrary
          ? `/dashboard/cases/${encodeURIComponent(id)}/places`
          : `/dashboard/cases/${encodeURIComponent(id)}`;
      return redirectWithFlash(reply, publicUrl, to, {
        key: 'created',
        values: { title: values.title.trim() },
      });
    });
    done();
  });
};
