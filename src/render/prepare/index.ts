export type { Preparer } from './preparer.js';
export { PreparePool, type PreparePoolOptions } from './prepare-pool.js';
export { InlinePreparer } from './inline-preparer.js';
export type { PrepareLimits } from './task-preparer.js';
export { prepareDocument, type Prepared, type DocumentFontFacts } from './prepare-document.js';
export type { PrepareReply, PrepareTask } from './prepare-task.js';
