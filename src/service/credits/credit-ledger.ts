import { sql, type Kysely } from 'kysely';
import type { CreditLineKind, Database } from '../db/index.js';

/** One line to add to a company's ledger. */
export interface NewCreditLine {
  company: string;
  kind: CreditLineKind;
  /** Bought credits: a purchase adds them, a case's use may take them. */
  paidCredits?: bigint;
  /** Credits given: the referral perk, a correction's. */
  freeCredits?: bigint;
  /**
   * Unique in the company: the same line recorded again (a retry, two servers at once) is
   * recorded once. `purchase:<id>`, `referral:<company>`, `case:<id>`, or the operator's.
   */
  key: string;
  purchaseId?: string;
  caseId?: string;
  referredCompany?: string;
  note?: string;
  /** Who recorded it: `member:<user id>`, `operator`, `signup`, `case-service`, `auto-refill`. */
  by: string;
}

/** A company's credits: bought and given apart, and their sum. */
export interface CreditBalance {
  paid: bigint;
  free: bigint;
  total: bigint;
}

/**
 * Adds a line to the company's append-only ledger and its sums to the cached balance, in the
 * caller's transaction (`tx`): both or neither. A line whose key the company already has is not
 * added again; the answer says whether this call added it. Concurrent calls with one key wait on
 * the unique index, and all but one add nothing.
 */
export async function addCreditLine(tx: Kysely<Database>, line: NewCreditLine): Promise<boolean> {
  const paid = line.paidCredits ?? 0n;
  const free = line.freeCredits ?? 0n;
  const added = await tx
    .insertInto('credit_lines')
    .values({
      company_id: line.company,
      kind: line.kind,
      paid_credits: paid,
      free_credits: free,
      idempotency_key: line.key,
      purchase_id: line.purchaseId ?? null,
      case_id: line.caseId ?? null,
      referred_company_id: line.referredCompany ?? null,
      note: line.note ?? null,
      created_by: line.by,
    })
    .onConflict((oc) => oc.constraint('credit_lines_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!added) return false;
  await tx
    .insertInto('credit_balances')
    .values({ company_id: line.company, paid, free })
    .onConflict((oc) =>
      oc.column('company_id').doUpdateSet({
        paid: sql`credit_balances.paid + excluded.paid`,
        free: sql`credit_balances.free + excluded.free`,
        updated_at: sql`now()`,
      }),
    )
    .execute();
  return true;
}

/** The company's balance: the cached sums of its ledger (zero before its first line). */
export async function creditBalance(db: Kysely<Database>, company: string): Promise<CreditBalance> {
  const row = await db
    .selectFrom('credit_balances')
    .select(['paid', 'free'])
    .where('company_id', '=', company)
    .executeTakeFirst();
  const paid = BigInt(row?.paid ?? 0);
  const free = BigInt(row?.free ?? 0);
  return { paid, free, total: paid + free };
}

/**
 * The balance summed from the ledger's lines themselves, for a check of the cache (`docpipe
 * credits show` prints both when they differ, which only a hand-edited table could make).
 */
export async function ledgerSums(db: Kysely<Database>, company: string): Promise<CreditBalance> {
  const row = await db
    .selectFrom('credit_lines')
    .select([
      sql<string>`coalesce(sum(paid_credits), 0)`.as('paid'),
      sql<string>`coalesce(sum(free_credits), 0)`.as('free'),
    ])
    .where('company_id', '=', company)
    .executeTakeFirstOrThrow();
  const paid = BigInt(row.paid);
  const free = BigInt(row.free);
  return { paid, free, total: paid + free };
}

/** A line as the ledger's readers show it. */
export interface CreditLine {
  id: string;
  kind: CreditLineKind;
  paidCredits: bigint;
  freeCredits: bigint;
  key: string;
  purchaseId: string | null;
  caseId: string | null;
  referredCompany: string | null;
  note: string | null;
  by: string;
  createdAt: Date;
}

/** The company's newest lines first, `limit` of them, before line `before` when given. */
export async function creditLines(
  db: Kysely<Database>,
  company: string,
  options: { limit?: number; before?: string } = {},
): Promise<CreditLine[]> {
  let query = db
    .selectFrom('credit_lines')
    .selectAll()
    .where('company_id', '=', company)
    .orderBy('id', 'desc')
    .limit(Math.min(Math.max(options.limit ?? 50, 1), 500));
  if (options.before !== undefined && /^\d+$/.test(options.before))
    query = query.where('id', '<', options.before as never);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    paidCredits: BigInt(r.paid_credits),
    freeCredits: BigInt(r.free_credits),
    key: r.idempotency_key,
    purchaseId: r.purchase_id,
    caseId: r.case_id,
    referredCompany: r.referred_company_id,
    note: r.note,
    by: r.created_by,
    createdAt: r.created_at,
  }));
}
