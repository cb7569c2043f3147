import type { FastifyReply } from 'fastify';
import { Type, type Static } from 'typebox';
import {
  MessageTemplateRepository,
  RecordExistsError,
  RecordInvalidError,
  RecordNotFoundError,
  UserRepository,
} from '../../../service/companies/index.js';
import {
  fill,
  memberOf,
  pageOf,
  sendPage,
  sendProblem,
  type DashboardPages,
  type FieldErrors,
  type Member,
  type PageContext,
} from '../pages/index.js';
import { redirectWithFlash, takeFlash } from './home-flash.js';
import { SettingsTemplateFormPage, type TemplateForm } from './settings-template-form-page.js';
import { exampleValues, previewTemplate } from './settings-template-preview.js';
import { SettingsTemplatesPage } from './settings-templates-page.js';
import { formProblems } from './settings-problems.js';

const TemplateBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 128 })),
  id: Type.Optional(Type.String({ maxLength: 1000 })),
  name: Type.Optional(Type.String({ maxLength: 1000 })),
  subject: Type.Optional(Type.String({ maxLength: 4000 })),
  body: Type.Optional(Type.String({ maxLength: 200_000 })),
  preview: Type.Optional(Type.String({ maxLength: 10 })),
});
const TemplateParams = Type.Object({ id: Type.String({ maxLength: 200 }) });
const PATH = '/dashboard/settings/templates';

/** What the repository stores for a form: an empty id or name is none (the database makes an id). */
function templateData(form: TemplateForm): Record<string, unknown> {
  return {
    ...(form.id.trim() === '' ? {} : { id: form.id.trim() }),
    ...(form.name.trim() === '' ? {} : { name: form.name.trim() }),
    subject: form.subject,
    body: form.body,
  };
}

/**
 * `/dashboard/settings/templates` (admins): list, add, edit and preview the company's message
 * templates through MessageTemplateRepository, so that a placeholder `docpipe message-templates
 * add` would refuse is refused here too, with its line and column. Another company's template
 * id is not found.
 */
export const settingsTemplatesPages: DashboardPages = (scope, { context }) => {
  const { db, publicUrl, config } = context.deps;
  const templates = new MessageTemplateRepository(db);
  const users = new UserRepository(db);

  const formOf = (body: Static<typeof TemplateBody>): TemplateForm => ({
    id: body.id ?? '',
    name: body.name ?? '',
    subject: (body.subject ?? '').trim(),
    body: body.body ?? '',
  });

  const refused = (page: PageContext, err: unknown, id: string): FieldErrors | undefined => {
    const w = page.words.settings;
    if (err instanceof RecordExistsError) return { id: fill(w.templateExists, { id }) };
    if (err instanceof RecordInvalidError) return formProblems(err.problems, w);
    return undefined;
  };

  /** The form page with its preview filled from the form as it stands. */
  const showForm = async (
    reply: FastifyReply,
    page: PageContext,
    member: Member,
    editing: string | undefined,
    form: TemplateForm,
    errors: FieldErrors = {},
    status = 200,
  ) => {
    const me = await users.findById(member.companyId, member.userId);
    const values = exampleValues(page, {
      senderName: me?.name ?? '',
      senderEmail: me?.email ?? '',
      companyName: member.companyName,
      publicUrl,
      timeZone: config.delivery.timeZone,
    });
    return sendPage(
      reply,
      <SettingsTemplateFormPage
        page={page}
        editing={editing}
        form={form}
        preview={previewTemplate(form, values)}
        errors={errors}
      />,
      status,
    );
  };

  scope.get(PATH, { schema: { hide: true } }, async (request, reply) => {
    const member = await memberOf(request, reply, { admin: true });
    if (!member) return reply;
    const page = pageOf(request);
    const flash = takeFlash(request, reply, publicUrl, page.words.settings);
    return sendPage(
      reply,
      <SettingsTemplatesPage
        page={page}
        templates={await templates.list(member.companyId)}
        notice={flash && { kind: flash.kind, text: fill(flash.text, flash.values) }}
      />,
    );
  });

  scope.get(`${PATH}/new`, { schema: { hide: true } }, async (request, reply) => {
    const member = await memberOf(request, reply, { admin: true });
    if (!member) return reply;
    const page = pageOf(request);
    return showForm(reply, page, member, undefined, {
      id: '',
      name: '',
      subject: page.words.settings.exampleSubject,
      body: page.words.settings.exampleBody,
    });
  });

  scope.post(PATH, { schema: { hide: true, body: TemplateBody } }, async (request, reply) => {
    const member = await memberOf(request, reply, { admin: true });
    if (!member) return reply;
    const page = pageOf(request);
    const form = formOf(request.body);
    if (request.body.preview !== undefined) return showForm(reply, page, member, undefined, form);
    try {
      const template = await templates.add(member.companyId, templateData(form));
      return redirectWithFlash(reply, publicUrl, PATH, {
        key: 'templateAdded',
        values: { id: template.id },
      });
    } catch (err) {
      const errors = refused(page, err, form.id.trim());
      if (!errors) throw err;
      return showForm(reply, page, member, undefined, form, errors, 400);
    }
  });

  scope.get(
    `${PATH}/:id`,
    { schema: { hide: true, params: TemplateParams } },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const page = pageOf(request);
      const template = await templates.find(member.companyId, request.params.id);
      if (!template) return sendProblem(reply, page, 'notFound');
      return showForm(reply, page, member, template.id, {
        id: template.id,
        name: template.name ?? '',
        subject: template.subject,
        body: template.body,
      });
    },
  );

  scope.post(
    `${PATH}/:id`,
    { schema: { hide: true, params: TemplateParams, body: TemplateBody } },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const page = pageOf(request);
      const { id } = request.params;
      if (!(await templates.find(member.companyId, id)))
        return sendProblem(reply, page, 'notFound');
      const form = { ...formOf(request.body), id };
      if (request.body.preview !== undefined) return showForm(reply, page, member, id, form);
      try {
        await templates.update(member.companyId, id, templateData(form));
        return redirectWithFlash(reply, publicUrl, PATH, { key: 'templateSaved', values: { id } });
      } catch (err) {
        if (err instanceof RecordNotFoundError) return sendProblem(reply, page, 'notFound');
        const errors = refused(page, err, id);
        if (!errors) throw err;
        return showForm(reply, page, member, id, form, errors, 400);
      }
    },
  );
};
