import { sql, type Kysely } from 'kysely';
import {
  RecordExistsError,
  RecordNotFoundError,
  refuseProblems,
  type RecordProblem,
} from '../companies/index.js';
import type { Database } from '../db/index.js';

/** A company's partner configuration (spec 2.5), as the operator sets and reads it. */
export interface PartnerConfig {
  company: string;
  isPartner: boolean;
  /** The referral code; without one the link names the company id. */
  code: string | null;
  /** Fractions in parts per million (0.15 is 150000). */
  kickbackPpm: number;
  discountPpm: number;
  webhookEnabled: boolean;
  /** When the operator last changed it; null: never configured (everything off). */
  updatedAt: Date | null;
}

/** What `docpipe partners set` changes; a member left out stays as it is. */
export interface PartnerChanges {
  isPartner?: boolean;
  /** null removes the code. */
  code?: string | null;
  kickbackPpm?: number;
  discountPpm?: number;
  webhookEnabled?: boolean;
}

/** A code as the link carries it: letters, digits, `-` and `_`, 2 to 40, a letter or digit first. */
export const PARTNER_CODE = /^[A-Za-z0-9][A-Za-z0-9_-]{1,39}$/;

const OFF = { isPartner: false, code: null, kickbackPpm: 0, discountPpm: 0, webhookEnabled: false };

function configOf(
  company: string,
  row:
    | {
        is_partner: boolean;
        code: string | null;
        kickback_ppm: number;
        discount_ppm: number;
        webhook_enabled: boolean;
        updated_at: Date;
      }
    | undefined,
): PartnerConfig {
  if (!row) return { company, ...OFF, updatedAt: null };
  return {
    company,
    isPartner: row.is_partner,
    code: row.code,
    kickbackPpm: row.kickback_ppm,
    discountPpm: row.discount_ppm,
    webhookEnabled: row.webhook_enabled,
    updatedAt: row.updated_at,
  };
}

/**
 * The operator's partner configurations (table `partners`, migration 0017). Only the operator's
 * CLI and pages use this: partner status is read by no route of a company's API or dashboard
 * (spec 4.6), and the public lookup answers only what spec 4.5 lists.
 */
export class PartnerRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The company's configuration; a company never configured is no partner, everything off. */
  async get(company: string): Promise<PartnerConfig> {
    const exists = await this.db
      .selectFrom('companies')
      .leftJoin('partners', 'partners.company_id', 'companies.id')
      .select([
        'companies.id',
        'partners.is_partner',
        'partners.code',
        'partners.kickback_ppm',
        'partners.discount_ppm',
        'partners.webhook_enabled',
        'partners.updated_at',
      ])
      .where('companies.id', '=', company)
      .executeTakeFirst();
    if (!exists) throw new RecordNotFoundError('company', company);
    return configOf(
      company,
      exists.is_partner === null
        ? undefined
        : {
            is_partner: exists.is_partner,
            code: exists.code,
            kickback_ppm: exists.kickback_ppm!,
            discount_ppm: exists.discount_ppm!,
            webhook_enabled: exists.webhook_enabled!,
            updated_at: exists.updated_at!,
          },
    );
  }

  /** Every configured company, partners first, then by id. */
  async list(): Promise<PartnerConfig[]> {
    const rows = await this.db
      .selectFrom('partners')
      .selectAll()
      .orderBy('is_partner', 'desc')
      .orderBy('company_id')
      .execute();
    return rows.map((r) => configOf(r.company_id, r));
  }

  /**
   * Changes the company's configuration, every problem at once: a code of the wrong shape, one
   * another company has (without regard to case), or one that is another company's id (a link's
   * `ref` is either, and must name one company); a rate outside 0 to 1.
   */
  async set(company: string, changes: PartnerChanges): Promise<PartnerConfig> {
    const problems: RecordProblem[] = [];
    if (changes.code !== undefined && changes.code !== null && !PARTNER_CODE.test(changes.code))
      problems.push({
        path: 'code',
        message:
          'must be 2 to 40 letters, digits, "-" or "_", beginning with a letter or a digit (it goes in a link)',
      });
    for (const [path, ppm] of [
      ['kickbackPercent', changes.kickbackPpm],
      ['discountPercent', changes.discountPpm],
    ] as const)
      if (ppm !== undefined && !(Number.isInteger(ppm) && ppm >= 0 && ppm <= 1_000_000))
        problems.push({ path, message: 'must be a fraction from 0 to 1, such as 0.15 for 15 %' });
    refuseProblems('partner', problems);
    const code = changes.code;
    if (typeof code === 'string') {
      const clash = await this.db
        .selectFrom('companies')
        .select('id')
        .where('id', '<>', company)
        .where((eb) => eb(eb.fn('lower', ['id']), '=', code.toLowerCase()))
        .executeTakeFirst();
      if (clash)
        refuseProblems('partner', [
          { path: 'code', message: `is the id of company ${clash.id}: a link would name both` },
        ]);
    }
    try {
      return await this.db.transaction().execute(async (tx) => {
        const known = await tx
          .selectFrom('companies')
          .select('id')
          .where('id', '=', company)
          .forShare()
          .executeTakeFirst();
        if (!known) throw new RecordNotFoundError('company', company);
        const set = {
          ...(changes.isPartner !== undefined ? { is_partner: changes.isPartner } : {}),
          ...(changes.code !== undefined ? { code: changes.code } : {}),
          ...(changes.kickbackPpm !== undefined ? { kickback_ppm: changes.kickbackPpm } : {}),
          ...(changes.discountPpm !== undefined ? { discount_ppm: changes.discountPpm } : {}),
          ...(changes.webhookEnabled !== undefined
            ? { webhook_enabled: changes.webhookEnabled }
            : {}),
        };
        const row = await tx
          .insertInto('partners')
          .values({ company_id: company, ...set })
          .onConflict((oc) =>
            oc.column('company_id').doUpdateSet({ ...set, updated_at: sql`now()` }),
          )
          .returningAll()
          .executeTakeFirstOrThrow();
        return configOf(company, row);
      });
    } catch (err) {
      const e = err as { code?: unknown; constraint?: unknown };
      if (e.code === '23505' && e.constraint === 'partners_code')
        throw new RecordExistsError('partner', `code ${String(code)}`);
      throw err;
    }
  }
}
