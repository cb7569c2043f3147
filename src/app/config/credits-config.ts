import { parseFraction, parseKroner } from '../../base/util/index.js';

/** What credits cost and what a case uses (issue 35, docs/partners.md). */
export interface CreditsConfig {
  /** `DOCPIPE_CREDITS_PER_CASE`: credits a sent case uses; 0 turns counting off. @defaultValue 1 */
  perCase: bigint;
  /** `DOCPIPE_CREDIT_PRICE`: one credit's list price in kroner, excluding VAT, such as 2.50. @defaultValue '2.00' */
  unitPriceOre: bigint;
  /** `DOCPIPE_VAT_RATE`: VAT as a fraction, added once per invoice. @defaultValue '0.25' */
  vatPpm: number;
  /** `DOCPIPE_CREDIT_PACKS`: the packs the dashboard offers, comma-separated. @defaultValue '100,500,1000,5000' */
  packs: bigint[];
}

export const DEFAULT_CREDITS = {
  perCase: '1',
  price: '2.00',
  vat: '0.25',
  packs: '100,500,1000,5000',
} as const;

export function creditsConfigFrom(env: NodeJS.ProcessEnv, problems: string[]): CreditsConfig {
  const perCaseText = (env.DOCPIPE_CREDITS_PER_CASE || DEFAULT_CREDITS.perCase).trim();
  if (!/^\d{1,6}$/.test(perCaseText))
    problems.push(
      `DOCPIPE_CREDITS_PER_CASE: "${perCaseText}" is not a whole number of credits (0 turns counting off)`,
    );
  const priceText = env.DOCPIPE_CREDIT_PRICE || DEFAULT_CREDITS.price;
  const unitPriceOre = parseKroner(priceText);
  if (unitPriceOre === undefined)
    problems.push(
      `DOCPIPE_CREDIT_PRICE: "${priceText}" is not a price in kroner with at most two decimals, such as 2.50`,
    );
  const vatText = env.DOCPIPE_VAT_RATE || DEFAULT_CREDITS.vat;
  const vatPpm = parseFraction(vatText);
  if (vatPpm === undefined)
    problems.push(`DOCPIPE_VAT_RATE: "${vatText}" is not a fraction from 0 to 1, such as 0.25`);
  const packsText = env.DOCPIPE_CREDIT_PACKS || DEFAULT_CREDITS.packs;
  const packs = packsText.split(',').map((p) => p.trim());
  if (packs.some((p) => !/^[1-9]\d{0,5}$/.test(p)))
    problems.push(
      `DOCPIPE_CREDIT_PACKS: "${packsText}" is not a comma-separated list of whole numbers of credits from 1 to 999999`,
    );
  return {
    perCase: /^\d{1,6}$/.test(perCaseText) ? BigInt(perCaseText) : 1n,
    unitPriceOre: unitPriceOre ?? 200n,
    vatPpm: vatPpm ?? 250_000,
    packs: packs.every((p) => /^[1-9]\d{0,5}$/.test(p)) ? packs.map((p) => BigInt(p)) : [100n],
  };
}
