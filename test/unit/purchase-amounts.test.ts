import { describe, expect, it } from 'vitest';
import { applyRate, formatKroner } from '../../src/base/util/index.js';
import { purchaseAmounts, type PurchaseRates } from '../../src/service/credits/index.js';

/**
 * The price computation's order and its half-up roundings, with the worked examples of
 * docs/partners.md ("How a price is computed"): when this test changes, that page changes with it.
 */

/** The amounts as the docs print them: kroner with two decimals. */
function kroner(credits: bigint, rates: PurchaseRates) {
  return Object.fromEntries(
    Object.entries(purchaseAmounts(credits, rates) as unknown as Record<string, bigint>).map(
      ([k, v]) => [k, formatKroner(v)],
    ),
  );
}

describe('applyRate', () => {
  it('rounds exactly half an øre up, and a hair less down', () => {
    expect(applyRate(1n, 500_000)).toBe(1n); // 0.5 øre
    expect(applyRate(1n, 499_999)).toBe(0n); // 0.499999 øre
    expect(applyRate(3n, 500_000)).toBe(2n); // 1.5 øre
    expect(applyRate(2145n, 100_000)).toBe(215n); // 214.5 øre
    expect(applyRate(1930n, 250_000)).toBe(483n); // 482.5 øre
    expect(applyRate(1930n, 150_000)).toBe(290n); // 289.5 øre
    expect(applyRate(750n, 250_000)).toBe(188n); // 187.5 øre
    expect(applyRate(0n, 150_000)).toBe(0n);
    expect(applyRate(12_345n, 1_000_000)).toBe(12_345n);
  });
});

describe('purchaseAmounts: the worked examples of docs/partners.md', () => {
  it('example 1: 3 credits at 2.50, no partner: VAT 1.875 rounds up to 1.88', () => {
    expect(
      kroner(3n, { unitPriceOre: 250n, discountPpm: 0, vatPpm: 250_000, kickbackPpm: 0 }),
    ).toEqual({
      grossOre: '7.50',
      discountOre: '0.00',
      netOre: '7.50',
      vatOre: '1.88',
      totalOre: '9.38',
      kickbackOre: '0.00',
    });
  });

  it('example 2: 11 credits at 1.95, 10 % discount, 15 % kickback: three exact halves, each up', () => {
    expect(
      kroner(11n, {
        unitPriceOre: 195n,
        discountPpm: 100_000,
        vatPpm: 250_000,
        kickbackPpm: 150_000,
      }),
    ).toEqual({
      grossOre: '21.45',
      discountOre: '2.15', // 2.145
      netOre: '19.30',
      vatOre: '4.83', // 4.825
      totalOre: '24.13',
      kickbackOre: '2.90', // 2.895, of the net: after the discount, without VAT
    });
  });

  it('example 3: 100 credits at 2.50, 10 % discount, 15 % kickback', () => {
    expect(
      kroner(100n, {
        unitPriceOre: 250n,
        discountPpm: 100_000,
        vatPpm: 250_000,
        kickbackPpm: 150_000,
      }),
    ).toEqual({
      grossOre: '250.00',
      discountOre: '25.00',
      netOre: '225.00',
      vatOre: '56.25',
      totalOre: '281.25',
      kickbackOre: '33.75',
    });
  });

  it('takes the discount once of the whole, never per credit', () => {
    // Per credit, 0.195 kr would round to 0.20 and 11 of them make 2.20; of the whole, 2.15.
    const a = purchaseAmounts(11n, {
      unitPriceOre: 195n,
      discountPpm: 100_000,
      vatPpm: 250_000,
      kickbackPpm: 0,
    });
    expect(a.discountOre).toBe(215n);
    expect(a.netOre + a.discountOre).toBe(a.grossOre);
    expect(a.totalOre).toBe(a.netOre + a.vatOre);
  });

  it('refuses a purchase of no credits', () => {
    expect(() =>
      purchaseAmounts(0n, { unitPriceOre: 200n, discountPpm: 0, vatPpm: 250_000, kickbackPpm: 0 }),
    ).toThrow(RangeError);
  });
});
