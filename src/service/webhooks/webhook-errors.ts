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
