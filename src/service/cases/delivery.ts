import type { CaseState, ChannelReport, ChannelResult, Delivery } from './case-answer.js';

/** A channel the case had nothing to send over: not tried, and so not failed. */
export function notAttempted(reason: string): ChannelReport {
  return { ok: true, attempted: false, reason };
}

/** A channel that was tried, as its send reported. */
export function attempted(result: ChannelResult): ChannelReport {
  return { ...result, attempted: true };
}

/** The report of one event from its channels: attempted when any of them was. */
export function deliveryOf(channels: Omit<Delivery, 'attempted'>): Delivery {
  const { email, eboks, sms, webhook } = channels;
  return {
    attempted: [email, eboks, sms, webhook].some((c) => c.attempted),
    email,
    eboks,
    sms,
    webhook,
  };
}

/**
 * The delivery report of a case made by a service without delivery wired (CaseServiceDeps
 * `delivery` absent: a test of creation alone). It says so rather than claiming a success:
 * nothing attempted, each channel with the reason.
 */
export function deliveryReport(state: CaseState): Delivery {
  const why = state === 'draft' ? 'the case is a draft' : 'this service hands no case to delivery';
  const channel = notAttempted(why);
  return deliveryOf({ email: channel, eboks: channel, sms: channel, webhook: channel });
}
