import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';

/** One of a login's companies, as the company chooser lists it. */
export interface Membership {
  userId: string;
  companyId: string;
  companyName: string;
  admin: boolean;
}

/** The login's memberships of companies that are not disabled, by company name. */
export async function membershipsOf(db: Kysely<Database>, loginId: string): Promise<Membership[]> {
  const rows = await db
    .selectFrom('users as u')
    .innerJoin('companies as c', 'c.id', 'u.company_id')
    .select(['u.id', 'u.company_id', 'c.name', 'u.admin'])
    .where('u.login_id', '=', loginId)
    .where('c.disabled', '=', false)
    .orderBy('c.name')
    .orderBy('c.id')
    .execute();
  return rows.map((r) => ({
    userId: r.id,
    companyId: r.company_id,
    companyName: r.name,
    admin: r.admin,
  }));
}
