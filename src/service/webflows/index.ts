/**
 * Web-flows (issue 36, spec 1 and 4.4): asking people for information on a page of their own
 * and reading progress and answers back. docs/webflows.md describes the payloads and rules.
 */
export {
  createWebflow,
  type CreateWebflowDeps,
  type CreateWebflowRequest,
  type CreatedWebflow,
} from './create-webflow.js';
export { getWebflow } from './get-webflow.js';
export { flowFormOf, type FlowForm } from './flow-form.js';
export {
  caseErrorOf,
  flowCaseCreatorKey,
  makeCaseOfFlow,
  type FlowCaseDeps,
  type FlowCaseError,
  type FlowCaseOutcome,
} from './flow-case.js';
export { copyFlowTemplates, flowTemplatesFolder, removeFlowTemplates } from './flow-templates.js';
export {
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_TTL_MS,
  idempotencyKeyProblem,
  requestFingerprint,
} from './idempotency-key.js';
export {
  DEFAULT_EXPIRES_IN_DAYS,
  MAX_EXPIRES_IN_DAYS,
  MAX_WEBFLOW_RECIPIENTS,
  WebflowBodySchema,
  WebflowCaseSchema,
  WebflowRecipientSchema,
  WebflowSettingsSchema,
  type WebflowBody,
} from './webflow-body.js';
export {
  hashWebflowToken,
  newWebflowRecipientId,
  webflowTokenFor,
  webflowUrl,
} from './webflow-token.js';
export type {
  WebflowAnswerView,
  WebflowDelivery,
  WebflowRecipientView,
  WebflowSummary,
  WebflowView,
} from './webflow-view.js';
