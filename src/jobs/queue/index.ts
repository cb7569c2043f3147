export {
  JOB_SCHEMA_VERSION,
  DEFAULT_CONTRACT_LIMITS,
  jobDataProblems,
  DocumentJobDataSchema,
  DocumentSourceSchema,
  JobRenderOptionsSchema,
  type DocumentJobData,
  type DocumentJobResult,
  type DocumentSource,
  type JobRenderOptions,
  type ContractLimits,
} from './job-contract.js';
export { MAX_JOB_NAME_CHARS } from './job-contract-schema.js';
export { processDocumentJob, type ProcessorDeps } from './document-processor.js';
export { DocpipeWorker, type WorkerStopReport } from './docpipe-worker.js';
export {
  DEFAULT_WORKER_OPTIONS,
  DEFAULT_CLOSE_GRACE_MS,
  fillWorkerOptions,
  type DocpipeWorkerOptions,
  type DocumentJobReport,
  type FilledWorkerOptions,
} from './worker-options.js';
export {
  DEFAULT_CLIENT_OPTIONS,
  fillClientOptions,
  type DocpipeClientOptions,
  type FilledClientOptions,
  type KeepJobs,
} from './client-options.js';
export {
  BULLMQ_VERSION,
  BullmqLayoutError,
  checkJobHashLayout,
  installedBullmqVersion,
} from './bullmq-job-hash.js';
export {
  DocpipeClient,
  type DocumentInput,
  type RequestOptions,
  type BatchOutcome,
} from './docpipe-client.js';
export type { DocumentRenderOptions } from './document-input.js';
export { DEFAULT_PREFIX, queueNames, type QueueNames } from './queue-names.js';
export type { DocumentSetOutcome } from './document-set-outcome.js';
export {
  CompanyQueueFullError,
  QUEUE_FULL_RETRY_AFTER_S,
  isCompanyQueueFullError,
} from './company-queue-full.js';
export { FairShare, MAX_PRIORITY, NO_COMPANY, type FairShareLimits } from './fair-share.js';
