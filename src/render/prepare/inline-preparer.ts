import { runEngineTask, type EngineReply, type EngineTask } from './engine-task.js';
import { TaskEngine, type EngineLimits } from './task-engine.js';

/**
 * The engine in the caller's own thread: the same tasks and the same failures as `EnginePool`,
 * without worker threads. For tests of the renderer and the queue, and for a caller that renders
 * one document and would only pay for starting threads.
 */
export class InlineEngine extends TaskEngine {
  constructor(options: EngineLimits = {}) {
    super(options);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  protected execute(task: EngineTask): Promise<EngineReply> {
    return runEngineTask(task);
  }
}
