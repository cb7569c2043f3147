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
  WebflowInvitationView,
  WebflowMessageState,
  WebflowRecipientView,
  WebflowSummary,
  WebflowView,
} from './webflow-view.js';
export { cprAnswerOf } from './answer-cpr.js';
export { questionsOf, type FlowQuestion, type QuestionField } from './answer-questions.js';
export {
  checkAnswers,
  type AnswerProblem,
  type AnswerWrite,
  type CheckedAnswers,
} from './answer-check.js';
export { openSitting, readSitting, type FlowSitting } from './answer-sitting.js';
export type { AnswerDeps } from './answer-write.js';
export { saveAnswers, type SaveOutcome } from './answer-save.js';
export { sendAnswers, type SendOutcome } from './answer-send.js';
export { WORKFLOW_COMPLETED, WORKFLOW_CREATED } from './flow-triggers.js';
export { listWebflows, type WebflowListPage, type WebflowListRow } from './list-webflows.js';
export { readWebflowDetail, type WebflowDetail } from './webflow-detail.js';
export { clearTestFlows, type ClearTestFlowsOptions } from './clear-test-flows.js';
// The creating key of a flow's case is the cases' to read back; named here too for callers of flows.
export { flowCaseCreatorKey } from '../cases/index.js';
