import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { addCreditLine } from './credit-ledger.js';

/**
 * Takes what a sent case costs from the company's ledger, in the case's own transaction (`tx`),
 * so that a case is charged exactly when it is sent: created open, or a draft sent. Free credits
 * go first, then bought ones; a balance that does not cover it goes below zero, since the spec
 * defines no refusal for a company without credits (the dashboard and `docpipe credits show`
 * show the balance, and auto-refill buys more). Keyed by the case: charged once, whatever
 * retries. `credits` 0 (DOCPIPE_CREDITS_PER_CASE=0) charges nothing.
 *
 * Called last in the case's transaction: the balance row it updates is locked until the commit,
 * and the company's other cases wait for it only that long.
 */
export async function chargeCase(
  tx: Kysely<Database>,
  company: string,
  caseId: string,
  credits: bigint,
): Promise<void> {
  if (credits <= 0n) return;
  const balance = await tx
    .selectFrom('credit_balances')
    .select(sql<string>`greatest(free, 0)`.as('free'))
    .where('company_id', '=', company)
    // Two cases at once take the same free credit once.
    .forUpdate()
    .executeTakeFirst();
  const fromFree = BigInt(balance?.free ?? 0) < credits ? BigInt(balance?.free ?? 0) : credits;
  await addCreditLine(tx, {
    company,
    kind: 'case',
    freeCredits: -fromFree,
    paidCredits: -(credits - fromFree),
    key: `case:${caseId}`,
    caseId,
    by: 'case-service',
  });
}
