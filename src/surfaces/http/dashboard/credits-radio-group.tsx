/**
 * A group of radio buttons in a fieldset, with its problem under the legend: the fieldset has
 * the id `field-<name>` that the error summary links to, and is focusable (`tabindex=-1`) so that
 * following the link lands on it.
 */
export function RadioGroup(props: {
  name: string;
  legend: string;
  choices: readonly { value: string; label: string }[];
  chosen: string;
  error?: string | undefined;
  hint?: string | undefined;
}) {
  const id = `field-${props.name}`;
  const described = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <fieldset
      id={id}
      class={props.error ? 'list-field has-error' : 'list-field'}
      tabindex={-1}
      aria-describedby={described || undefined}
    >
      <legend>{props.legend}</legend>
      {props.hint ? (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p class="field-error" id={`${id}-error`}>
          {props.error}
        </p>
      ) : null}
      {props.choices.map((c) => (
        <div class="checkbox">
          <input
            type="radio"
            id={`${id}-${c.value}`}
            name={props.name}
            value={c.value}
            checked={c.value === props.chosen}
          />
          <label for={`${id}-${c.value}`}>{c.label}</label>
        </div>
      ))}
    </fieldset>
  );
}
