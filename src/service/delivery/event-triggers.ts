/**
 * The triggers of a case's events (docs/webhooks.md). Spec 6 names "case created, recipient
 * signed, case signed, case denied" without identifiers; these are they, in the style of its
 * `partner.customer.registered`. The cases and signing services write theirs with their changes;
 * delivery writes the ones below: a case expired, and the messages that went out.
 */
import { CASE_CREATED, CASE_DELETED, CASE_SENT } from '../cases/index.js';
import { CASE_DENIED, CASE_SIGNED, RECIPIENT_SIGNED } from '../signing/index.js';
import { WORKFLOW_COMPLETED, WORKFLOW_CREATED } from '../webflows/index.js';

export { CASE_CREATED, CASE_DELETED, CASE_DENIED, CASE_SENT, CASE_SIGNED, RECIPIENT_SIGNED };
export { WORKFLOW_COMPLETED, WORKFLOW_CREATED };
export const CASE_EXPIRED = 'case.expired';
export const RECIPIENT_INVITED = 'recipient.invited';
export const RECIPIENT_REMINDED = 'recipient.reminded';

/** The triggers whose events send messages (handle-event.ts); the others only reach webhooks. */
export const MESSAGE_TRIGGERS: ReadonlySet<string> = new Set([
  CASE_CREATED,
  CASE_SENT,
  RECIPIENT_SIGNED,
  CASE_SIGNED,
  CASE_DENIED,
]);

/** The web-flow triggers the relay always hands on: each has work besides any webhook's. */
export const FLOW_TRIGGERS: ReadonlySet<string> = new Set([WORKFLOW_CREATED, WORKFLOW_COMPLETED]);
