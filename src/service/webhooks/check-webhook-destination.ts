import { isDocpipeError, type FailureDetail } from '../../base/errors/index.js';
import {
  DestinationRefusedError,
  resolveDestination,
  type LookupAll,
} from './destination-guard.js';
import { WebhookRefusedError, type WebhookProblemReason } from './webhook-errors.js';
import {
  WEBHOOK_FIELDS,
  checkWebhook,
  type CheckedWebhook,
  type NewWebhook,
} from './webhook-input.js';

export interface DestinationCheckOptions {
  /** `DOCPIPE_WEBHOOK_ALLOW_PRIVATE`: what every delivery is held to. */
  allowPrivate: boolean;
  /** @defaultValue dns.lookup, all addresses */
  lookup?: LookupAll;
  /** The company may name PARTNER_TRIGGER (service/webhooks/partner-trigger.ts). */
  partnerTrigger?: boolean;
}

/**
 * checkWebhook, and the destination's address checked now as each delivery checks it (a
 * loopback, private or link-local address is refused unless allowed), every problem in one
 * WebhookRefusedError (`validation-failed`, with a refused destination's reason structured beside
 * its detail). For the dashboard, where a person adds a webhook and should hear at once that it
 * would never be sent to; each delivery still checks again, since what a
 * name resolves to can change. A name that does not resolve now is not refused: its deliveries
 * say so, and are retried.
 */
export async function checkWebhookDestination(
  input: NewWebhook,
  options: DestinationCheckOptions,
): Promise<CheckedWebhook> {
  let checked: CheckedWebhook | undefined;
  const problems: FailureDetail[] = [];
  const reasons = new Map<FailureDetail, WebhookProblemReason>();
  try {
    checked = checkWebhook(input, { partnerTrigger: options.partnerTrigger ?? false });
  } catch (err) {
    if (!isDocpipeError(err) || err.slug !== 'validation-failed') throw err;
    problems.push(...err.details);
  }
  const urlRefused = problems.some((p) => p.field === WEBHOOK_FIELDS.url);
  if (!urlRefused) {
    try {
      await resolveDestination(new URL(input.url), options);
    } catch (err) {
      if (err instanceof DestinationRefusedError) {
        const detail = { field: WEBHOOK_FIELDS.url, message: err.message };
        problems.unshift(detail);
        const { address, kind, host } = err;
        reasons.set(detail, { reason: 'private-address', address, kind, host });
      }
      // Not resolved now: told by its deliveries.
    }
  }
  if (problems.length > 0 || !checked) throw new WebhookRefusedError(problems, reasons);
  return checked;
}
