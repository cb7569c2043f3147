import { Type } from 'typebox';
import { FormRepository, setFormSwitch } from '../../../service/forms/index.js';
import {
  fill,
  memberOf,
  pageOf,
  sendPage,
  sendProblem,
  type DashboardPages,
} from '../pages/index.js';
import { FormsSettingsPage } from './forms-settings-page.js';
import { FORMS_SETTINGS_PATH, switchFlashKey, switchOf } from './forms-switch-form.js';
import { redirectWithFlash, takeFlash } from './home-flash.js';

const SwitchBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 128 })),
  switch: Type.Optional(Type.String({ maxLength: 20 })),
  on: Type.Optional(Type.String({ maxLength: 10 })),
});
const FormParams = Type.Object({ id: Type.String({ maxLength: 200 }) });

/**
 * `/dashboard/settings/forms` (admins, as every settings page): the company's v2 forms with
 * their Published and Web-flow switches (issue 36), each a POST + redirect. A change is logged
 * with who made it, as the dashboard logs a key or webhook changed. Another company's form id
 * is not found.
 */
export const formsSettingsPages: DashboardPages = (scope, { context }) => {
  const { db, publicUrl } = context.deps;
  const forms = new FormRepository(db);

  scope.get(FORMS_SETTINGS_PATH, { schema: { hide: true } }, async (request, reply) => {
    const member = await memberOf(request, reply, { admin: true });
    if (!member) return reply;
    const page = pageOf(request);
    const flash = takeFlash(request, reply, publicUrl, page.words.flows);
    return sendPage(
      reply,
      <FormsSettingsPage
        page={page}
        forms={await forms.list(member.companyId)}
        notice={flash && { kind: flash.kind, text: fill(flash.text, flash.values) }}
      />,
    );
  });

  scope.post(
    `${FORMS_SETTINGS_PATH}/:id/switch`,
    { schema: { hide: true, params: FormParams, body: SwitchBody } },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const page = pageOf(request);
      const change = switchOf(request.body);
      // Only this page's own buttons post here: anything else is no switch of a form.
      if (!change) return sendProblem(reply, page, 'notFound');
      const result = await setFormSwitch(
        db,
        member.companyId,
        request.params.id,
        change.which,
        change.on,
      );
      if (!result) return sendProblem(reply, page, 'notFound');
      if (result.changed)
        request.log.info(
          {
            company: member.companyId,
            user: member.userId,
            form: result.form.id,
            switch: change.which,
            on: change.on,
          },
          'form switch changed in the dashboard',
        );
      return redirectWithFlash(reply, publicUrl, FORMS_SETTINGS_PATH, {
        key: switchFlashKey(change, result.changed),
        values: { form: result.form.title },
      });
    },
  );
};
