/**
 * Webhooks (issue 24): a company's receivers of events, each event delivered to each receiver
 * once as a delivery with a fixed body, signed (HMAC-SHA256 of timestamp and body), sent only to
 * public addresses unless allowed, and retried with backoff for about a day on the `webhooks`
 * queue. docs/webhooks.md describes it for receivers and operators.
 */
export {
  ALL_TRIGGERS,
  PARTNER_TRIGGER,
  WEBHOOK_TRIGGERS,
  isWebhookTrigger,
  receives,
  type WebhookTrigger,
} from './webhook-triggers.js';
export {
  DEFAULT_DELIVERY_BATCH,
  DEFAULT_WEBHOOK_SETTINGS,
  MAX_RETRY_DELAY_MS,
  RESPONSE_KEPT_BYTES,
  RESPONSE_READ_BYTES,
  type WebhookSettings,
} from './webhook-settings.js';
export { retryDelay } from './retry-delay.js';
export { StatementBatcher, batcherFor } from './statement-batcher.js';
export {
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_TOLERANCE_S,
  TIMESTAMP_HEADER,
  signatureOf,
  verifySignature,
} from './webhook-signature.js';
export {
  WEBHOOK_FIELDS,
  WEBHOOK_METHODS,
  checkWebhook,
  type CheckedWebhook,
  type NewWebhook,
  type WebhookMethod,
} from './webhook-input.js';
export { shownUrl, type Webhook, type WebhookRun } from './webhook-records.js';
export {
  ReplayRefusedError,
  WebhookNotFoundError,
  WebhookRefusedError,
  type PrivateDestinationReason,
  type WebhookProblemReason,
} from './webhook-errors.js';
export { DEFAULT_RUNS_LIMIT, WebhookRepository } from './webhook-repository.js';
export {
  ALLOW_PRIVATE_VARIABLE,
  DestinationRefusedError,
  DestinationUnresolvedError,
  lookupAll,
  refusedKind,
  resolveDestination,
  type LookupAll,
  type RefusedAddressKind,
  type ResolvedAddress,
} from './destination-guard.js';
export type { RetryScheduler, WebhookDeps } from './webhook-deps.js';
export {
  attemptDelivery,
  type AttemptOptions,
  type AttemptOutcome,
  type DeliveryStatus,
} from './attempt-delivery.js';
export { dispatchEvent, type DispatchOutcome, type WebhookEvent } from './dispatch-event.js';
export { prepareReplay, replayDelivery, type ReplayOptions } from './replay-delivery.js';
export {
  checkWebhookDestination,
  type DestinationCheckOptions,
} from './check-webhook-destination.js';
export { updateWebhook } from './update-webhook.js';
export { partnerTriggerAllowed } from './partner-trigger.js';
export { sendWebhookRequest, type WebhookAnswer } from './webhook-request.js';
export { unsendableHeader } from './webhook-header-rules.js';
export { rotateWebhookSecret } from './rotate-webhook-secret.js';
export { TEST_TRIGGER, sendTestEvent } from './send-test-event.js';
export {
  RUNS_PAGE_SIZE,
  listWebhookRuns,
  type WebhookRunSummary,
  type WebhookRunsPage,
} from './webhook-run-list.js';
export { findWebhookRun, type WebhookRunDetail, type WebhookRunTry } from './webhook-run-detail.js';
export {
  DEFAULT_WEBHOOK_SWEEP_MS,
  WEBHOOK_QUEUE,
  WebhookQueue,
  WebhookWorker,
  webhookJobId,
  type WebhookJob,
  type WebhookWorkerOptions,
} from './webhook-jobs.js';
