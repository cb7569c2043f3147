import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { attemptDelivery, type AttemptOutcome } from './attempt-delivery.js';
import type { WebhookDeps } from './webhook-deps.js';
import { ReplayRefusedError, WebhookNotFoundError } from './webhook-errors.js';
import { isUuid } from './webhook-records.js';

export interface ReplayOptions {
  /** Send a delivery that succeeded once more. @defaultValue false */
  force?: boolean;
  /** Only this company's delivery (the others are absent). */
  company?: string;
}

/**
 * Puts a failed delivery (or, with `force`, one that succeeded) back to pending and gives the
 * try it is to be: WebhookNotFoundError when there is none, ReplayRefusedError for one that
 * succeeded (without force) or is pending (it is retried by itself). Then the try is made at
 * once (replayDelivery) or queued (WebhookQueue.addReplay).
 */
export async function prepareReplay(
  db: Kysely<Database>,
  deliveryId: string,
  options: ReplayOptions = {},
): Promise<{ attempt: number }> {
  if (!isUuid(deliveryId)) throw new WebhookNotFoundError('delivery', deliveryId, options.company);
  let query = db
    .selectFrom('webhook_deliveries')
    .select(['status', 'attempts'])
    .where('id', '=', deliveryId);
  if (options.company !== undefined) query = query.where('company_id', '=', options.company);
  const found = await query.executeTakeFirst();
  if (!found) throw new WebhookNotFoundError('delivery', deliveryId, options.company);
  if (found.status === 'pending' || (found.status === 'succeeded' && !options.force))
    throw new ReplayRefusedError(deliveryId, found.status);
  const reset = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: new Date(), updated_at: new Date() })
    .where('id', '=', deliveryId)
    .where('status', '=', found.status)
    .where('attempts', '=', found.attempts)
    .returning('id')
    .executeTakeFirst();
  // Another replay got there first: this one's try would be a second send.
  if (!reset) throw new ReplayRefusedError(deliveryId, 'pending');
  return { attempt: found.attempts + 1 };
}

/**
 * `docpipe webhooks replay`: the delivery tried once more, now, with its same body and a new
 * timestamp and signature. One try: a failure leaves it failed, for the operator to read.
 */
export async function replayDelivery(
  deps: WebhookDeps,
  deliveryId: string,
  options: ReplayOptions = {},
): Promise<AttemptOutcome> {
  const { attempt } = await prepareReplay(deps.db, deliveryId, options);
  return attemptDelivery(deps, deliveryId, { attempt, retry: false });
}
