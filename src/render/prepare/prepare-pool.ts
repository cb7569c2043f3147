import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { workerFile } from '../../base/paths/index.js';
import type { PrepareReply, PrepareTask } from './prepare-task.js';
import type { Preparer } from './preparer.js';
import { TaskPreparer, type PrepareLimits } from './task-preparer.js';

export interface PreparePoolOptions extends PrepareLimits {
  /**
   * Worker threads. Sniff and fill are short and CPU-bound: one per core keeps every core busy
   * without threads waiting on each other.
   * @defaultValue os.availableParallelism()
   */
  threads?: number;
}

/**
 * Runs sniff, fill, fields and the PDF check in a Piscina pool of worker threads, rebuilding
 * typed failures on this side. What the preparer does is the same as calling it in-thread; only
 * where it runs differs.
 */
export class PreparePool extends TaskPreparer implements Preparer {
  private readonly piscina: Piscina<PrepareTask, PrepareReply>;

  constructor(options: PreparePoolOptions = {}) {
    super(options);
    const threads = options.threads ?? availableParallelism();
    if (!Number.isInteger(threads) || threads < 1) {
      throw new Error(`threads must be a positive integer (got ${String(threads)})`);
    }
    this.piscina = new Piscina({
      filename: workerFile('prepare-task'),
      minThreads: threads,
      maxThreads: threads,
      // Kept warm: starting a thread and loading docxtemplater costs more than a fill.
      idleTimeout: Number.POSITIVE_INFINITY,
    });
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
  }

  protected execute(task: PrepareTask): Promise<PrepareReply> {
    return this.piscina.run(task);
  }
}
