import type { DocpipeConfig } from '../config/index.js';
import { PreparePool } from '../../render/prepare/index.js';

/**
 * The prepare threads with the configured input and value limits. `threads` is the caller's
 * choice when it knows better (one document needs one thread); otherwise DOCPIPE_ENGINE_THREADS.
 */
export function createPreparer(
  config: DocpipeConfig,
  threads = config.prepareThreads,
): PreparePool {
  return new PreparePool({ threads, limits: config.limits, values: config.values });
}
