import { sql, type Kysely, type Selectable } from 'kysely';
import { recordKickback } from '../partners/index.js';
import type { CreditPurchasesTable, Database, PaymentMethod } from '../db/index.js';
import { addCreditLine } from './credit-ledger.js';
import { glnProblem, normalizeGln } from './gln.js';
import { applyRate } from '../../base/util/index.js';
import {
  CardPaymentsUnavailableError,
  CardRefusedError,
  type CardPayments,
} from './payment-provider.js';
import { purchaseAmounts } from './purchase-amounts.js';

/** What credits cost on this installation (DOCPIPE_CREDIT_PRICE, DOCPIPE_VAT_RATE). */
export interface CreditPricing {
  /** One credit's list price, excluding VAT, in øre. */
  unitPriceOre: bigint;
  /** VAT in parts per million (250000: 25 %). */
  vatPpm: number;
}

/** An EAN invoice's addressee: the public body's location number and its references. */
export interface EanDetails {
  gln: string;
  orderNumber?: string;
  contact?: string;
}

export interface PurchaseRequest {
  company: string;
  credits: bigint;
  method: PaymentMethod;
  /** Required for `ean`. */
  ean?: EanDetails;
  /** The buyer's own reference (a purchase order), printed on the invoice. */
  reference?: string;
  /**
   * The purchase's key in the company: the same key records one purchase, answered again
   * (a retry, a double click, two servers at once). Made up when not given.
   */
  key: string;
  autoRefill?: boolean;
  /** `member:<user id>`, `operator`, `auto-refill`. */
  by: string;
}

export interface PurchaseDeps {
  db: Kysely<Database>;
  pricing: CreditPricing;
  /** Card payments; without one a card purchase is refused. */
  cards?: CardPayments;
  now?: () => Date;
}

/** A recorded purchase with its amounts in øre. */
export interface CreditPurchase {
  id: string;
  company: string;
  invoiceNumber: string;
  credits: bigint;
  method: PaymentMethod;
  autoRefill: boolean;
  unitPriceOre: bigint;
  discountPpm: number;
  vatPpm: number;
  kickbackPpm: number;
  referrer: string | null;
  referrerPartner: boolean;
  grossOre: bigint;
  discountOre: bigint;
  netOre: bigint;
  vatOre: bigint;
  totalOre: bigint;
  reference: string | null;
  ean: EanDetails | null;
  status: 'open' | 'paid';
  paidAt: Date | null;
  by: string;
  createdAt: Date;
}

export function purchaseOf(row: Selectable<CreditPurchasesTable>): CreditPurchase {
  return {
    id: row.id,
    company: row.company_id,
    invoiceNumber: row.invoice_number,
    credits: BigInt(row.credits),
    method: row.method,
    autoRefill: row.auto_refill,
    unitPriceOre: BigInt(row.unit_price_ore),
    discountPpm: row.discount_ppm,
    vatPpm: row.vat_ppm,
    kickbackPpm: row.kickback_ppm,
    referrer: row.referrer_company_id,
    referrerPartner: row.referrer_partner,
    grossOre: BigInt(row.gross_ore),
    discountOre: BigInt(row.discount_ore),
    netOre: BigInt(row.net_ore),
    vatOre: BigInt(row.vat_ore),
    totalOre: BigInt(row.total_ore),
    reference: row.reference,
    ean:
      row.ean_gln === null
        ? null
        : {
            gln: row.ean_gln,
            ...(row.ean_order_number !== null ? { orderNumber: row.ean_order_number } : {}),
            ...(row.ean_contact !== null ? { contact: row.ean_contact } : {}),
          },
    status: row.status,
    paidAt: row.paid_at,
    by: row.created_by,
    createdAt: row.created_at,
  };
}

/** A purchase's input refused, every problem at once by its field. */
export class PurchaseInvalidError extends Error {
  override readonly name = 'PurchaseInvalidError';

  constructor(readonly problems: readonly { path: string; message: string }[]) {
    super(`purchase refused: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
  }
}

/** Most credits in one purchase: a mistyped count must not make an invoice of millions. */
export const MAX_PURCHASE_CREDITS = 1_000_000n;

/** Every problem of a purchase's input. */
export function purchaseProblems(request: PurchaseRequest): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (request.credits <= 0n || request.credits > MAX_PURCHASE_CREDITS)
    problems.push({
      path: 'credits',
      message: `must be a whole number from 1 to ${MAX_PURCHASE_CREDITS}`,
    });
  if (request.method === 'ean') {
    const gln = request.ean?.gln ?? '';
    const problem = glnProblem(gln);
    if (problem)
      problems.push({
        path: 'ean.gln',
        message:
          problem === 'format'
            ? 'must be the 13 digits of the EAN location number (GLN)'
            : 'is not an EAN location number: its check digit does not match',
      });
  } else if (request.ean !== undefined)
    problems.push({ path: 'ean', message: 'goes only with the method ean' });
  if (request.reference !== undefined && request.reference.length > 200)
    problems.push({ path: 'reference', message: 'must be at most 200 characters' });
  if (request.key.length === 0 || request.key.length > 255)
    problems.push({ path: 'key', message: 'must be 1 to 255 characters' });
  return problems;
}

/** Invoice numbers: `DP-` and the next of one unbroken series. */
function invoiceNumberOf(n: string): string {
  return `DP-${n.padStart(7, '0')}`;
}

/**
 * Records a purchase of credits (spec 4.6: manual or auto-refill, by card, invoice or EAN) and
 * adds them to the company's ledger, in one transaction. Its price is the list price less the
 * referrer's discount while the referrer is an active partner, read now and copied onto the
 * purchase with VAT and the referrer's kickback rate, so that no later change of a rate changes
 * it (spec 2.5). A card is charged first (nothing is recorded when it is refused) and the
 * purchase is paid at once, with its kickback; an invoice or EAN purchase is open until the
 * operator marks it paid (markPurchasePaid). The same key answers the purchase already recorded.
 */
export async function recordPurchase(
  deps: PurchaseDeps,
  request: PurchaseRequest,
): Promise<{ purchase: CreditPurchase; again: boolean }> {
  const problems = purchaseProblems(request);
  if (problems.length > 0) throw new PurchaseInvalidError(problems);
  const existing = await findByKey(deps.db, request.company, request.key);
  if (existing) return { purchase: existing, again: true };
  if (request.method === 'card' && !deps.cards) throw new CardPaymentsUnavailableError();
  const now = (deps.now ?? (() => new Date()))();
  const ean =
    request.method === 'ean' && request.ean
      ? { ...request.ean, gln: normalizeGln(request.ean.gln) }
      : undefined;
  // Read now: the rates at the time of the purchase (spec 2.5).
  const terms = await deps.db
    .selectFrom('companies as c')
    .leftJoin('companies as r', 'r.id', 'c.referred_by')
    .leftJoin('partners as p', 'p.company_id', 'c.referred_by')
    .select([
      'c.id',
      'c.referred_by',
      'r.disabled',
      'p.is_partner',
      'p.discount_ppm',
      'p.kickback_ppm',
    ])
    .where('c.id', '=', request.company)
    .executeTakeFirst();
  if (!terms)
    throw new PurchaseInvalidError([{ path: 'company', message: `no company ${request.company}` }]);
  const activePartner =
    terms.referred_by !== null && terms.is_partner === true && terms.disabled === false;
  const rates = {
    unitPriceOre: deps.pricing.unitPriceOre,
    discountPpm: activePartner ? (terms.discount_ppm ?? 0) : 0,
    vatPpm: deps.pricing.vatPpm,
    kickbackPpm: activePartner ? (terms.kickback_ppm ?? 0) : 0,
  };
  const amounts = purchaseAmounts(request.credits, rates);
  if (request.method === 'card') {
    try {
      await deps.cards!.charge({
        company: request.company,
        amountOre: amounts.totalOre,
        idempotencyKey: `${request.company}:${request.key}`,
      });
    } catch (err) {
      throw new CardRefusedError(`the card payment was refused: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }
  const paid = request.method === 'card';
  const recorded = await deps.db.transaction().execute(async (tx) => {
    // Calls with one key wait for each other here; the later finds the earlier's purchase.
    await sql`select pg_advisory_xact_lock(hashtext('docpipe-purchase'), hashtext(${`${request.company}:${request.key}`}))`.execute(
      tx,
    );
    if (await findByKey(tx, request.company, request.key)) return undefined;
    const counter = await tx
      .updateTable('credit_invoice_numbers')
      .set({ last: sql`last + 1` })
      .returning('last')
      .executeTakeFirstOrThrow();
    const invoiceNumber = invoiceNumberOf(counter.last);
    const row = await tx
      .insertInto('credit_purchases')
      .values({
        company_id: request.company,
        idempotency_key: request.key,
        credits: request.credits,
        method: request.method,
        auto_refill: request.autoRefill ?? false,
        unit_price_ore: rates.unitPriceOre,
        discount_ppm: rates.discountPpm,
        vat_ppm: rates.vatPpm,
        referrer_company_id: terms.referred_by,
        referrer_partner: activePartner,
        kickback_ppm: rates.kickbackPpm,
        gross_ore: amounts.grossOre,
        discount_ore: amounts.discountOre,
        net_ore: amounts.netOre,
        vat_ore: amounts.vatOre,
        total_ore: amounts.totalOre,
        invoice_number: invoiceNumber,
        reference: request.reference ?? null,
        ean_gln: ean?.gln ?? null,
        ean_order_number: ean?.orderNumber ?? null,
        ean_contact: ean?.contact ?? null,
        status: paid ? 'paid' : 'open',
        paid_at: paid ? now : null,
        created_by: request.by,
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const purchase = purchaseOf(row);
    await addCreditLine(tx, {
      company: request.company,
      kind: 'purchase',
      paidCredits: request.credits,
      key: `purchase:${purchase.id}`,
      purchaseId: purchase.id,
      by: request.by,
    });
    if (paid) await owePartner(tx, purchase);
    return purchase;
  });
  if (recorded) return { purchase: recorded, again: false };
  const winner = await findByKey(deps.db, request.company, request.key);
  if (!winner) throw new Error(`purchase ${request.key} of ${request.company} vanished`);
  return { purchase: winner, again: true };
}

/** The kickback a paid purchase earns its referrer, when it was an active partner then. */
async function owePartner(tx: Kysely<Database>, purchase: CreditPurchase): Promise<void> {
  if (!purchase.referrerPartner || purchase.referrer === null) return;
  await recordKickback(tx, {
    partner: purchase.referrer,
    customer: purchase.company,
    purchaseId: purchase.id,
    invoiceNumber: purchase.invoiceNumber,
    baseOre: purchase.netOre,
    kickbackPpm: purchase.kickbackPpm,
    amountOre: applyRate(purchase.netOre, purchase.kickbackPpm),
  });
}

async function findByKey(
  db: Kysely<Database>,
  company: string,
  key: string,
): Promise<CreditPurchase | undefined> {
  const row = await db
    .selectFrom('credit_purchases')
    .selectAll()
    .where('company_id', '=', company)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  return row ? purchaseOf(row) : undefined;
}

/**
 * Marks an open invoice or EAN purchase paid, and records the kickback it earns, in one
 * transaction; a purchase already paid is answered as it is (`again`), and earns nothing twice.
 * Undefined when no purchase has the invoice number.
 */
export async function markPurchasePaid(
  db: Kysely<Database>,
  invoiceNumber: string,
  at: Date = new Date(),
): Promise<{ purchase: CreditPurchase; again: boolean } | undefined> {
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom('credit_purchases')
      .selectAll()
      .where('invoice_number', '=', invoiceNumber)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.status === 'paid') return { purchase: purchaseOf(row), again: true };
    const updated = await tx
      .updateTable('credit_purchases')
      .set({ status: 'paid', paid_at: at })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const purchase = purchaseOf(updated);
    await owePartner(tx, purchase);
    return { purchase, again: false };
  });
}

/** The company's purchases, newest first. */
export async function listPurchases(
  db: Kysely<Database>,
  company: string,
  limit = 50,
): Promise<CreditPurchase[]> {
  const rows = await db
    .selectFrom('credit_purchases')
    .selectAll()
    .where('company_id', '=', company)
    .orderBy('created_at', 'desc')
    .orderBy('invoice_number', 'desc')
    .limit(Math.min(Math.max(limit, 1), 500))
    .execute();
  return rows.map(purchaseOf);
}
