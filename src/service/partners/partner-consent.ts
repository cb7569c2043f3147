import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';

/** A customer's consent to its key going to its partner, as the sign-up page showed it. */
export interface PartnerConsent {
  company: string;
  partner: string;
  userId: string;
  email: string;
  /** The consent's words exactly as the page showed them, in its language. */
  text: string;
  language: string;
  ip?: string;
  userAgent?: string;
}

/** Records the consent with the customer's company, in the sign-up's transaction. */
export async function recordConsent(tx: Kysely<Database>, c: PartnerConsent): Promise<void> {
  await tx
    .insertInto('partner_consents')
    .values({
      company_id: c.company,
      partner_company_id: c.partner,
      user_id: c.userId,
      email: c.email,
      text: c.text,
      language: c.language,
      ip: c.ip ?? null,
      user_agent: c.userAgent?.slice(0, 500) ?? null,
    })
    .execute();
}

/** The company's consent, as recorded; undefined when it gave none. */
export async function consentOf(
  db: Kysely<Database>,
  company: string,
): Promise<(PartnerConsent & { at: Date }) | undefined> {
  const row = await db
    .selectFrom('partner_consents')
    .selectAll()
    .where('company_id', '=', company)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    company: row.company_id,
    partner: row.partner_company_id,
    userId: row.user_id ?? '',
    email: row.email,
    text: row.text,
    language: row.language,
    ...(row.ip !== null ? { ip: row.ip } : {}),
    ...(row.user_agent !== null ? { userAgent: row.user_agent } : {}),
    at: row.created_at,
  };
}
