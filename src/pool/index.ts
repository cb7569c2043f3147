export { EnginePool, type EnginePoolOptions } from './engine-pool.js';
export { projectRoot, workerFile } from './worker-file.js';
