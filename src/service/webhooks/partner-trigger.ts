import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { PARTNER_TRIGGER } from './webhook-triggers.js';

/**
 * Whether the company may name PARTNER_TRIGGER on its webhooks: an active partner (not disabled)
 * with `webhookEnabled` (spec 2.5, 6). Asked only when the input names it, so that other
 * webhooks cost no query. Read from the operator's table here, not through service/partners,
 * which sends through this folder.
 */
export async function partnerTriggerAllowed(
  db: Kysely<Database>,
  company: string,
  triggers: readonly string[],
): Promise<boolean> {
  if (!triggers.includes(PARTNER_TRIGGER)) return false;
  const row = await db
    .selectFrom('partners as p')
    .innerJoin('companies as c', 'c.id', 'p.company_id')
    .select('p.company_id')
    .where('p.company_id', '=', company)
    .where('p.is_partner', '=', true)
    .where('p.webhook_enabled', '=', true)
    .where('c.disabled', '=', false)
    .executeTakeFirst();
  return row !== undefined;
}
