import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { partnerTriggerAllowed } from './partner-trigger.js';
import { checkWebhook, type NewWebhook } from './webhook-input.js';
import { isUuid, webhookOf, type Webhook } from './webhook-records.js';

/**
 * Changes a company's webhook to what `input` describes, checked by the same rules as adding one
 * (checkWebhook: DocpipeError `validation-failed` with every problem); its secret and its runs
 * stay. Undefined when the company has no such webhook. Deliveries made before keep their body;
 * their next try goes to the new URL with the new headers.
 */
export async function updateWebhook(
  db: Kysely<Database>,
  company: string,
  id: string,
  input: NewWebhook,
): Promise<Webhook | undefined> {
  const checked = checkWebhook(input, {
    partnerTrigger: await partnerTriggerAllowed(db, company, input.triggers),
  });
  if (!isUuid(id)) return undefined;
  const row = await db
    .updateTable('webhooks')
    .set({
      url: checked.url,
      method: checked.method,
      active: checked.active,
      headers: JSON.stringify(checked.headers),
      triggers: JSON.stringify(checked.triggers),
      updated_at: new Date(),
    })
    .where('company_id', '=', company)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row && webhookOf(row);
}
