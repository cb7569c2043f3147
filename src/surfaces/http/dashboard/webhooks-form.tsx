import { Type } from 'typebox';
import { Field, fill, type FieldErrors, type PageContext } from '../pages/index.js';
import type { DocpipeError, FailureDetail } from '../../../base/errors/index.js';
import {
  ALL_TRIGGERS,
  PARTNER_TRIGGER,
  WEBHOOK_FIELDS,
  WEBHOOK_METHODS,
  WEBHOOK_TRIGGERS,
  WebhookRefusedError,
  type NewWebhook,
  type Webhook,
} from '../../../service/webhooks/index.js';

const TEXT = { maxLength: 10_000 };

/** The add and edit forms as posted: checkboxes are absent when off, a group one or many. */
export const WebhookFormBody = Type.Object({
  url: Type.Optional(Type.String(TEXT)),
  method: Type.Optional(Type.String({ maxLength: 16 })),
  active: Type.Optional(Type.String({ maxLength: 16 })),
  headers: Type.Optional(Type.String({ maxLength: 200_000 })),
  triggers: Type.Optional(
    Type.Union([
      Type.String({ maxLength: 64 }),
      Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 }),
    ]),
  ),
});

export interface WebhookFormPosted {
  url?: string;
  method?: string;
  active?: string;
  headers?: string;
  triggers?: string | string[];
}

/** What the form shows: a posted form's values as typed, or a webhook's. */
export interface WebhookFormValues {
  url: string;
  method: string;
  active: boolean;
  /** `Name: value`, one a line. */
  headers: string;
  triggers: readonly string[];
}

export const NEW_WEBHOOK_VALUES: WebhookFormValues = {
  url: '',
  method: 'POST',
  active: true,
  headers: '',
  triggers: [],
};

export function valuesOfPosted(body: WebhookFormPosted): WebhookFormValues {
  const triggers = body.triggers;
  return {
    url: body.url ?? '',
    method: body.method ?? 'POST',
    active: body.active !== undefined,
    headers: body.headers ?? '',
    triggers: triggers === undefined ? [] : typeof triggers === 'string' ? [triggers] : triggers,
  };
}

export function valuesOfWebhook(webhook: Webhook): WebhookFormValues {
  return {
    url: webhook.url,
    method: webhook.method,
    active: webhook.active,
    headers: Object.entries(webhook.headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n'),
    triggers: webhook.triggers,
  };
}

/** The form's values as the service takes them (`docpipe webhooks add`'s flags). */
export function newWebhookOf(values: WebhookFormValues): NewWebhook {
  return {
    url: values.url.trim(),
    method: values.method,
    active: values.active,
    triggers: values.triggers,
    headers: values.headers
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  };
}

/** The form's field each of checkWebhook's fields (named by the CLI's flags) is typed in. */
const FIELD_OF: Record<string, string> = {
  [WEBHOOK_FIELDS.url]: 'url',
  [WEBHOOK_FIELDS.method]: 'method',
  [WEBHOOK_FIELDS.triggers]: 'triggers',
  [WEBHOOK_FIELDS.headers]: 'headers',
};

/**
 * A service reason as the company's page says it: a refused destination in the page's words
 * from the refusal's structured reason (the service's message names the operator's setting, which
 * a company cannot change), and no second "refused" after the page's own.
 */
function reasonText(problem: FailureDetail, refusal: DocpipeError, page: PageContext): string {
  const reason = refusal instanceof WebhookRefusedError ? refusal.reasonOf(problem) : undefined;
  if (reason?.reason === 'private-address')
    return fill(page.words.webhooks.privateAddress, { address: reason.address, host: reason.host });
  return problem.message.replace(/^refused: /, '');
}

/**
 * The service's problems by the form's fields, every one of them: a field with several shows
 * them together. The service's reason is the precise one (which header, which address), so it
 * is shown as it is, in the page's frame.
 */
export function formErrorsOf(
  refusal: DocpipeError,
  values: WebhookFormValues,
  page: PageContext,
): FieldErrors {
  const w = page.words.webhooks;
  const byField = new Map<string, string[]>();
  for (const p of refusal.details) {
    const field = (Object.hasOwn(FIELD_OF, p.field) ? FIELD_OF[p.field] : undefined) ?? 'url';
    byField.set(field, [...(byField.get(field) ?? []), reasonText(p, refusal, page)]);
  }
  const errors: Record<string, string> = {};
  for (const [field, messages] of byField)
    errors[field] = fill(w.refused, { reason: messages.join('; ') });
  // A field left empty is told in the page's own words (the service's are the CLI's).
  if (errors.url !== undefined && values.url.trim() === '') errors.url = w.urlMissing;
  if (errors.triggers !== undefined && values.triggers.length === 0)
    errors.triggers = w.triggersMissing;
  return errors;
}

/** The add and edit forms' fields: URL, method, active, custom headers and triggers. */
export function WebhookFields({
  page,
  values,
  errors,
  partnerTrigger,
}: {
  page: PageContext;
  values: WebhookFormValues;
  errors: FieldErrors;
  partnerTrigger: boolean;
}) {
  const w = page.words.webhooks;
  // The partner trigger is offered only to a partner that may receive it, and kept on a webhook
  // that already names it (so that it can be unticked after the operator turned it off).
  const partner = partnerTrigger || values.triggers.includes(PARTNER_TRIGGER);
  const triggers = [...WEBHOOK_TRIGGERS, ...(partner ? [PARTNER_TRIGGER] : []), ALL_TRIGGERS];
  return (
    <>
      <Field
        name="url"
        label={w.url}
        type="url"
        hint={w.urlHint}
        value={values.url}
        errors={errors}
        required
        autocomplete="off"
      />
      <div class={errors.method ? 'field has-error' : 'field'}>
        <label for="field-method">{w.method}</label>
        <ErrorLine id="field-method" error={errors.method} />
        <select
          id="field-method"
          name="method"
          aria-invalid={errors.method ? 'true' : undefined}
          aria-describedby={errors.method ? 'field-method-error' : undefined}
        >
          {WEBHOOK_METHODS.map((m) => (
            <option value={m} selected={m === values.method.toUpperCase()}>
              {m}
            </option>
          ))}
        </select>
      </div>
      <div class="checkbox">
        <input
          id="field-active"
          type="checkbox"
          name="active"
          value="on"
          checked={values.active}
          aria-describedby="field-active-hint"
        />
        <div>
          <label for="field-active">{w.active}</label>
          <p class="hint" id="field-active-hint">
            {w.activeHint}
          </p>
        </div>
      </div>
      <div class={errors.headers ? 'field has-error' : 'field'}>
        <label for="field-headers">{w.headers}</label>
        <p class="hint" id="field-headers-hint">
          {w.headersHint}
        </p>
        <ErrorLine id="field-headers" error={errors.headers} />
        <textarea
          id="field-headers"
          name="headers"
          rows={3}
          spellcheck={false}
          autocomplete="off"
          aria-invalid={errors.headers ? 'true' : undefined}
          aria-describedby={
            errors.headers ? 'field-headers-hint field-headers-error' : 'field-headers-hint'
          }
        >
          {values.headers}
        </textarea>
      </div>
      <fieldset
        id="field-triggers"
        class={errors.triggers ? 'triggers has-error' : 'triggers'}
        tabindex={-1}
        aria-describedby={errors.triggers ? 'field-triggers-error' : undefined}
      >
        <legend>{w.triggers}</legend>
        <ErrorLine id="field-triggers" error={errors.triggers} />
        {triggers.map((t, i) => (
          <div class="checkbox">
            <input
              id={`trigger-${i}`}
              type="checkbox"
              name="triggers"
              value={t}
              checked={values.triggers.includes(t)}
            />
            <label for={`trigger-${i}`}>
              {t === ALL_TRIGGERS ? (
                w.allTriggers
              ) : t === PARTNER_TRIGGER ? (
                <>
                  <code>{t}</code> ({w.partnerTrigger})
                </>
              ) : (
                <code>{t}</code>
              )}
            </label>
          </div>
        ))}
      </fieldset>
    </>
  );
}

function ErrorLine({ id, error }: { id: string; error: string | undefined }) {
  if (!error) return null;
  return (
    <p class="field-error" id={`${id}-error`}>
      {error}
    </p>
  );
}
