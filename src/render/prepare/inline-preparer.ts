import { runPrepareTask, type PrepareReply, type PrepareTask } from './prepare-task.js';
import type { Preparer } from './preparer.js';
import { TaskPreparer, type PrepareLimits } from './task-preparer.js';

/**
 * The preparer in the caller's own thread: the same tasks and the same failures as `PreparePool`,
 * without worker threads. For tests of the renderer and the queue, and for a caller that renders
 * one document and would only pay for starting threads.
 */
export class InlinePreparer extends TaskPreparer implements Preparer {
  constructor(options: PrepareLimits = {}) {
    super(options);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  protected execute(task: PrepareTask): Promise<PrepareReply> {
    return runPrepareTask(task);
  }
}
