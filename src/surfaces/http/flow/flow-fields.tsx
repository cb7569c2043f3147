import type { FlowQuestion } from '../../../service/webflows/index.js';
import type { PageContext } from '../pages/index.js';

/** Up to this many choices are radio buttons (all in view); more are a select. */
const RADIO_CHOICES = 5;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface QuestionFieldProps {
  page: PageContext;
  question: FlowQuestion;
  /** What the field shows: the saved answer, else the default; '' for none. */
  value: string;
  /** Whether a CPR answer is saved (it is never shown). */
  secret: boolean;
  error: string | undefined;
}

/** The page's field name of a question: by its place, since a tag may be any text. */
export const fieldName = (q: FlowQuestion) => `q${q.index}`;

/**
 * One question's field, typed from what it asks for: a text, a number (text with the decimal
 * keyboard: the pipeline's parser, not the browser's, judges it, so a bad value comes back with
 * its message rather than vanishing), a date, yes or no, a list of choices, an e-mail, a phone
 * number, a CPR number (numeric keyboard, never prefilled). Labelled with the question's name,
 * its hint and problem tied to it by `aria-describedby`; the id `field-q<i>` is what the error
 * summary links to.
 */
export function QuestionField(props: QuestionFieldProps) {
  const { question: q, page } = props;
  const w = page.words.flow;
  const name = fieldName(q);
  const id = `field-${name}`;
  const label = q.required ? `${q.label} (${w.required})` : q.label;
  const hint = hintOf(props);
  const described = [hint ? `${id}-hint` : '', props.error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  const notes = (
    <>
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {props.error ? (
        <p class="field-error" id={`${id}-error`}>
          {props.error}
        </p>
      ) : null}
    </>
  );
  const choices =
    q.field === 'boolean'
      ? [
          { value: 'true', label: w.yes },
          { value: 'false', label: w.no },
        ]
      : q.field === 'choice'
        ? q.choices.map((c) => ({ value: c, label: c }))
        : undefined;
  if (choices && choices.length <= RADIO_CHOICES)
    return (
      <fieldset
        id={id}
        class={props.error ? 'list-field has-error' : 'list-field'}
        tabindex={-1}
        aria-describedby={described || undefined}
      >
        <legend>{label}</legend>
        {notes}
        {choices.map((c, i) => (
          <div class="checkbox">
            <input
              type="radio"
              id={`${id}-${i}`}
              name={name}
              value={c.value}
              checked={c.value === props.value}
              aria-invalid={props.error ? 'true' : undefined}
            />
            <label for={`${id}-${i}`}>{c.label}</label>
          </div>
        ))}
      </fieldset>
    );
  const common = {
    id,
    name,
    'aria-invalid': props.error ? ('true' as const) : undefined,
    'aria-describedby': described || undefined,
  };
  return (
    <div class={props.error ? 'field has-error' : 'field'}>
      <label for={id}>{label}</label>
      {notes}
      {choices ? (
        <select {...common}>
          <option value="">{w.choose}</option>
          {choices.map((c) => (
            <option value={c.value} selected={c.value === props.value}>
              {c.label}
            </option>
          ))}
        </select>
      ) : (
        <input {...common} {...inputOf(q, props.value)} />
      )}
    </div>
  );
}

function inputOf(q: FlowQuestion, value: string) {
  switch (q.field) {
    case 'number':
      return { type: 'text', inputMode: 'decimal', value, autocomplete: 'off' };
    case 'date':
      // A default the date control cannot hold (not YYYY-MM-DD) stays visible as text.
      return { type: value === '' || ISO_DATE.test(value) ? 'date' : 'text', value };
    case 'email':
      return { type: 'email', value, autocomplete: 'email' };
    case 'phone':
      return { type: 'tel', value, autocomplete: 'tel' };
    case 'cpr':
      return { type: 'text', inputMode: 'numeric', value: '', autocomplete: 'off', maxLength: 11 };
    default:
      return { type: 'text', value };
  }
}

function hintOf({ page, question, secret }: QuestionFieldProps): string | undefined {
  const w = page.words.flow;
  switch (question.field) {
    case 'number':
      return w.numberHint;
    case 'cpr':
      return secret ? `${w.cprHint}. ${w.cprSaved}` : w.cprHint;
    case 'phone':
      return w.phoneHint;
    default:
      return undefined;
  }
}
