import { sql, type Kysely } from 'kysely';
import { rowBatches, type Database } from '../db/index.js';
import type { ServiceNotice } from './case-answer.js';

/**
 * Saves a case's recipients to the company's contacts, one per e-mail address (compared without
 * case): a new address is added, a known one gets the name (and phone, when given) it was sent
 * to last. Run after the case is written and apart from it: a contact that cannot be saved is
 * the notice `contact-not-saved` (spec 7.3), never a failed case.
 */
export async function saveContacts(
  db: Kysely<Database>,
  company: string,
  recipients: readonly { name: string; email: string | null; phone: string | null }[],
  now: Date,
): Promise<ServiceNotice[]> {
  // The last of each address wins within one case, as a later case's would.
  const byEmail = new Map<string, { name: string; email: string; phone: string | null }>();
  for (const r of recipients)
    if (r.email)
      byEmail.set(r.email.toLowerCase(), { name: r.name, email: r.email, phone: r.phone });
  if (byEmail.size === 0) return [];
  const rows = [...byEmail.values()].map((c) => ({
    company_id: company,
    name: c.name,
    email: c.email,
    phone: c.phone,
    created_at: now,
    updated_at: now,
  }));
  try {
    for (const batch of rowBatches(rows))
      await db
        .insertInto('contacts')
        .values(batch)
        .onConflict((oc) =>
          oc.expression(sql`company_id, lower(email)`).doUpdateSet({
            name: sql`excluded.name`,
            phone: sql`coalesce(excluded.phone, contacts.phone)`,
            updated_at: now,
          }),
        )
        .execute();
    return [];
  } catch (err) {
    return [
      {
        code: 'contact-not-saved',
        message: `the recipients were not saved to the company's contacts (${(err as Error).message}); the case was created and is sent`,
      },
    ];
  }
}
