/** docpipe's public API. Internal modules are kept out of it on purpose. */
export {
  DocpipeError,
  FAILURES,
  isDocpipeError,
  isFailure,
  withFieldPrefix,
  type Failure,
  type FailureDetail,
  type FailureSlug,
} from './errors/index.js';
export {
  sniff,
  sniffBytes,
  DEFAULT_SNIFF_LIMITS,
  UNSUPPORTED_REASONS,
  type SniffResult,
  type SniffLimits,
  type UnsupportedReason,
} from './sniff/index.js';
export {
  fillTemplate,
  TAG_TYPES,
  SUPPORTED_LANGUAGES,
  type FillOptions,
  type FillResult,
  type TagInput,
  type TemplateField,
  type Delimiters,
} from './fill/index.js';
export { templateFields, documentText } from './inspect/index.js';
export { EnginePool, type EnginePoolOptions } from './pool/index.js';
export { loadConfig, ConfigError, type DocpipeConfig } from './config/index.js';
