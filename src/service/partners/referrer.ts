import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';

/** The company a referral link's `ref` names, as sign-up and the public lookup read it. */
export interface Referrer {
  companyId: string;
  name: string;
  hasLogo: boolean;
  /** A partner now (spec 2.5's isPartner) and not disabled: discounts, kickbacks, the webhook. */
  activePartner: boolean;
  /** Whether `partner.customer.registered` can be received (only while an active partner). */
  webhookEnabled: boolean;
}

/** Longest `ref` looked up: a company id or a code is far shorter. */
export const MAX_REF_CHARS = 200;

/**
 * The company `ref` names: its partner code (without regard to case) or its id (spec 4.5, 4.6);
 * undefined when it names none. One query whichever it is, found or not, so that the answer's
 * time tells nothing about which companies exist. A code is never another company's id
 * (PartnerRepository.set refuses it), so at most one company matches.
 */
export async function findReferrer(
  db: Kysely<Database>,
  ref: string,
): Promise<Referrer | undefined> {
  const given = ref.trim();
  if (given === '' || given.length > MAX_REF_CHARS) return undefined;
  const row = await db
    .selectFrom('companies as c')
    .leftJoin('partners as p', 'p.company_id', 'c.id')
    .select(['c.id', 'c.name', 'c.disabled', 'c.logo_type', 'p.is_partner', 'p.webhook_enabled'])
    .where((eb) =>
      eb.or([eb('c.id', '=', given), eb(eb.fn('lower', ['p.code']), '=', given.toLowerCase())]),
    )
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  const activePartner = row.is_partner === true && !row.disabled;
  return {
    companyId: row.id,
    name: row.name,
    hasLogo: row.logo_type !== null,
    activePartner,
    webhookEnabled: activePartner && row.webhook_enabled === true,
  };
}

/** An active partner's logo (the company's settings logo); undefined for anything else. */
export async function partnerLogo(
  db: Kysely<Database>,
  ref: string,
): Promise<{ bytes: Buffer; type: 'image/png' | 'image/jpeg' } | undefined> {
  const referrer = await findReferrer(db, ref);
  if (!referrer?.activePartner || !referrer.hasLogo) return undefined;
  const row = await db
    .selectFrom('companies')
    .select(['logo', 'logo_type'])
    .where('id', '=', referrer.companyId)
    .executeTakeFirst();
  return row?.logo && row.logo_type ? { bytes: row.logo, type: row.logo_type } : undefined;
}
