export type { BatchItem, BatchSourceOptions } from './batch-item.js';
export { collectBatch } from './sources.js';
export { batchJobId } from './job-id.js';
export { runBatch, type RunBatchOptions } from './run-batch.js';
export { summarizeBatch, type BatchReport } from './report.js';
export { copyBatchOut } from './copy-out.js';
export { failureReason, failureText } from './failure-text.js';
