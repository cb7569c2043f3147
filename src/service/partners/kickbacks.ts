import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/index.js';

/** A paid invoice's kickback, as the purchase that earns it is recorded. */
export interface NewKickback {
  partner: string;
  customer: string;
  purchaseId: string;
  invoiceNumber: string;
  /** What the customer paid excluding VAT, after the discount, in øre. */
  baseOre: bigint;
  kickbackPpm: number;
  /** base × rate, rounded half-up (credits/purchase-amounts.ts). */
  amountOre: bigint;
}

/**
 * Records what the partner is owed for one paid invoice, in the caller's transaction: once per
 * invoice whatever happens (the purchase and the invoice number are both unique in the table), so
 * that a purchase paid twice at once, or recorded again, owes once. Answers whether this call
 * recorded it.
 */
export async function recordKickback(tx: Kysely<Database>, k: NewKickback): Promise<boolean> {
  const row = await tx
    .insertInto('partner_kickbacks')
    .values({
      partner_company_id: k.partner,
      customer_company_id: k.customer,
      purchase_id: k.purchaseId,
      invoice_number: k.invoiceNumber,
      base_ore: k.baseOre,
      kickback_ppm: k.kickbackPpm,
      amount_ore: k.amountOre,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** One kickback as the operator reads it. */
export interface Kickback {
  customer: string;
  invoiceNumber: string;
  baseOre: bigint;
  kickbackPpm: number;
  amountOre: bigint;
  createdAt: Date;
}

/** One payout as the operator recorded it. */
export interface Payout {
  amountOre: bigint;
  reference: string | null;
  createdAt: Date;
}

/** A partner's account: what it earned, what was paid out, and what is owed. */
export interface PartnerAccount {
  partner: string;
  kickbacks: Kickback[];
  payouts: Payout[];
  earnedOre: bigint;
  paidOutOre: bigint;
  owedOre: bigint;
}

/** Everything the partner earned and was paid, oldest first, with the balance owed. */
export async function partnerAccount(
  db: Kysely<Database>,
  partner: string,
): Promise<PartnerAccount> {
  const [kickbacks, payouts] = await Promise.all([
    db
      .selectFrom('partner_kickbacks')
      .selectAll()
      .where('partner_company_id', '=', partner)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('partner_payouts')
      .selectAll()
      .where('partner_company_id', '=', partner)
      .orderBy('id')
      .execute(),
  ]);
  const earnedOre = kickbacks.reduce((sum, k) => sum + BigInt(k.amount_ore), 0n);
  const paidOutOre = payouts.reduce((sum, p) => sum + BigInt(p.amount_ore), 0n);
  return {
    partner,
    kickbacks: kickbacks.map((k) => ({
      customer: k.customer_company_id,
      invoiceNumber: k.invoice_number,
      baseOre: BigInt(k.base_ore),
      kickbackPpm: k.kickback_ppm,
      amountOre: BigInt(k.amount_ore),
      createdAt: k.created_at,
    })),
    payouts: payouts.map((p) => ({
      amountOre: BigInt(p.amount_ore),
      reference: p.reference,
      createdAt: p.created_at,
    })),
    earnedOre,
    paidOutOre,
    owedOre: earnedOre - paidOutOre,
  };
}

/** A payout refused: more than is owed. */
export class PayoutTooLargeError extends Error {
  override readonly name = 'PayoutTooLargeError';

  constructor(
    readonly partner: string,
    readonly amountOre: bigint,
    readonly owedOre: bigint,
  ) {
    super(
      `partner ${partner} is owed ${owedOre} øre; a payout of ${amountOre} øre is more than that`,
    );
  }
}

/**
 * Records a payout the operator made by hand (spec 4.6), at most what is owed: the partner's
 * kickbacks and payouts are locked while the sum is read and the payout
 * written (a transaction-scoped advisory lock per partner), so that two payouts at once cannot
 * together pay more. A payout recorded again with its
 * key records nothing new; the answer says whether this call recorded it.
 */
export async function recordPayout(
  db: Kysely<Database>,
  payout: { partner: string; amountOre: bigint; reference?: string; key: string; by: string },
): Promise<{ recorded: boolean; owedOre: bigint }> {
  if (payout.amountOre <= 0n) throw new RangeError('a payout is of at least 1 øre');
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtext('docpipe-partner-payout'), hashtext(${payout.partner}))`.execute(
      tx,
    );
    const account = await partnerAccount(tx, payout.partner);
    const again = await tx
      .selectFrom('partner_payouts')
      .select('id')
      .where('partner_company_id', '=', payout.partner)
      .where('idempotency_key', '=', payout.key)
      .executeTakeFirst();
    if (again) return { recorded: false, owedOre: account.owedOre };
    if (payout.amountOre > account.owedOre)
      throw new PayoutTooLargeError(payout.partner, payout.amountOre, account.owedOre);
    await tx
      .insertInto('partner_payouts')
      .values({
        partner_company_id: payout.partner,
        amount_ore: payout.amountOre,
        reference: payout.reference ?? null,
        idempotency_key: payout.key,
        created_by: payout.by,
      })
      .execute();
    return { recorded: true, owedOre: account.owedOre - payout.amountOre };
  });
}
