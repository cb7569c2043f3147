/**
 * v3 signing cases on PostgreSQL (spec 2.2, 4.4): the create rules in order, the documents
 * through the pipeline, one transaction for the case, its recipients, documents and event
 * (the outbox), and the company's reads. docs/cases.md describes the rules and defaults.
 */
export {
  CaseService,
  V3_POLICY,
  type CaseCreator,
  type KeyCreator,
  type CasePolicy,
  type CaseListFilters,
  type CasePageRequest,
  type CaseDelivery,
  type CaseServiceDeps,
  type CaseCredits,
  type CreateCaseOptions,
  type CreatedCase,
} from './case-service.js';
export type {
  CaseDocumentInput,
  CaseInput,
  CaseSettingsInput,
  RecipientInput,
} from './case-input.js';
export type {
  CaseAnswer,
  CaseNotice,
  DocumentNotice,
  ServiceNotice,
  CasePage,
  CaseState,
  CaseSummary,
  CaseView,
  ChannelReport,
  ChannelResult,
  Delivery,
  DocumentView,
  RecipientStatus,
  RecipientView,
} from './case-answer.js';
export {
  CaseBodySchema,
  CaseDocumentSchema,
  CaseRecipientSchema,
  CaseSettingsSchema,
  LibraryCaseBodySchema,
  MAX_CASE_DOCUMENTS,
  MAX_CASE_RECIPIENTS,
  MAX_REFERENCE_CHARS,
  MAX_TITLE_CHARS,
  caseBodyRuleProblems,
  type CaseBody,
  type CaseDocument,
  type CaseRecipient,
  type CaseSettings,
  type LibraryCaseBody,
} from './case-body.js';
export {
  CASE_CREATED,
  CASE_DELETED,
  CASE_SENT,
  DEFAULT_LANGUAGE,
  DEFAULT_PAGE_LIMIT,
  MAX_PAGE_LIMIT,
} from './case-defaults.js';
export {
  caseStatusOf,
  eventCaseOf,
  readCaseStatus,
  readRecipientStatuses,
  writeCaseEvent,
  type CaseEventInput,
  type CaseStatus,
} from './case-status.js';
export { readSigningView, type SigningView } from './signing-view.js';
export { chooseSender, type NamedSender, type SenderChoice } from './sender-choice.js';
export { recipientOfToken } from './token-recipient.js';
export { hashSigningToken, linkBase, signingTokenFor, signingUrl } from './signing-token.js';
export {
  REMINDER_DEFAULTS,
  firstReminderAt,
  reminderSettings,
  type ReminderSettings,
} from './reminder-schedule.js';
export {
  V2CaseBodySchema,
  V2CaseSettingsSchema,
  V2DocumentSchema,
  V2RecipientSchema,
  V2WrappedCaseBodySchema,
  type V2CaseBody,
  type V2CaseSettings,
  type V2Document,
  type V2Recipient,
} from './v2-case-body.js';
export { checkV2Body, v2BodyRuleProblems } from './v2-case-check.js';
export {
  V2_DEFAULT_EXPIRES_IN_DAYS,
  V2_POLICY,
  fileIsBlob,
  v2CaseInput,
  type V2CaseMapping,
} from './v2-case-input.js';
export { v2RecipientField, v2RecipientInput } from './v2-recipient.js';
export { createV2Case, type CreateV2CaseOptions } from './v2-case-create.js';
export {
  V2_CASE_TYPE,
  v2RecipientType,
  v2Settings,
  type V2CaseData,
  type V2CaseOne,
  type V2CaseSummary,
  type V2CreatedCase,
  type V2DocumentAnswer,
  type V2Notice,
  type V2RecipientAnswer,
  type V2SettingsView,
} from './v2-case-answer.js';
export {
  MAX_V2_CASE_IDS,
  V2_CASE_STATUSES,
  type V2CaseStatus,
  type V2DeleteResult,
  type V2ListQuery,
} from './v2-case-reads.js';
export {
  clearTestCases,
  type ClearTestCasesOptions,
  type ClearedTestCases,
} from './clear-test-cases.js';
export { caseDocumentKey, caseFolder, isCaseDocumentKey } from './case-storage.js';
export { attempted, deliveryOf, notAttempted } from './delivery.js';
export {
  CasePlaceSchema,
  CasePlacesSchema,
  MAX_DOCUMENT_PLACES,
  MIN_PLACE_SIDE,
  givenPlaceProblems,
  unplacedSignerProblems,
  type CasePlace,
} from './case-places.js';
export {
  readCasePlaces,
  saveDraftPlaces,
  type CasePlaces,
  type PlacesDocument,
} from './draft-places.js';
export { storedCaseDocument, type StoredCaseDocument } from './case-document-pages.js';
export {
  searchCases,
  type CaseListPage,
  type CaseListRow,
  type CaseSearch,
} from './case-search.js';
export { caseSearchText } from './case-search-text.js';
export {
  readCaseTrail,
  type CaseMessage,
  type CaseTimelineEvent,
  type CaseTrail,
  type CaseWebhookRun,
} from './case-timeline.js';
export {
  readCaseAudit,
  type AuditedRecipient,
  type CaseAudit,
  type CaseAuditRecord,
} from './case-audit.js';
export { takeSigningLink, type LinkTaker, type TakenSigningLink } from './case-signing-link.js';
export { MAX_EXTEND_DAYS, extendCaseExpiry, extendDaysOf } from './case-extend.js';
export { remindCaseNow } from './case-remind.js';
export { flowCaseCreatorKey, flowOfCreatorKey } from './flow-creator-key.js';
