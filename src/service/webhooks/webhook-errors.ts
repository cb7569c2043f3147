import { DocpipeError, type FailureDetail } from '../../base/errors/index.js';
import type { RefusedAddressKind } from './destination-guard.js';

/**
 * The webhook or delivery is not there: an id nobody made, a removed webhook, or another
 * company's (tenancy: absent, never forbidden).
 */
export class WebhookNotFoundError extends Error {
  override readonly name = 'WebhookNotFoundError';

  constructor(
    readonly kind: 'webhook' | 'delivery',
    readonly id: string,
    readonly company?: string,
  ) {
    super(`${kind} ${id} does not exist${company === undefined ? '' : ` in company ${company}`}`);
  }
}

/** A replay that would send a delivery that succeeded (without force) or is still pending. */
export class ReplayRefusedError extends Error {
  override readonly name = 'ReplayRefusedError';

  constructor(
    readonly deliveryId: string,
    readonly status: 'pending' | 'succeeded',
  ) {
    super(
      status === 'succeeded'
        ? `delivery ${deliveryId} succeeded already; replay it again with --force`
        : `delivery ${deliveryId} is pending: it is retried by itself; replay a failed delivery`,
    );
  }
}

/** Why one of a webhook's problems was found, for the problems a page words in its own language. */
export interface PrivateDestinationReason {
  reason: 'private-address';
  /** The refused address (an address the URL's host resolves to, or the literal itself). */
  address: string;
  kind: RefusedAddressKind;
  /** The URL's host, as written. */
  host: string;
}

export type WebhookProblemReason = PrivateDestinationReason;

/**
 * checkWebhookDestination's refusal: `validation-failed` with every problem, as any other, and
 * beside them the structured reason of those that have one (by the detail itself), so that a
 * page says them in its language without reading the service's English. The reasons stay off
 * the wire: toFailure() gives spec 7.2's `{field, message}` details only.
 */
export class WebhookRefusedError extends DocpipeError {
  constructor(
    details: FailureDetail[],
    readonly reasons: ReadonlyMap<FailureDetail, WebhookProblemReason>,
  ) {
    super('validation-failed', details);
  }

  /** The structured reason of one of this error's details, if it has one. */
  reasonOf(detail: FailureDetail): WebhookProblemReason | undefined {
    return this.reasons.get(detail);
  }
}
