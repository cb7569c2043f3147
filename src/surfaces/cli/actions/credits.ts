import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { creditsConfigFrom } from '../../../app/config/index.js';
import { applyRate, formatFraction, formatKroner } from '../../../base/util/index.js';
import { CompanyRepository } from '../../../service/companies/index.js';
import {
  CardPaymentsUnavailableError,
  CardRefusedError,
  PurchaseInvalidError,
  addCreditLine,
  autoRefillOf,
  autoRefillProblems,
  creditBalance,
  creditLines,
  ledgerSums,
  listPurchases,
  markPurchasePaid,
  recordPurchase,
  setAutoRefill,
  type AutoRefill,
  type CreditBalance,
  type CreditPurchase,
  type EanDetails,
} from '../../../service/credits/index.js';
import type { Database, PaymentMethod } from '../../../service/db/index.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { printJson } from '../print-json.js';
import { refuseFlags, type FlagProblem } from './flag-problems.js';
import { withRecordsDatabase } from './records-database.js';
import { textTable, when } from './text-table.js';

interface EanFlags {
  gln?: string;
  orderNumber?: string;
  contact?: string;
}

/** The flags of `docpipe credits purchase`. */
export interface PurchaseFlags extends EanFlags {
  credits: string;
  method: string;
  reference?: string;
  key?: string;
  json?: boolean;
}

/** The flags of `docpipe credits refill`. */
export interface RefillFlags extends EanFlags {
  below?: string;
  credits?: string;
  method?: string;
  off?: boolean;
  json?: boolean;
}

/** The flags of `docpipe credits correct`. */
export interface CorrectFlags {
  credits: string;
  free?: boolean;
  note: string;
  key: string;
  json?: boolean;
}

/** The service's field names as a person typed them. */
const FIELDS: Record<string, string> = {
  credits: '--credits',
  below: '--below',
  'ean.gln': '--gln',
  ean: '--gln',
  reference: '--reference',
  key: '--key',
  method: '--method',
};

const METHODS: readonly PaymentMethod[] = ['card', 'invoice', 'ean'];

function count(text: string | undefined, flag: string, problems: FlagProblem[], signed = false) {
  if (text === undefined) return undefined;
  if (!(signed ? /^[+-]?\d{1,7}$/ : /^\d{1,7}$/).test(text.trim())) {
    problems.push({
      field: flag,
      message: `must be a whole number${signed ? ', with a minus to take' : ''} (got ${JSON.stringify(text)})`,
    });
    return undefined;
  }
  return BigInt(text.trim());
}

function method(text: string | undefined, problems: FlagProblem[]): PaymentMethod | undefined {
  if (text === undefined) return undefined;
  if ((METHODS as readonly string[]).includes(text)) return text as PaymentMethod;
  problems.push({
    field: '--method',
    message: `must be card, invoice or ean (got ${JSON.stringify(text)})`,
  });
  return undefined;
}

function eanOf(flags: EanFlags, m: PaymentMethod | undefined, problems: FlagProblem[]) {
  if (m !== 'ean') {
    for (const [flag, value] of [
      ['--gln', flags.gln],
      ['--order-number', flags.orderNumber],
      ['--contact', flags.contact],
    ] as const)
      if (value !== undefined)
        problems.push({ field: flag, message: 'goes only with --method ean' });
    return undefined;
  }
  const ean: EanDetails = {
    gln: flags.gln ?? '',
    ...(flags.orderNumber !== undefined ? { orderNumber: flags.orderNumber } : {}),
    ...(flags.contact !== undefined ? { contact: flags.contact } : {}),
  };
  return ean;
}

/** What credits cost here, from the environment, as `docpipe start` reads it. */
function pricing() {
  const problems: string[] = [];
  const credits = creditsConfigFrom(process.env, problems);
  if (problems.length > 0) throw new UsageError(problems.join('; '));
  return { unitPriceOre: credits.unitPriceOre, vatPpm: credits.vatPpm };
}

function balanceView(b: CreditBalance) {
  return { paid: b.paid.toString(), free: b.free.toString(), total: b.total.toString() };
}

/** A purchase as --json prints it: counts as strings of digits, amounts in kroner. */
export function purchaseView(p: CreditPurchase) {
  return {
    id: p.id,
    company: p.company,
    invoiceNumber: p.invoiceNumber,
    credits: p.credits.toString(),
    method: p.method,
    status: p.status,
    autoRefill: p.autoRefill,
    unitPrice: formatKroner(p.unitPriceOre),
    discount: formatFraction(p.discountPpm),
    vat: formatFraction(p.vatPpm),
    kickback: formatFraction(p.kickbackPpm),
    referrer: p.referrer,
    referrerPartner: p.referrerPartner,
    gross: formatKroner(p.grossOre),
    discountAmount: formatKroner(p.discountOre),
    net: formatKroner(p.netOre),
    vatAmount: formatKroner(p.vatOre),
    total: formatKroner(p.totalOre),
    reference: p.reference,
    ean: p.ean,
    paidAt: p.paidAt,
    by: p.by,
    createdAt: p.createdAt,
  };
}

function refillView(r: AutoRefill | undefined) {
  return r === undefined
    ? null
    : {
        below: r.below.toString(),
        credits: r.credits.toString(),
        method: r.method,
        ean: r.ean ?? null,
      };
}

/** The company, or the records database's "no company" refusal. */
async function known(db: Kysely<Database>, company: string): Promise<void> {
  await new CompanyRepository(db).get(company);
}

/** `docpipe credits show <company>`, declared in commands/credits.ts. */
export async function showCredits(company: string, flags: { json?: boolean }): Promise<void> {
  await withRecordsDatabase({ json: flags.json }, async (db) => {
    await known(db, company);
    const [balance, sums, lines, purchases, refill] = await Promise.all([
      creditBalance(db, company),
      ledgerSums(db, company),
      creditLines(db, company, { limit: 20 }),
      listPurchases(db, company, 20),
      autoRefillOf(db, company),
    ]);
    // The cache is kept with each line in one transaction; only a hand-edited table differs.
    const drift = balance.paid !== sums.paid || balance.free !== sums.free;
    if (drift)
      process.stderr.write(
        `docpipe: warning: the cached balance of ${company} (${balance.paid} bought, ${balance.free} given) ` +
          `differs from its ledger's sums (${sums.paid} bought, ${sums.free} given); the ledger is right\n`,
      );
    if (flags.json) {
      printJson({
        company,
        balance: balanceView(balance),
        ledgerSums: balanceView(sums),
        lines: lines.map((l) => ({
          ...l,
          paidCredits: l.paidCredits.toString(),
          freeCredits: l.freeCredits.toString(),
        })),
        purchases: purchases.map(purchaseView),
        autoRefill: refillView(refill),
      });
      return;
    }
    process.stdout.write(
      `company ${company}: ${balance.total} credits (${balance.paid} bought, ${balance.free} given)\n` +
        `auto-refill: ${refill ? `${refill.credits} credits by ${refill.method} when below ${refill.below}` : 'off'}\n` +
        (lines.length === 0
          ? 'no ledger lines yet\n'
          : '\n' +
            textTable(
              ['TIME', 'KIND', 'BOUGHT', 'GIVEN', 'BY', 'NOTE'],
              lines.map((l) => [
                when(l.createdAt),
                l.kind,
                l.paidCredits.toString(),
                l.freeCredits.toString(),
                l.by,
                l.note ?? l.key,
              ]),
            )) +
        (purchases.length === 0
          ? 'no purchases yet\n'
          : '\n' +
            textTable(
              ['TIME', 'INVOICE', 'CREDITS', 'METHOD', 'STATUS', 'TOTAL'],
              purchases.map((p) => [
                when(p.createdAt),
                p.invoiceNumber,
                p.credits.toString(),
                p.method,
                p.status,
                `${formatKroner(p.totalOre)} kr`,
              ]),
            )),
    );
  });
}

function purchaseLine(p: CreditPurchase): string {
  const discount = p.discountOre > 0n ? `, discount ${formatKroner(p.discountOre)}` : '';
  return (
    `invoice ${p.invoiceNumber} of ${p.company}: ${p.credits} credits by ${p.method}, ` +
    `${formatKroner(p.grossOre)} kr${discount}, VAT ${formatKroner(p.vatOre)}, total ${formatKroner(p.totalOre)} kr, ${p.status}`
  );
}

/** `docpipe credits purchase <company>`. */
export async function purchaseCredits(company: string, flags: PurchaseFlags): Promise<void> {
  const problems: FlagProblem[] = [];
  const credits = count(flags.credits, '--credits', problems);
  const m = method(flags.method, problems);
  const ean = eanOf(flags, m, problems);
  if (problems.length > 0) return refuseFlags('purchase', problems, flags.json);
  const prices = pricing();
  await withRecordsDatabase({ json: flags.json }, async (db) => {
    await known(db, company);
    try {
      const { purchase, again } = await recordPurchase(
        { db, pricing: prices },
        {
          company,
          credits: credits!,
          method: m!,
          ...(ean ? { ean } : {}),
          ...(flags.reference !== undefined ? { reference: flags.reference } : {}),
          key: flags.key ?? randomUUID(),
          by: 'operator',
        },
      );
      if (flags.json) printJson({ purchase: purchaseView(purchase), again });
      else
        process.stdout.write(
          `${again ? 'recorded before, with this key: ' : 'recorded '}${purchaseLine(purchase)}\n` +
            (purchase.status === 'open'
              ? `mark it paid when the money is in: docpipe credits paid ${purchase.invoiceNumber}\n`
              : ''),
        );
    } catch (err) {
      if (err instanceof PurchaseInvalidError)
        return refuseFlags(
          'purchase',
          err.problems.map((p) => ({ field: FIELDS[p.path] ?? p.path, message: p.message })),
          flags.json,
        );
      if (err instanceof CardPaymentsUnavailableError || err instanceof CardRefusedError) {
        const slug =
          err instanceof CardPaymentsUnavailableError
            ? 'card-payments-unavailable'
            : 'card-refused';
        if (flags.json) printJson({ error: slug, message: err.message });
        process.stderr.write(`docpipe: ${err.message}\n`);
        process.exitCode = EXIT.failed;
        return;
      }
      throw err;
    }
  });
}

/** `docpipe credits paid <invoice>`. */
export async function markPaid(invoice: string, flags: { json?: boolean }): Promise<void> {
  await withRecordsDatabase({ json: flags.json }, async (db) => {
    const out = await markPurchasePaid(db, invoice.trim());
    if (!out) {
      const message = `no purchase has invoice number ${invoice} ("docpipe credits show <company>" lists a company's)`;
      if (flags.json) printJson({ error: 'purchase-not-found', message });
      process.stderr.write(`docpipe: ${message}\n`);
      process.exitCode = EXIT.failed;
      return;
    }
    const { purchase, again } = out;
    if (flags.json) {
      printJson({ purchase: purchaseView(purchase), again });
      return;
    }
    const kickback =
      purchase.referrerPartner && purchase.referrer !== null
        ? `; ${purchase.referrer} is owed a kickback of ${formatKroner(applyRate(purchase.netOre, purchase.kickbackPpm))} kr for it`
        : '';
    process.stdout.write(
      again
        ? `invoice ${purchase.invoiceNumber} was paid already (${when(purchase.paidAt!)}); nothing changed\n`
        : `invoice ${purchase.invoiceNumber} of ${purchase.company} is paid (${formatKroner(purchase.totalOre)} kr)${kickback}\n`,
    );
  });
}

/** `docpipe credits refill <company>`. */
export async function setRefill(company: string, flags: RefillFlags): Promise<void> {
  const problems: FlagProblem[] = [];
  let refill: AutoRefill | undefined;
  if (flags.off) {
    for (const [flag, value] of [
      ['--below', flags.below],
      ['--credits', flags.credits],
      ['--method', flags.method],
      ['--gln', flags.gln],
    ] as const)
      if (value !== undefined) problems.push({ field: flag, message: 'goes not with --off' });
  } else {
    const below = count(flags.below, '--below', problems);
    const credits = count(flags.credits, '--credits', problems);
    const m = method(flags.method, problems);
    for (const [flag, value] of [
      ['--below', flags.below],
      ['--credits', flags.credits],
      ['--method', flags.method],
    ] as const)
      if (value === undefined)
        problems.push({ field: flag, message: 'is needed (or --off to turn auto-refill off)' });
    const ean = eanOf(flags, m, problems);
    if (problems.length === 0) {
      refill = { below: below!, credits: credits!, method: m!, ...(ean ? { ean } : {}) };
      problems.push(
        ...autoRefillProblems(refill).map((p) => ({
          field: FIELDS[p.path] ?? p.path,
          message: p.message,
        })),
      );
    }
  }
  if (problems.length > 0) return refuseFlags('auto-refill', problems, flags.json);
  await withRecordsDatabase({ json: flags.json }, async (db) => {
    await known(db, company);
    await setAutoRefill(db, company, refill);
    if (flags.json) printJson(refillView(refill));
    else
      process.stdout.write(
        refill
          ? `auto-refill of ${company}: ${refill.credits} credits by ${refill.method} whenever the balance falls below ${refill.below}\n` +
              (refill.method === 'card'
                ? 'note: a card refill needs a payment provider; without one it buys nothing\n'
                : '')
          : `auto-refill of ${company} is off\n`,
      );
  });
}

/** `docpipe credits correct <company>`. */
export async function correctCredits(company: string, flags: CorrectFlags): Promise<void> {
  const problems: FlagProblem[] = [];
  const credits = count(flags.credits, '--credits', problems, true);
  if (credits === 0n) problems.push({ field: '--credits', message: 'must not be 0' });
  if (flags.note.trim() === '') problems.push({ field: '--note', message: 'must say why' });
  if (flags.key.length === 0 || flags.key.length > 200)
    problems.push({ field: '--key', message: 'must be 1 to 200 characters' });
  if (problems.length > 0) return refuseFlags('correction', problems, flags.json);
  await withRecordsDatabase({ json: flags.json }, async (db) => {
    await known(db, company);
    const added = await db.transaction().execute((tx) =>
      addCreditLine(tx, {
        company,
        kind: 'correction',
        ...(flags.free ? { freeCredits: credits! } : { paidCredits: credits! }),
        // Its own prefix: an operator's key can never be taken for a purchase's or a case's.
        key: `correction:${flags.key}`,
        note: flags.note.trim(),
        by: 'operator',
      }),
    );
    const balance = await creditBalance(db, company);
    if (flags.json) printJson({ added, balance: balanceView(balance) });
    else
      process.stdout.write(
        (added
          ? `added a correction of ${credits! > 0n ? '+' : ''}${credits} ${flags.free ? 'given' : 'bought'} credits to ${company}`
          : `the correction with key ${flags.key} was added before; nothing new`) +
          `; balance ${balance.total} (${balance.paid} bought, ${balance.free} given)\n`,
      );
  });
}
