/**
 * A card payment, taken by a payment provider (Stripe, Nets Easy, QuickPay...) behind this
 * interface: docpipe holds no card number, and an installation without a provider offers only
 * invoice and EAN (`card-payments-unavailable`).
 */
export interface CardPayments {
  /**
   * Charges the company's card on file `amountOre` (VAT included). The provider is given
   * `idempotencyKey`, so that a retry charges once; answers its own reference for the payment,
   * or throws when the card is refused.
   */
  charge(request: {
    company: string;
    amountOre: bigint;
    idempotencyKey: string;
  }): Promise<{ reference: string }>;
}

/** A card payment asked of an installation with no payment provider. */
export class CardPaymentsUnavailableError extends Error {
  override readonly name = 'CardPaymentsUnavailableError';

  constructor() {
    super(
      'card payments need a payment provider, and this installation has none: buy by invoice or EAN',
    );
  }
}

/** The provider refused the card: nothing was recorded. */
export class CardRefusedError extends Error {
  override readonly name = 'CardRefusedError';
}
