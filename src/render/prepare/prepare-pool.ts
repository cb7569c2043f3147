import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { workerFile } from '../../base/paths/index.js';
import type { EngineReply, EngineTask } from './engine-task.js';
import { TaskEngine, type EngineLimits } from './task-engine.js';

export interface EnginePoolOptions extends EngineLimits {
  /**
   * Worker threads. Sniff and fill are short and CPU-bound: one per core keeps every core busy
   * without threads waiting on each other.
   * @defaultValue os.availableParallelism()
   */
  threads?: number;
}

/**
 * Runs sniff, fill, fields and the PDF check in a Piscina pool of worker threads, rebuilding
 * typed failures on this side. What the engine does is the same as calling it in-thread; only
 * where it runs differs.
 */
export class EnginePool extends TaskEngine {
  private readonly piscina: Piscina<EngineTask, EngineReply>;

  constructor(options: EnginePoolOptions = {}) {
    super(options);
    const threads = options.threads ?? availableParallelism();
    if (!Number.isInteger(threads) || threads < 1) {
      throw new Error(`threads must be a positive integer (got ${String(threads)})`);
    }
    this.piscina = new Piscina({
      filename: workerFile('engine-task'),
      minThreads: threads,
      maxThreads: threads,
      // Kept warm: starting a thread and loading docxtemplater costs more than a fill.
      idleTimeout: Number.POSITIVE_INFINITY,
    });
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
  }

  protected execute(task: EngineTask): Promise<EngineReply> {
    return this.piscina.run(task);
  }
}
