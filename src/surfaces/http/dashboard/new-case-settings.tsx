import { Field, type FieldErrors, type PageContext } from '../pages/index.js';
import {
  CASE_LANGUAGES,
  type CaseSettingsValues,
  type RecipientExtras,
} from './new-case-settings-form.js';

/** What the company and the installation offer the form's selects. */
export interface NewCaseChoices {
  presets: readonly { id: string; name: string }[];
  templates: readonly { id: string; name: string | null; subject: string }[];
  /** The eID schemes this installation serves (service/eid's servedSchemes). */
  schemes: readonly string[];
}

export const NO_CHOICES: NewCaseChoices = { presets: [], templates: [], schemes: [] };

/** A labelled select with its problem tied to it, as Field does for an input. */
function Select(props: {
  name: string;
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  errors: FieldErrors;
}) {
  const id = `field-${props.name}`;
  const error = props.errors[props.name];
  return (
    <div class={error ? 'field has-error' : 'field'}>
      <label for={id}>{props.label}</label>
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      <select
        id={id}
        name={props.name}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {props.options.map((o) => (
          <option value={o.value} selected={o.value === props.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * A posted id the company does not have (removed meanwhile, or another company's), kept as an
 * option of its own so that the service's refusal sits by a select that still shows it.
 */
function posted(id: string, known: readonly { id: string }[]) {
  return id !== '' && !known.some((k) => k.id === id) ? [{ value: id, label: id }] : [];
}

/** A recipient row's signing order (group) and signing method. */
export function RecipientExtraInputs(props: {
  page: PageContext;
  prefix: string;
  row: Partial<RecipientExtras>;
  choices: NewCaseChoices;
  errors: FieldErrors;
}) {
  const w = props.page.words.newCase;
  const p = props.prefix;
  return (
    <>
      <Field
        name={`${p}group`}
        label={w.recipientGroup}
        hint={w.recipientGroupHint}
        type="number"
        inputmode="numeric"
        value={props.row.group ?? ''}
        errors={props.errors}
      />
      <Select
        name={`${p}signingSchema`}
        label={w.signingMethod}
        value={props.row.signingSchema ?? ''}
        options={[
          { value: '', label: w.signingMethodCase },
          { value: 'draw', label: w.signingMethodDraw },
          ...props.choices.schemes.map((s) => ({ value: s, label: s })),
          ...posted(
            props.row.signingSchema ?? '',
            ['draw', ...props.choices.schemes].map((id) => ({ id })),
          ),
        ]}
        errors={props.errors}
      />
    </>
  );
}

/** Reminders, language, message or message template, and preset. */
export function SettingsInputs(props: {
  page: PageContext;
  values: CaseSettingsValues;
  choices: NewCaseChoices;
  errors: FieldErrors;
}) {
  const w = props.page.words.newCase;
  const { values, errors, choices } = props;
  const messageError = errors['message'];
  return (
    <>
      <Field
        name="reminders.amount"
        label={w.remindersAmount}
        hint={w.remindersAmountHint}
        type="number"
        inputmode="numeric"
        value={values.remindersAmount}
        errors={errors}
      />
      <Field
        name="reminders.daysBetween"
        label={w.remindersDaysBetween}
        hint={w.remindersDaysBetweenHint}
        type="number"
        inputmode="numeric"
        value={values.remindersDaysBetween}
        errors={errors}
      />
      <Select
        name="language"
        label={w.language}
        value={values.language}
        options={[
          { value: '', label: w.languageCompany },
          ...CASE_LANGUAGES.map((l) => ({ value: l, label: w[`language_${l}`] })),
        ]}
        errors={errors}
      />
      {choices.templates.length > 0 || values.messageTemplateId !== '' ? (
        <Select
          name="messageTemplateId"
          label={w.messageTemplate}
          value={values.messageTemplateId}
          options={[
            { value: '', label: w.messageTemplateNone },
            ...choices.templates.map((t) => ({ value: t.id, label: t.name ?? t.subject })),
            ...posted(values.messageTemplateId, choices.templates),
          ]}
          errors={errors}
        />
      ) : null}
      <div class={messageError ? 'field has-error' : 'field'}>
        <label for="field-message">{w.message}</label>
        <p class="hint" id="field-message-hint">
          {w.messageHint}
        </p>
        {messageError ? (
          <p class="field-error" id="field-message-error">
            {messageError}
          </p>
        ) : null}
        <textarea
          id="field-message"
          name="message"
          rows={4}
          aria-invalid={messageError ? 'true' : undefined}
          aria-describedby={`field-message-hint${messageError ? ' field-message-error' : ''}`}
        >
          {values.message}
        </textarea>
      </div>
      {choices.presets.length > 0 || values.presetId !== '' ? (
        <Select
          name="presetId"
          label={w.preset}
          value={values.presetId}
          options={[
            { value: '', label: w.presetNone },
            ...choices.presets.map((p) => ({ value: p.id, label: p.name })),
            ...posted(values.presetId, choices.presets),
          ]}
          errors={errors}
        />
      ) : null}
    </>
  );
}
