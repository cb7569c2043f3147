import { Type } from 'typebox';
import {
  PresetRepository,
  RecordExistsError,
  RecordInvalidError,
  RecordNotFoundError,
} from '../../../service/companies/index.js';
import {
  fill,
  memberOf,
  pageOf,
  sendPage,
  sendProblem,
  type DashboardPages,
  type FieldErrors,
  type PageContext,
} from '../pages/index.js';
import { redirectWithFlash, takeFlash } from './home-flash.js';
import { SettingsPresetFormPage, type PresetForm } from './settings-preset-form-page.js';
import { SettingsPresetsPage } from './settings-presets-page.js';
import { formProblems } from './settings-problems.js';

const CSRF = { _csrf: Type.Optional(Type.String({ maxLength: 128 })) };
const PresetBody = Type.Object({
  ...CSRF,
  id: Type.Optional(Type.String({ maxLength: 1000 })),
  name: Type.Optional(Type.String({ maxLength: 1000 })),
  settings: Type.Optional(Type.String({ maxLength: 64 * 1024 })),
});
const PresetParams = Type.Object({ id: Type.String({ maxLength: 200 }) });
const PATH = '/dashboard/settings/presets';

/** The preset file a form describes, or the form's problem with its JSON. */
function presetData(
  form: PresetForm,
  page: PageContext,
): { data: Record<string, unknown> } | { errors: FieldErrors } {
  let settings: unknown;
  try {
    settings = JSON.parse(form.settings.trim() === '' ? '{}' : form.settings);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { errors: { settings: fill(page.words.settings.notJson, { reason }) } };
  }
  return {
    data: { ...(form.id.trim() === '' ? {} : { id: form.id.trim() }), name: form.name, settings },
  };
}

/**
 * `/dashboard/settings/presets` (admins): list, add and edit, through PresetRepository, so that
 * a preset's settings are held to the API's rules (service/companies' preset-settings.ts) here
 * as with `docpipe presets add`. Another company's preset id is not found.
 */
export const settingsPresetsPages: DashboardPages = (scope, { context }) => {
  const { db, publicUrl } = context.deps;
  const presets = new PresetRepository(db);

  const refused = (page: PageContext, err: unknown): FieldErrors | undefined => {
    const w = page.words.settings;
    if (err instanceof RecordExistsError) return { name: w.presetExists };
    if (err instanceof RecordInvalidError) return formProblems(err.problems, w);
    return undefined;
  };

  const formOf = (body: { id?: string; name?: string; settings?: string }): PresetForm => ({
    id: body.id ?? '',
    name: (body.name ?? '').trim(),
    settings: body.settings ?? '',
  });

  scope.get(PATH, { schema: { hide: true } }, async (request, reply) => {
    const member = await memberOf(request, reply, { admin: true });
    if (!member) return reply;
    const page = pageOf(request);
    const flash = takeFlash(request, reply, publicUrl, page.words.settings);
    return sendPage(
      reply,
      <SettingsPresetsPage
        page={page}
        presets={await presets.list(member.companyId)}
        notice={flash && { kind: flash.kind, text: fill(flash.text, flash.values) }}
      />,
    );
  });

  scope.get(`${PATH}/new`, { schema: { hide: true } }, async (request, reply) => {
    const member = await memberOf(request, reply, { admin: true });
    if (!member) return reply;
    return sendPage(
      reply,
      <SettingsPresetFormPage
        page={pageOf(request)}
        editing={undefined}
        form={{ id: '', name: '', settings: '{}' }}
      />,
    );
  });

  scope.post(PATH, { schema: { hide: true, body: PresetBody } }, async (request, reply) => {
    const member = await memberOf(request, reply, { admin: true });
    if (!member) return reply;
    const page = pageOf(request);
    const form = formOf(request.body);
    const show = (errors: FieldErrors) =>
      sendPage(
        reply,
        <SettingsPresetFormPage page={page} editing={undefined} form={form} errors={errors} />,
        400,
      );
    const parsed = presetData(form, page);
    if ('errors' in parsed) return show(parsed.errors);
    try {
      const preset = await presets.add(member.companyId, parsed.data);
      return redirectWithFlash(reply, publicUrl, PATH, {
        key: 'presetAdded',
        values: { name: preset.name },
      });
    } catch (err) {
      const errors = refused(page, err);
      if (!errors) throw err;
      return show(errors);
    }
  });

  scope.get(
    `${PATH}/:id`,
    { schema: { hide: true, params: PresetParams } },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const page = pageOf(request);
      const preset = await presets.find(member.companyId, request.params.id);
      if (!preset) return sendProblem(reply, page, 'notFound');
      return sendPage(
        reply,
        <SettingsPresetFormPage
          page={page}
          editing={preset.id}
          form={{
            id: preset.id,
            name: preset.name,
            settings: JSON.stringify(preset.settings, null, 2),
          }}
        />,
      );
    },
  );

  scope.post(
    `${PATH}/:id`,
    { schema: { hide: true, params: PresetParams, body: PresetBody } },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const page = pageOf(request);
      const { id } = request.params;
      if (!(await presets.find(member.companyId, id))) return sendProblem(reply, page, 'notFound');
      const form = { ...formOf(request.body), id };
      const show = (errors: FieldErrors) =>
        sendPage(
          reply,
          <SettingsPresetFormPage page={page} editing={id} form={form} errors={errors} />,
          400,
        );
      const parsed = presetData(form, page);
      if ('errors' in parsed) return show(parsed.errors);
      try {
        const preset = await presets.update(member.companyId, id, parsed.data);
        return redirectWithFlash(reply, publicUrl, PATH, {
          key: 'presetSaved',
          values: { name: preset.name },
        });
      } catch (err) {
        if (err instanceof RecordNotFoundError) return sendProblem(reply, page, 'notFound');
        const errors = refused(page, err);
        if (!errors) throw err;
        return show(errors);
      }
    },
  );
};
