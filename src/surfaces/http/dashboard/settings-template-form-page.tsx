import {
  CsrfField,
  ErrorSummary,
  Field,
  Layout,
  fill,
  type FieldErrors,
  type PageContext,
} from '../pages/index.js';
import { SettingsNav } from './settings-nav.js';
import type { TemplatePreview } from './settings-template-preview.js';

/** The message template form as sent (or as stored). */
export interface TemplateForm {
  id: string;
  name: string;
  subject: string;
  body: string;
}

/**
 * Add (`/dashboard/settings/templates/new`) or edit (`.../templates/{id}`) a message template:
 * its id, name, subject and body. Preview sends the same form back and shows it filled with
 * example values beside the placeholders' list, without saving, so that an author sees the
 * invitation before any recipient does.
 */
export function SettingsTemplateFormPage({
  page,
  editing,
  form,
  preview,
  errors = {},
}: {
  page: PageContext;
  /** The id of the template edited; undefined when one is added. */
  editing: string | undefined;
  form: TemplateForm;
  preview: TemplatePreview;
  errors?: FieldErrors;
}) {
  const w = page.words.settings;
  const title = editing ? fill(w.editTemplate, { id: editing }) : w.newTemplate;
  const action = editing
    ? `/dashboard/settings/templates/${encodeURIComponent(editing)}`
    : '/dashboard/settings/templates';
  const bodyError = errors.body;
  return (
    <Layout page={page} title={title} section="settings">
      <SettingsNav page={page} current="templates" />
      <form method="post" action={action} novalidate>
        <CsrfField page={page} />
        <ErrorSummary page={page} errors={errors} />
        {editing ? (
          <p>
            {w.templateId}: <code>{editing}</code>
          </p>
        ) : (
          <Field
            name="id"
            label={w.templateId}
            value={form.id}
            errors={errors}
            hint={w.templateIdHint}
            maxLength={128}
            autocomplete="off"
          />
        )}
        <Field
          name="name"
          label={w.templateName}
          value={form.name}
          errors={errors}
          hint={w.templateNameHint}
          maxLength={200}
          autocomplete="off"
        />
        <Field
          name="subject"
          label={w.subject}
          value={form.subject}
          errors={errors}
          required
          maxLength={998}
          autocomplete="off"
        />
        <div class={bodyError ? 'field has-error' : 'field'}>
          <label for="field-body">{w.body}</label>
          {bodyError ? (
            <p class="field-error" id="field-body-error">
              {bodyError}
            </p>
          ) : null}
          <textarea
            id="field-body"
            name="body"
            rows={10}
            required
            aria-invalid={bodyError ? 'true' : undefined}
            aria-describedby={bodyError ? 'field-body-error' : undefined}
          >
            {form.body}
          </textarea>
        </div>
        <div class="actions">
          <button type="submit">{editing ? w.saveTemplate : w.addTemplateButton}</button>
          <button type="submit" name="preview" value="1" class="secondary">
            {w.previewButton}
          </button>
          <a href="/dashboard/settings/templates">{page.words.common.cancel}</a>
        </div>
      </form>
      <section class="card" aria-labelledby="preview-title">
        <h2 id="preview-title">{w.preview}</h2>
        <p>{fill(w.previewIntro, { name: page.words.settings.exampleRecipient })}</p>
        <dl>
          <dt>{w.previewSubject}</dt>
          <dd>{preview.subject}</dd>
          <dt>{w.previewBody}</dt>
          <dd class="preview-text">{preview.body}</dd>
        </dl>
        {preview.addsButton ? <p class="hint">{w.previewAddsButton}</p> : null}
        <div class="table-wrap" role="region" aria-labelledby="placeholders-title" tabindex={0}>
          <table>
            <caption id="placeholders-title">{w.placeholders}</caption>
            <thead>
              <tr>
                <th scope="col">{w.placeholder}</th>
                <th scope="col">{w.example}</th>
              </tr>
            </thead>
            <tbody>
              {preview.values.map(({ name, value }) => (
                <tr>
                  <td>
                    <code>{`{{${name}}}`}</code>
                  </td>
                  <td>{value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </Layout>
  );
}
