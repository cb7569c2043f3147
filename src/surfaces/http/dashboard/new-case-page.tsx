import type { Folder } from '../../../service/companies/index.js';
import {
  CsrfField,
  ErrorSummary,
  Field,
  Layout,
  Notice,
  fill,
  type FieldErrors,
  type PageContext,
} from '../pages/index.js';
import { DocumentRows } from './new-case-documents.js';
import type { NewCaseValues } from './new-case-form.js';
import type { FormDocumentChoice } from './new-case-forms.js';
import type { LibraryField } from './new-case-library.js';
import {
  NO_CHOICES,
  RecipientExtraInputs,
  SettingsInputs,
  type NewCaseChoices,
} from './new-case-settings.js';
import { EMPTY_SETTINGS } from './new-case-settings-form.js';

export interface NewCasePageProps {
  page: PageContext;
  values: NewCaseValues;
  folders: Folder[];
  documents: { id: string; name: string }[];
  /** Each document row's library fields, by row (new-case-library.ts). */
  fields?: readonly (readonly LibraryField[] | undefined)[];
  /** The documents of the company's active v2 forms (new-case-forms.ts). */
  forms?: readonly FormDocumentChoice[];
  errors?: FieldErrors;
  /** The company's presets and message templates, and the served eID schemes. */
  choices?: NewCaseChoices;
  /** A refusal that had to redirect here (a form past the upload limits). */
  notice?: { kind: 'done' | 'problem'; text: string };
}

/** /dashboard/cases/new: title, folder, document, recipients and settings; draft or send. */
export function NewCasePage({
  page,
  values,
  folders,
  documents,
  fields = [],
  forms = [],
  errors = {},
  choices = NO_CHOICES,
  notice,
}: NewCasePageProps) {
  const w = page.words.newCase;
  return (
    <Layout page={page} title={w.title} section="cases">
      {notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
      <ErrorSummary page={page} errors={errors} />
      {/* multipart: the document rows carry files. */}
      <form method="post" action="/dashboard/cases/new" enctype="multipart/form-data" novalidate>
        <CsrfField page={page} />
        <input type="hidden" name="rows" value={String(values.recipients.length)} />
        <Field name="title" label={w.caseTitle} value={values.title} errors={errors} required />
        <div class="field">
          <label for="field-folder">{w.folder}</label>
          <select id="field-folder" name="folder">
            {folders.map((f) => (
              <option value={f.id} selected={f.id === values.folder}>
                {f.name}
              </option>
            ))}
          </select>
        </div>
        <DocumentRows
          page={page}
          rows={values.documents}
          fields={fields}
          library={documents}
          forms={forms}
          errors={errors}
        />
        <fieldset>
          <legend>{w.recipients}</legend>
          {values.recipients.map((r, i) => {
            const p = `recipients.${i}.`;
            const n = String(i + 1);
            return (
              <fieldset class="recipient-row">
                <legend>{fill(w.recipient, { n })}</legend>
                <Field name={`${p}name`} label={w.name} value={r.name} errors={errors} />
                <Field
                  name={`${p}email`}
                  label={w.email}
                  type="email"
                  value={r.email}
                  errors={errors}
                />
                <Field
                  name={`${p}phone`}
                  label={w.phone}
                  type="tel"
                  value={r.phone}
                  errors={errors}
                />
                <div class="field">
                  <label for={`field-${p}channel`}>{w.channel}</label>
                  <select id={`field-${p}channel`} name={`${p}channel`}>
                    <option value="email" selected={r.channel === 'email'}>
                      {w.channelEmail}
                    </option>
                    <option value="sms" selected={r.channel === 'sms'}>
                      {w.channelSms}
                    </option>
                  </select>
                </div>
                <div class="checkbox">
                  <input
                    type="checkbox"
                    id={`field-${p}signing`}
                    name={`${p}signing`}
                    value="true"
                    checked={r.signing}
                  />
                  <label for={`field-${p}signing`}>{w.signing}</label>
                </div>
                <RecipientExtraInputs
                  page={page}
                  prefix={p}
                  row={r}
                  choices={choices}
                  errors={errors}
                />
                <button
                  type="submit"
                  class="secondary"
                  name="remove"
                  value={String(i)}
                  formnovalidate
                >
                  {fill(w.removeRecipient, { n })}
                </button>
              </fieldset>
            );
          })}
          <button type="submit" class="secondary" name="add" value="1" formnovalidate>
            {w.addRecipient}
          </button>
        </fieldset>
        <fieldset>
          <legend>{w.settings}</legend>
          <Field
            name="expiresInDays"
            label={w.expiresInDays}
            type="number"
            inputmode="numeric"
            value={values.expiresInDays}
            errors={errors}
          />
          <SettingsInputs
            page={page}
            values={values.settings ?? EMPTY_SETTINGS}
            choices={choices}
            errors={errors}
          />
        </fieldset>
        {/* Send skips the places editor: say so before, not after the signatures land on a page of their own. */}
        <p class="hint" id="new-case-send-hint">
          {w.sendHint}
        </p>
        <div class="actions">
          <button type="submit" name="state" value="draft">
            {w.saveDraft}
          </button>
          <button type="submit" name="state" value="open" aria-describedby="new-case-send-hint">
            {w.send}
          </button>
        </div>
      </form>
    </Layout>
  );
}
