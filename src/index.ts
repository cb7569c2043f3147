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
} from './base/errors/index.js';
export {
  sniff,
  sniffBytes,
  DEFAULT_SNIFF_LIMITS,
  UNSUPPORTED_REASONS,
  type SniffResult,
  type SniffLimits,
  type UnsupportedReason,
} from './formats/sniff/index.js';
export {
  fillTemplate,
  type FillOptions,
  type FillResult,
  type Delimiters,
} from './document/fill/index.js';
export { TAG_TYPES, SUPPORTED_LANGUAGES, type TagInput } from './document/values/index.js';
export { type TemplateField } from './document/fields/index.js';
export { templateFields, documentText } from './document/inspect/index.js';
export {
  PreparePool,
  InlinePreparer,
  type PrepareLimits,
  type PreparePoolOptions,
  type Preparer,
} from './render/prepare/index.js';
export { loadConfig, ConfigError, type DocpipeConfig } from './app/config/index.js';
export {
  OfficePool,
  PerCallConverter,
  createConverter,
  type Converter,
  type ConvertRequest,
  type OfficePoolOptions,
  type OfficePoolStats,
} from './render/convert/index.js';
export { checkPdf, type PdfInfo } from './formats/pdf/index.js';
export {
  LocalStorage,
  S3Storage,
  StorageUnavailableError,
  isStorageUnavailableError,
  signUrl,
  verifySignedUrl,
  type S3StorageOptions,
  type Storage,
  type StoredObject,
} from './render/storage/index.js';
export {
  Renderer,
  type RendererDeps,
  type RenderInput,
  type RenderOptions,
  type RenderResult,
  type RenderNotice,
  type Fidelity,
} from './render/pipeline/index.js';
export {
  DocpipeClient,
  DocpipeWorker,
  DEFAULT_CLIENT_OPTIONS,
  DEFAULT_WORKER_OPTIONS,
  BullmqLayoutError,
  DocumentJobDataSchema,
  CompanyQueueFullError,
  isCompanyQueueFullError,
  type BatchOutcome,
  type DocpipeClientOptions,
  type DocpipeWorkerOptions,
  type DocumentInput,
  type DocumentRenderOptions,
  type DocumentJobResult,
  type JobRenderOptions,
  type RequestOptions,
} from './jobs/queue/index.js';
export {
  EmbeddedRedis,
  QueueUnavailableError,
  isQueueUnavailableError,
} from './platform/redis/index.js';
export {
  FolderLibrary,
  locateTemplate,
  resolveTemplate,
  type DocumentLibrary,
  type ResolvedTemplate,
  type ResolveTemplateOptions,
  type TemplateReference,
  type TemplateSettings,
} from './document/library/index.js';
export { createLogger, type Logger } from './base/log/index.js';
