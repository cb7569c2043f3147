export { FAILURES, isFailureSlug, type FailureSlug, type FailureSpec } from './registry.js';
export {
  DocpipeError,
  isDocpipeError,
  failureProblem,
  isFailure,
  withFieldPrefix,
  type Failure,
  type FailureDetail,
} from './docpipe-error.js';
export { detailText } from './detail-text.js';
export { fieldPathOf, joinField } from './field-path.js';
export {
  DATABASE_RETRY_AFTER_S,
  EID_BROKER_RETRY_AFTER_S,
  EXIT_INTERRUPTED,
  EXIT_UNAVAILABLE,
  OUTAGES,
  QUEUE_FULL_RETRY_AFTER_S,
  QUEUE_RETRY_AFTER_S,
  STORAGE_RETRY_AFTER_S,
  isOutageKind,
  outageOf,
  type Outage,
  type OutageKind,
  type OutageSpec,
} from './outages.js';
export { INTERNAL_ERROR } from './internal-error.js';
export { MAX_REPORTED_PROBLEMS, reportedProblems, uniqueProblems } from './reported-problems.js';
