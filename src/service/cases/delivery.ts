import type { CaseState } from './case-answer.js';
import type { Delivery } from './case-answer.js';

/**
 * The delivery report of a case made by a service without delivery wired (CaseServiceDeps
 * `delivery` absent: a test of creation alone). It says so rather than claiming a success:
 * nothing attempted, each channel not ok with the reason.
 */
export function deliveryReport(state: CaseState): Delivery {
  const why =
    state === 'draft'
      ? 'not sent: the case is a draft'
      : 'not sent: this service hands no case to delivery';
  return {
    attempted: false,
    email: { ok: false, error: why },
    eboks: { ok: false, error: why },
    sms: { ok: false, error: why },
    webhook: { ok: false, error: why },
  };
}
