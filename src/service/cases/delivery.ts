import type { CaseState } from './case-answer.js';
import type { Delivery } from './case-answer.js';

/**
 * The delivery report of a case just made (spec 2.2, 4.4 rule 4). No channel sends anything yet
 * (e-mail, SMS, e-Boks and webhooks come with the delivery issue), and the report says so
 * rather than claiming a success: nothing attempted, each channel not ok with the reason.
 */
export function deliveryReport(state: CaseState): Delivery {
  const why =
    state === 'draft'
      ? 'not sent: the case is a draft'
      : 'not sent: no delivery channel is configured on this installation yet';
  return {
    attempted: false,
    email: { ok: false, error: why },
    eboks: { ok: false, error: why },
    sms: { ok: false, error: why },
    webhook: { ok: false, error: why },
  };
}
