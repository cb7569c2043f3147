import { applyRate } from '../../base/util/index.js';

/** The rates a purchase is priced with, read when it is recorded and copied onto it. */
export interface PurchaseRates {
  /** The list price of one credit, excluding VAT, in øre. */
  unitPriceOre: bigint;
  /** The referrer's discount, parts per million (0 without one). */
  discountPpm: number;
  /** VAT, parts per million (250000: 25 %). */
  vatPpm: number;
  /** The referrer's kickback, parts per million (0 unless it is an active partner). */
  kickbackPpm: number;
}

/** Every amount of one purchase, in øre. */
export interface PurchaseAmounts {
  /** credits × list price. */
  grossOre: bigint;
  /** The discount: gross × discount, rounded half-up. */
  discountOre: bigint;
  /** What the customer pays excluding VAT: gross − discount. */
  netOre: bigint;
  /** VAT on the net, once per invoice, rounded half-up. */
  vatOre: bigint;
  /** net + VAT: the invoice's total. */
  totalOre: bigint;
  /** The partner's share of the net (excluding VAT, after the discount), rounded half-up. */
  kickbackOre: bigint;
}

/**
 * A purchase's amounts, in this fixed order (docs/partners.md works examples through it):
 * 1. gross = credits × list price (exact);
 * 2. discount = round(gross × discount rate);
 * 3. net = gross − discount;
 * 4. VAT = round(net × VAT rate), once for the whole invoice;
 * 5. total = net + VAT;
 * 6. kickback = round(net × kickback rate).
 * Each rounding is half-up to a whole øre and happens once, in its own step: a discount is never
 * taken per credit, VAT never per line, so that the invoice's figures add up as printed.
 */
export function purchaseAmounts(credits: bigint, rates: PurchaseRates): PurchaseAmounts {
  if (credits <= 0n) throw new RangeError('a purchase is of at least one credit');
  const grossOre = credits * rates.unitPriceOre;
  const discountOre = applyRate(grossOre, rates.discountPpm);
  const netOre = grossOre - discountOre;
  const vatOre = applyRate(netOre, rates.vatPpm);
  return {
    grossOre,
    discountOre,
    netOre,
    vatOre,
    totalOre: netOre + vatOre,
    kickbackOre: applyRate(netOre, rates.kickbackPpm),
  };
}
