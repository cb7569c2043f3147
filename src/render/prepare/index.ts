export { EnginePool, type EnginePoolOptions } from './engine-pool.js';
export { InlineEngine } from './inline-engine.js';
export type { EngineLimits } from './task-engine.js';
export { prepareDocument, type Prepared, type DocumentFontFacts } from './prepare.js';
export type { EngineReply, EngineTask } from './engine-task.js';
