import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { isUuid, webhookOf, type Webhook } from './webhook-records.js';
import { newWebhookSecret } from './webhook-secret.js';

/**
 * Gives a company's webhook a new signing secret, returned here once (as when it was added), or
 * undefined when the company has no such webhook. Every try from now on is signed with the new
 * one, retries and replays of earlier deliveries too: the receiver must switch at once.
 */
export async function rotateWebhookSecret(
  db: Kysely<Database>,
  company: string,
  id: string,
): Promise<{ webhook: Webhook; secret: string } | undefined> {
  if (!isUuid(id)) return undefined;
  const secret = newWebhookSecret();
  const row = await db
    .updateTable('webhooks')
    .set({ secret, updated_at: new Date() })
    .where('company_id', '=', company)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row && { webhook: webhookOf(row), secret };
}
