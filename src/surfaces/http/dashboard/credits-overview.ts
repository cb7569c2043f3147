import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../service/db/index.js';
import {
  autoRefillOf,
  creditBalance,
  creditLines,
  listPurchases,
  type AutoRefill,
  type CreditBalance,
  type CreditLine,
  type CreditPurchase,
} from '../../../service/credits/index.js';

/** How many ledger lines and purchases the page lists: the newest, as a statement's first page. */
export const SHOWN_LINES = 50;
export const SHOWN_PURCHASES = 50;

/** A ledger line with what it is about, as the page names it. */
export interface ShownLine extends CreditLine {
  /** A case line's case, while the company still has it. */
  caseTitle?: string;
  /** A referral line's signed-up company. */
  referredName?: string;
  /** A purchase line's invoice. */
  invoiceNumber?: string;
}

/** What the credits page shows of one company, all of it that company's own. */
export interface CreditsOverview {
  balance: CreditBalance;
  lines: ShownLine[];
  purchases: CreditPurchase[];
  refill: AutoRefill | undefined;
  referral: { ref: string; companies: number; credits: bigint };
}

/**
 * Reads the page's facts through service/credits (the same reads as `docpipe credits show`),
 * plus the names its lines point at. Every query is bound to `company`, so a line can never
 * name another company's case or invoice. Of the partner configuration only the referral code
 * is read, as the link carries it (spec 4.6): never whether the company is a partner, nor its
 * rates, which the dashboard must not show.
 */
export async function creditsOverview(
  db: Kysely<Database>,
  company: string,
): Promise<CreditsOverview> {
  const [balance, lines, purchases, refill, code, referred, earned] = await Promise.all([
    creditBalance(db, company),
    creditLines(db, company, { limit: SHOWN_LINES }),
    listPurchases(db, company, SHOWN_PURCHASES),
    autoRefillOf(db, company),
    db.selectFrom('partners').select('code').where('company_id', '=', company).executeTakeFirst(),
    db
      .selectFrom('companies')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('referred_by', '=', company)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('credit_lines')
      .select(sql<string>`coalesce(sum(free_credits), 0)`.as('credits'))
      .where('company_id', '=', company)
      .where('kind', '=', 'referral')
      .executeTakeFirstOrThrow(),
  ]);
  return {
    balance,
    lines: await namedLines(db, company, lines),
    purchases,
    refill,
    referral: {
      ref: code?.code ?? company,
      companies: Number(referred.n),
      credits: BigInt(earned.credits),
    },
  };
}

async function namedLines(
  db: Kysely<Database>,
  company: string,
  lines: readonly CreditLine[],
): Promise<ShownLine[]> {
  const ids = (pick: (l: CreditLine) => string | null) => [
    ...new Set(lines.flatMap((l) => (pick(l) === null ? [] : [pick(l)!]))),
  ];
  const caseIds = ids((l) => l.caseId);
  const companyIds = ids((l) => l.referredCompany);
  const purchaseIds = ids((l) => l.purchaseId);
  const [cases, companies, invoices] = await Promise.all([
    caseIds.length === 0
      ? []
      : db
          .selectFrom('cases')
          .select(['id', 'title'])
          .where('company_id', '=', company)
          .where('id', 'in', caseIds)
          .execute(),
    companyIds.length === 0
      ? []
      : db
          .selectFrom('companies')
          .select(['id', 'name'])
          // Only the companies that signed up through this company's link.
          .where('referred_by', '=', company)
          .where('id', 'in', companyIds)
          .execute(),
    purchaseIds.length === 0
      ? []
      : db
          .selectFrom('credit_purchases')
          .select(['id', 'invoice_number'])
          .where('company_id', '=', company)
          .where('id', 'in', purchaseIds)
          .execute(),
  ]);
  const titles = new Map(cases.map((c) => [c.id, c.title]));
  const names = new Map(companies.map((c) => [c.id, c.name]));
  const numbers = new Map(invoices.map((p) => [p.id, p.invoice_number]));
  return lines.map((l) => {
    const caseTitle = l.caseId === null ? undefined : titles.get(l.caseId);
    const referredName = l.referredCompany === null ? undefined : names.get(l.referredCompany);
    const invoiceNumber = l.purchaseId === null ? undefined : numbers.get(l.purchaseId);
    return {
      ...l,
      ...(caseTitle === undefined ? {} : { caseTitle }),
      ...(referredName === undefined ? {} : { referredName }),
      ...(invoiceNumber === undefined ? {} : { invoiceNumber }),
    };
  });
}
