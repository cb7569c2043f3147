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

/** The preset form as sent (or as stored). */
export interface PresetForm {
  id: string;
  name: string;
  settings: string;
}

/** What the settings field shows as an example: members of spec 2.2 a preset often holds. */
const EXAMPLE = '{"expiresInDays": 14, "reminders": {"send": true, "amount": 2, "daysBetween": 3}}';

/**
 * Add (`/dashboard/settings/presets/new`) or edit (`.../presets/{id}`) a preset: its name and
 * its settings as JSON, checked by the API's rules for preset settings.
 */
export function SettingsPresetFormPage({
  page,
  editing,
  form,
  errors = {},
}: {
  page: PageContext;
  /** The id of the preset edited; undefined when one is added. */
  editing: string | undefined;
  form: PresetForm;
  errors?: FieldErrors;
}) {
  const w = page.words.settings;
  const title = editing ? fill(w.editPreset, { name: form.name }) : w.newPreset;
  const action = editing
    ? `/dashboard/settings/presets/${encodeURIComponent(editing)}`
    : '/dashboard/settings/presets';
  const settingsError = errors.settings;
  return (
    <Layout page={page} title={title} section="settings">
      <SettingsNav page={page} current="presets" />
      <form method="post" action={action} novalidate>
        <CsrfField page={page} />
        <ErrorSummary page={page} errors={errors} />
        {editing ? (
          <p>
            {w.presetId}: <code>{editing}</code>
          </p>
        ) : (
          <Field
            name="id"
            label={w.presetId}
            value={form.id}
            errors={errors}
            hint={w.presetIdHint}
            maxLength={128}
            autocomplete="off"
          />
        )}
        <Field
          name="name"
          label={w.presetName}
          value={form.name}
          errors={errors}
          required
          maxLength={200}
          autocomplete="off"
        />
        <div class={settingsError ? 'field has-error' : 'field'}>
          <label for="field-settings">{w.presetSettings}</label>
          <p class="hint" id="field-settings-hint">
            {w.presetSettingsHint} <code>{EXAMPLE}</code>
          </p>
          {settingsError ? (
            <p class="field-error" id="field-settings-error">
              {settingsError}
            </p>
          ) : null}
          <textarea
            id="field-settings"
            name="settings"
            rows={10}
            spellcheck={false}
            aria-invalid={settingsError ? 'true' : undefined}
            aria-describedby={`field-settings-hint${settingsError ? ' field-settings-error' : ''}`}
          >
            {form.settings}
          </textarea>
        </div>
        <div class="actions">
          <button type="submit">{editing ? w.savePreset : w.addPresetButton}</button>
          <a href="/dashboard/settings/presets">{page.words.common.cancel}</a>
        </div>
      </form>
    </Layout>
  );
}
