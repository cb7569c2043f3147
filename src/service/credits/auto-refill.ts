import type { Kysely } from 'kysely';
import type { Database, PaymentMethod } from '../db/index.js';
import { creditBalance } from './credit-ledger.js';
import {
  recordPurchase,
  type CreditPurchase,
  type EanDetails,
  type PurchaseDeps,
} from './credit-purchases.js';
import { glnProblem, normalizeGln } from './gln.js';

/** A company's auto-refill: buy `credits` by `method` when the balance falls below `below`. */
export interface AutoRefill {
  below: bigint;
  credits: bigint;
  method: PaymentMethod;
  ean?: EanDetails;
}

/** The company's auto-refill; undefined when it has none. */
export async function autoRefillOf(
  db: Kysely<Database>,
  company: string,
): Promise<AutoRefill | undefined> {
  const row = await db
    .selectFrom('credit_settings')
    .selectAll()
    .where('company_id', '=', company)
    .executeTakeFirst();
  if (!row || row.refill_below === null || row.refill_credits === null || !row.refill_method)
    return undefined;
  return {
    below: BigInt(row.refill_below),
    credits: BigInt(row.refill_credits),
    method: row.refill_method,
    ...(row.ean_gln !== null
      ? {
          ean: {
            gln: row.ean_gln,
            ...(row.ean_order_number !== null ? { orderNumber: row.ean_order_number } : {}),
            ...(row.ean_contact !== null ? { contact: row.ean_contact } : {}),
          },
        }
      : {}),
  };
}

/** Every problem of an auto-refill's settings, by field. */
export function autoRefillProblems(refill: AutoRefill): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (refill.below < 0n || refill.below > 1_000_000n)
    problems.push({ path: 'below', message: 'must be a whole number from 0 to 1000000' });
  if (refill.credits <= 0n || refill.credits > 1_000_000n)
    problems.push({ path: 'credits', message: 'must be a whole number from 1 to 1000000' });
  if (refill.method === 'ean' && glnProblem(refill.ean?.gln ?? '') !== undefined)
    problems.push({ path: 'ean.gln', message: 'must be a 13-digit EAN location number (GLN)' });
  return problems;
}

/** Sets the company's auto-refill, or turns it off (`undefined`). */
export async function setAutoRefill(
  db: Kysely<Database>,
  company: string,
  refill: AutoRefill | undefined,
): Promise<void> {
  const values = {
    refill_below: refill?.below ?? null,
    refill_credits: refill?.credits ?? null,
    refill_method: refill?.method ?? null,
    ean_gln: refill?.method === 'ean' && refill.ean ? normalizeGln(refill.ean.gln) : null,
    ean_order_number: refill?.method === 'ean' ? (refill.ean?.orderNumber ?? null) : null,
    ean_contact: refill?.method === 'ean' ? (refill.ean?.contact ?? null) : null,
  };
  await db
    .insertInto('credit_settings')
    .values({ company_id: company, ...values })
    .onConflict((oc) => oc.column('company_id').doUpdateSet({ ...values, updated_at: new Date() }))
    .execute();
}

/**
 * Buys the company's auto-refill pack when its balance is below the threshold (spec 4.6's
 * "auto-refill"), after a case took its credits. The purchase's key counts the company's
 * auto-refills (`auto-refill:<n>`), so that cases sent at once, each seeing the balance low,
 * buy one pack between them; the pack's credits are in the ledger when the purchase is recorded,
 * so the next case sees the balance above the threshold again. Undefined when nothing was bought.
 */
export async function refillIfLow(
  deps: PurchaseDeps,
  company: string,
): Promise<CreditPurchase | undefined> {
  const refill = await autoRefillOf(deps.db, company);
  if (!refill) return undefined;
  // Counted before the balance is read: a refill recorded after the count is in the balance
  // read next (its credits commit with it), and one recorded after that read has the key this
  // one makes. Read the other way round, a refill committed between the two reads would leave
  // this one seeing the balance low and a count past it, and buy a second pack.
  const done = await deps.db
    .selectFrom('credit_purchases')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('company_id', '=', company)
    .where('auto_refill', '=', true)
    .executeTakeFirstOrThrow();
  const balance = await creditBalance(deps.db, company);
  if (balance.total >= refill.below) return undefined;
  const { purchase, again } = await recordPurchase(deps, {
    company,
    credits: refill.credits,
    method: refill.method,
    ...(refill.ean ? { ean: refill.ean } : {}),
    key: `auto-refill:${BigInt(done.n) + 1n}`,
    autoRefill: true,
    by: 'auto-refill',
  });
  return again ? undefined : purchase;
}
