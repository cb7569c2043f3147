export {
  EmbeddedRedis,
  freePort,
  isPortFree,
  type EmbeddedRedisOptions,
} from './embedded-redis.js';
export { createRedis, checkEvictionPolicy, type ConnectionRole } from './redis-connection.js';
export {
  JOB_SCHEMA_VERSION,
  DEFAULT_CONTRACT_LIMITS,
  jobDataProblems,
  type DocumentJobData,
  type DocumentJobResult,
  type DocumentSource,
  type JobRenderOptions,
  type ContractLimits,
} from './job-contract.js';
export { processDocumentJob, type ProcessorDeps } from './document-processor.js';
export { DocpipeWorker, type DocpipeWorkerOptions } from './docpipe-worker.js';
export {
  DocpipeClient,
  type DocpipeClientOptions,
  type DocumentInput,
  type RequestOptions,
  type BatchOutcome,
} from './docpipe-client.js';
export { queueNames, type QueueNames } from './queue-names.js';
export {
  QueueUnavailableError,
  isQueueUnavailableError,
  type UnavailableReason,
} from './queue-unavailable.js';
export type { CaseOutcome } from './case-outcome.js';
