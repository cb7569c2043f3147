/**
 * The triggers of a case's events (docs/webhooks.md). Spec 6 names "case created, recipient
 * signed, case signed, case denied" without identifiers; these are they, in the style of its
 * `partner.customer.registered`. `case.sent` is a draft sent; `recipient.invited` and
 * `recipient.reminded` are messages that went out (the changes delivery makes itself).
 */
export const CASE_CREATED = 'case.created';
export const CASE_SENT = 'case.sent';
export const RECIPIENT_INVITED = 'recipient.invited';
export const RECIPIENT_REMINDED = 'recipient.reminded';
export const RECIPIENT_SIGNED = 'recipient.signed';
export const CASE_SIGNED = 'case.signed';
export const CASE_DENIED = 'case.denied';
export const CASE_EXPIRED = 'case.expired';
