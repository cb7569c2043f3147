/**
 * The triggers of a case's events (docs/webhooks.md). Spec 6 names "case created, recipient
 * signed, case signed, case denied" without identifiers; these are they, in the style of its
 * `partner.customer.registered`. The cases and signing services write theirs with their changes;
 * delivery writes the ones below: a case expired, and the messages that went out.
 */
export { CASE_CREATED, CASE_SENT } from '../cases/index.js';
export { CASE_DENIED, CASE_SIGNED, RECIPIENT_SIGNED } from '../signing/index.js';
export const CASE_EXPIRED = 'case.expired';
export const RECIPIENT_INVITED = 'recipient.invited';
export const RECIPIENT_REMINDED = 'recipient.reminded';
