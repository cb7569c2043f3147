/**
 * v3 signing cases on PostgreSQL (spec 2.2, 4.4): the create rules in order, the documents
 * through the pipeline, one transaction for the case, its recipients, documents and event
 * (the outbox), and the company's reads. docs/cases.md describes the rules and defaults.
 */
export {
  CaseService,
  type CaseCreator,
  type CaseListFilters,
  type CasePageRequest,
  type CaseServiceDeps,
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
  CasePage,
  CaseState,
  CaseSummary,
  CaseView,
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
  MAX_REFERENCE_CHARS,
  MAX_TITLE_CHARS,
  caseBodyRuleProblems,
  type CaseBody,
  type CaseDocument,
  type CaseRecipient,
  type CaseSettings,
  type LibraryCaseBody,
} from './case-body.js';
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './case-defaults.js';
export { readSigningView, type SigningView } from './signing-view.js';
