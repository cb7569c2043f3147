import { Piscina } from 'piscina';
import { workerFile } from '../../base/paths/index.js';
import { reencodePng, type PngLimits } from './reencode-png.js';

export interface ReencodePngTask {
  bytes: Uint8Array;
  limits: PngLimits;
}

export type ReencodePngReply =
  { png: Uint8Array; width: number; height: number } | { problem: string };

/** The thread side of PngThread. */
export function runReencodePngTask(task: ReencodePngTask): ReencodePngReply {
  return reencodePng(task.bytes, task.limits);
}

/** Why an image could not be decoded that says nothing of the image: the server is busy. */
export class PngThreadBusyError extends Error {
  override readonly name = 'PngThreadBusyError';
}

export interface PngThreadOptions {
  /**
   * The longest one image may take; past it the thread is ended and the image refused. The
   * largest image taken decodes in about 30 ms on this project's 2-core machine.
   * @defaultValue 2000
   */
  budgetMs?: number;
  /**
   * Images waiting for the thread; past them a request is told the server is busy, so a flood of
   * images queues no more than this many in memory, and those queued still decode within their budget. @defaultValue 8
   */
  maxQueue?: number;
}

/**
 * reencodePng in one worker thread with a time budget, off the HTTP server's event loop: an image
 * that takes long to decode delays other images, never the server's other requests. The thread
 * starts on the first image and ends after a minute without one, giving back what it held.
 */
export class PngThread {
  private readonly piscina: Piscina<ReencodePngTask, ReencodePngReply>;
  private readonly budgetMs: number;
  private readonly maxQueue: number;
  /** Images given to the thread and not answered yet: the one decoding and those waiting. */
  private pending = 0;

  constructor(options: PngThreadOptions = {}) {
    this.budgetMs = options.budgetMs ?? 2000;
    if (!(this.budgetMs > 0)) throw new Error(`budgetMs must be positive (got ${this.budgetMs})`);
    this.maxQueue = options.maxQueue ?? 8;
    if (!Number.isInteger(this.maxQueue) || this.maxQueue < 0)
      throw new Error(`maxQueue must be a non-negative integer (got ${this.maxQueue})`);
    this.piscina = new Piscina({
      filename: workerFile('reencode-png-task'),
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: 60_000,
      // The decoded pixels are Buffers outside V8's heap; the heap itself needs little.
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
    });
  }

  /** The image re-encoded, or its problem; PngThreadBusyError when the queue is full. */
  async reencode(
    bytes: Uint8Array,
    limits: PngLimits,
  ): Promise<{ png: Buffer; width: number; height: number } | { problem: string }> {
    // Counted here rather than by Piscina's maxQueue, which also counts a starting thread's
    // capacity: the bound is then exact, one decoding and maxQueue waiting.
    if (this.pending > this.maxQueue)
      throw new PngThreadBusyError('too many images are being decoded; try again shortly');
    this.pending += 1;
    let reply: ReencodePngReply;
    try {
      reply = await this.piscina.run(
        { bytes, limits },
        { signal: AbortSignal.timeout(this.budgetMs) },
      );
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === 'AbortError' || name === 'TimeoutError')
        return { problem: `the image took longer than ${this.budgetMs} ms to decode` };
      throw err;
    } finally {
      this.pending -= 1;
    }
    if ('problem' in reply) return reply;
    return {
      ...reply,
      png: Buffer.from(reply.png.buffer, reply.png.byteOffset, reply.png.byteLength),
    };
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}
