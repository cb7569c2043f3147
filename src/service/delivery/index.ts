/**
 * Delivery and events (docs/delivery.md, docs/webhooks.md): the outbox relay (case_events to
 * the events queue), the handling of each event (webhooks, invitations, the signed copy, the
 * denial notice), the message ledger that sends each message once, and the schedule (expiry,
 * reminders, messages due again) on a clock tests can move.
 */
export {
  CASE_CREATED,
  CASE_DENIED,
  CASE_EXPIRED,
  CASE_SENT,
  CASE_SIGNED,
  RECIPIENT_INVITED,
  RECIPIENT_REMINDED,
  RECIPIENT_SIGNED,
  WORKFLOW_COMPLETED,
  WORKFLOW_CREATED,
} from './event-triggers.js';
export {
  EVENTS_QUEUE,
  EventQueue,
  eventJobId,
  type EventJob,
  type EventOutcome,
} from './event-queue.js';
export { OutboxRelay, EVENTS_CHANNEL, type OutboxRelayOptions } from './outbox-relay.js';
export { handleEvent } from './handle-event.js';
export {
  type CaseEvent,
  type EventDeps,
  type FlowCompletedHook,
  type FlowEvent,
} from './event-deps.js';
export { sendMessages, type MessageDeps, type SentMessage } from './send-messages.js';
export { runSchedule, expireCases, type TickReport } from './delivery-scheduler.js';
export {
  MAX_MESSAGE_ATTEMPTS,
  flowMessageRow,
  planFlowMessages,
  planMessages,
  type PlannedFlowMessage,
  type PlannedMessage,
} from './message-ledger.js';
export { QueueCaseDelivery, DEFAULT_DELIVERY_WAIT_MS } from './case-delivery.js';
export {
  DeliveryWorker,
  DEFAULT_EVENT_CONCURRENCY,
  DEFAULT_SCHEDULE_MS,
  type DeliveryWorkerOptions,
} from './delivery-worker.js';
