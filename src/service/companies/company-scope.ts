import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { RecordNotFoundError } from './record-errors.js';

/**
 * Makes sure the company exists before a list of its records is read: an empty list would say
 * "no folders" of a company id that was mistyped. (Writes need no look: the foreign key on
 * company_id refuses an unknown company, read back by {@link companyMissing}.)
 */
export async function requireCompany(db: Kysely<Database>, company: string): Promise<void> {
  const found = await db
    .selectFrom('companies')
    .select('id')
    .where('id', '=', company)
    .executeTakeFirst();
  if (!found) throw new RecordNotFoundError('company', company);
}

/** The foreign keys from a company's records to companies, as migration 0001 named them. */
const COMPANY_FOREIGN_KEYS = new Set([
  'users_company_id_fkey',
  'folders_company_id_fkey',
  'presets_company_id_fkey',
  'message_templates_company_id_fkey',
  'api_keys_company_id_fkey',
]);

/** Whether a foreign key violation's constraint is the one to companies. */
export function companyMissing(constraint: string | undefined): boolean {
  return constraint !== undefined && COMPANY_FOREIGN_KEYS.has(constraint);
}
