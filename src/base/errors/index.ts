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
export { fieldPathOf, joinField } from './field-path.js';
