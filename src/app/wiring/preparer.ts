import type { DocpipeConfig } from '../config/index.js';
import { EnginePool } from '../../render/engine/index.js';

/**
 * The engine threads with the configured input and value limits. `threads` is the caller's
 * choice when it knows better (one document needs one thread); otherwise DOCPIPE_ENGINE_THREADS.
 */
export function createEngine(config: DocpipeConfig, threads = config.engineThreads): EnginePool {
  return new EnginePool({ threads, limits: config.limits, values: config.values });
}
