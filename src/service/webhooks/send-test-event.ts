import { randomUUID } from 'node:crypto';
import { makeTry, type AttemptOutcome } from './attempt-delivery.js';
import type { WebhookDeps } from './webhook-deps.js';
import { isUuid } from './webhook-records.js';

/**
 * The trigger of a test event. Not one of WEBHOOK_TRIGGERS: no webhook subscribes to it, it is
 * sent only when a person asks for it, to the one webhook they chose.
 */
export const TEST_TRIGGER = 'webhook.test';

/**
 * While the test's one try is in flight its delivery is out of the sweep's way this long past
 * the timeout (as a fan-out's first try is).
 */
const IN_FLIGHT_MARGIN_MS = 5_000;

/**
 * Sends a test event to one of a company's webhooks, now, through the path every event takes: a
 * delivery with its fixed body (`{trigger: "webhook.test", test: true, webhook: {_id,
 * updatedAt}}`), tried by attemptDelivery's makeTry with the webhook's method, headers and
 * signature, the destination checked as always, and the try recorded in its runs. One try: a
 * failure is not retried (the person reads its result, and may replay it). Undefined when the
 * company has no such webhook.
 */
export async function sendTestEvent(
  deps: WebhookDeps,
  company: string,
  webhookId: string,
): Promise<AttemptOutcome | undefined> {
  if (!isUuid(webhookId)) return undefined;
  const webhook = await deps.db
    .selectFrom('webhooks')
    .select(['id', 'url', 'method', 'headers', 'secret', 'active'])
    .where('company_id', '=', company)
    .where('id', '=', webhookId)
    .executeTakeFirst();
  if (!webhook) return undefined;
  const now = (deps.now ?? (() => new Date()))();
  const body = JSON.stringify({
    trigger: TEST_TRIGGER,
    test: true,
    // `_id` and `updatedAt`, as every event's entity has them: a receiver's deduplication key.
    webhook: { _id: webhook.id, updatedAt: now.toISOString() },
  });
  const made = await deps.db
    .insertInto('webhook_deliveries')
    .values({
      company_id: company,
      webhook_id: webhook.id,
      event_id: randomUUID(),
      case_id: null,
      trigger: TEST_TRIGGER,
      body,
      attempts: 1,
      next_attempt_at: new Date(now.getTime() + deps.settings.timeoutMs + IN_FLIGHT_MARGIN_MS),
      created_at: now,
      updated_at: now,
    })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
  return makeTry(
    deps,
    {
      deliveryId: made.id,
      attempt: 1,
      createdAt: made.created_at,
      trigger: TEST_TRIGGER,
      body,
      webhook,
    },
    { retry: false },
  );
}
