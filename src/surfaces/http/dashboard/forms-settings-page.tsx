import type { FormRecord } from '../../../service/forms/index.js';
import { CsrfField, Layout, Notice, fill, type PageContext } from '../pages/index.js';
import { formSwitchHref } from './forms-switch-form.js';
import { SettingsNav } from './settings-nav.js';

/** One switch: its state in words and a button that turns it the other way, posted as a form. */
function Switch({
  page,
  form,
  which,
  on,
  hint,
}: {
  page: PageContext;
  form: FormRecord;
  which: 'published' | 'webflow';
  on: boolean;
  hint?: string | undefined;
}) {
  const w = page.words.flows;
  const label = which === 'published' ? w.published : w.webflow;
  const id = `form-${form.id}-${which}`;
  return (
    <form method="post" action={formSwitchHref(form.id)} class="form-switch">
      <CsrfField page={page} />
      <input type="hidden" name="switch" value={which} />
      <input type="hidden" name="on" value={on ? 'false' : 'true'} />
      <p id={`${id}-state`}>
        <strong>{label}</strong>: {on ? w.on : w.off}
      </p>
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <button
        type="submit"
        class="secondary"
        aria-label={fill(w.switchLabel, {
          action: on ? w.turnOff : w.turnOn,
          switch: label,
          form: form.title,
        })}
        aria-describedby={hint ? `${id}-hint` : undefined}
      >
        {on ? w.turnOff : w.turnOn}
      </button>
    </form>
  );
}

/**
 * `/dashboard/settings/forms` (admins): the company's v2 forms, each with its two switches,
 * Published (`forms.active`) and Web-flow (`forms.webflow`), as plain forms that work without
 * script.
 */
export function FormsSettingsPage({
  page,
  forms,
  notice,
}: {
  page: PageContext;
  forms: readonly FormRecord[];
  notice?: { kind: 'done' | 'problem'; text: string } | undefined;
}) {
  const w = page.words.flows;
  return (
    <Layout page={page} title={w.formsTitle} section="settings">
      <SettingsNav page={page} current="forms" />
      {notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
      <p>{w.formsIntro}</p>
      {forms.length === 0 ? <p>{w.noForms}</p> : null}
      <ul class="settings-list">
        {forms.map((form) => (
          <li class="card">
            <h2 class="settings-item-title">{form.title}</h2>
            <p>
              {w.formId}: <code>{form.id}</code>
            </p>
            <p>
              {w.documents}:{' '}
              {form.documents.length === 1
                ? w.documentsOne
                : fill(w.documentsCount, { count: form.documents.length })}
            </p>
            <Switch page={page} form={form} which="published" on={form.active} />
            <Switch
              page={page}
              form={form}
              which="webflow"
              on={form.webflow}
              hint={form.active ? undefined : w.webflowNeedsPublished}
            />
          </li>
        ))}
      </ul>
    </Layout>
  );
}
