import type { ComponentChildren } from 'preact';
import { CSRF_FIELD } from './csrf.js';
import type { PageContext } from './page-context.js';

/** A form's problems by field name (`email`, `password`), each a sentence for the person. */
export type FieldErrors = Readonly<Record<string, string>>;

/** The hidden CSRF field every form carries. */
export function CsrfField({ page }: { page: PageContext }) {
  return <input type="hidden" name={CSRF_FIELD} value={page.csrf} />;
}

/**
 * The list of a form's problems at its top, focused by app.js when the page loads so that a
 * screen reader reads it first; each links to its field.
 */
export function ErrorSummary({ page, errors }: { page: PageContext; errors: FieldErrors }) {
  const entries = Object.entries(errors);
  if (entries.length === 0) return null;
  return (
    <div class="error-summary" role="alert" tabindex={-1} data-focus-first>
      <h2>{page.words.common.errorSummary}</h2>
      <ul>
        {entries.map(([field, message]) => (
          <li>
            <a href={`#field-${field}`}>{message}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export interface FieldProps {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password' | 'url' | 'number' | 'tel' | 'date';
  value?: string | undefined;
  errors?: FieldErrors;
  hint?: string;
  required?: boolean;
  autocomplete?: string;
  inputmode?: 'numeric' | 'text' | 'email' | 'url';
  maxLength?: number;
  pattern?: string;
}

/** A labelled input with its hint and its problem, tied to it by `aria-describedby`. */
export function Field(props: FieldProps) {
  const id = `field-${props.name}`;
  const error = props.errors?.[props.name];
  const described = [props.hint ? `${id}-hint` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div class={error ? 'field has-error' : 'field'}>
      <label for={id}>{props.label}</label>
      {props.hint ? (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value ?? ''}
        required={props.required}
        autocomplete={props.autocomplete}
        inputMode={props.inputmode}
        maxLength={props.maxLength}
        pattern={props.pattern}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described || undefined}
      />
    </div>
  );
}

/**
 * A checkbox with its label and hint: posts `name=true` when ticked and nothing when not (a
 * form reads absence as false).
 */
export function CheckboxField({
  name,
  label,
  hint,
  checked,
}: {
  name: string;
  label: string;
  hint?: string;
  checked: boolean;
}) {
  const id = `field-${name}`;
  return (
    <>
      <div class="checkbox">
        <input
          type="checkbox"
          id={id}
          name={name}
          value="true"
          checked={checked}
          {...(hint ? { 'aria-describedby': `${id}-hint` } : {})}
        />
        <label for={id}>{label}</label>
      </div>
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </>
  );
}

/** A notice at the top of a page: done (status) or a problem (alert). */
export function Notice({
  kind,
  children,
}: {
  kind: 'done' | 'problem';
  children: ComponentChildren;
}) {
  return (
    <div class={`notice notice-${kind}`} role={kind === 'problem' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
