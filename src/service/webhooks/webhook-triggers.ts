/**
 * The events a webhook can receive (issue 24, spec 6): the spec names them in words ("case
 * created, recipient signed, ..., workflow completed"); these are their identifiers, in the style
 * of its one named trigger, `partner.customer.registered`. `*` receives every one, including
 * triggers added later. `workflow.completed` is a web-flow's (issue 36): every person asked has
 * sent their answers; its body names the flow (`flow: {_id, updatedAt, ...}`), not a case.
 */
export const WEBHOOK_TRIGGERS = [
  'case.created',
  'case.sent',
  'recipient.signed',
  'recipient.invited',
  'recipient.reminded',
  'case.signed',
  'case.denied',
  'case.expired',
  'case.deleted',
  'workflow.completed',
] as const;

export type WebhookTrigger = (typeof WEBHOOK_TRIGGERS)[number];

/**
 * Spec 6's partner trigger: a new customer's API key, sent to its partner's webhooks once, at
 * sign-up (service/partners/partner-webhook.ts). Not one of WEBHOOK_TRIGGERS and not received by
 * `*`: a webhook gets a customer's key only when it names this trigger, and only an active
 * partner with `webhookEnabled` may name it (spec: "It appears only for partners with
 * webhookEnabled").
 */
export const PARTNER_TRIGGER = 'partner.customer.registered';

/** The trigger that stands for all of them. */
export const ALL_TRIGGERS = '*';

export function isWebhookTrigger(value: string): value is WebhookTrigger {
  return (WEBHOOK_TRIGGERS as readonly string[]).includes(value);
}

/** Whether a webhook with these triggers receives `trigger`. */
export function receives(triggers: readonly string[], trigger: string): boolean {
  return triggers.includes(trigger) || triggers.includes(ALL_TRIGGERS);
}
