import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { DocpipeError } from '../errors/index.js';
import {
  DEFAULT_VALUE_LIMITS,
  type FillOptions,
  type FillResult,
  type TemplateField,
  type ValueLimits,
} from '../fill/index.js';
import type { FieldsOptions } from '../inspect/index.js';
import type { PdfInfo, StampOptions } from '../pdf/index.js';
import type { Prepared } from '../pipeline/prepare.js';
import { DEFAULT_SNIFF_LIMITS, type SniffLimits, type SniffResult } from '../sniff/index.js';
import type { EngineReply, EngineTask } from '../../workers/engine-task.js';
import { workerFile } from './worker-file.js';

export interface EnginePoolOptions {
  /**
   * Worker threads. Sniff and fill are short and CPU-bound: one per core keeps every core busy
   * without threads waiting on each other.
   * @defaultValue os.availableParallelism()
   */
  threads?: number;
  /** @defaultValue DEFAULT_SNIFF_LIMITS */
  limits?: SniffLimits;
  /** What tag values may be, for every fill in the pool. @defaultValue DEFAULT_VALUE_LIMITS */
  values?: ValueLimits;
}

/**
 * Runs sniff, fill and fields in a Piscina pool of worker threads, rebuilding typed failures on
 * this side. What the engine does is the same as calling it in-thread; only where it runs differs.
 */
export class EnginePool {
  private readonly piscina: Piscina<EngineTask, EngineReply>;
  private readonly limits: SniffLimits;
  private readonly values: ValueLimits;

  constructor(options: EnginePoolOptions = {}) {
    const threads = options.threads ?? availableParallelism();
    if (!Number.isInteger(threads) || threads < 1) {
      throw new Error(`threads must be a positive integer (got ${String(threads)})`);
    }
    this.limits = options.limits ?? DEFAULT_SNIFF_LIMITS;
    this.values = options.values ?? DEFAULT_VALUE_LIMITS;
    this.piscina = new Piscina({
      filename: workerFile('engine-task'),
      minThreads: threads,
      maxThreads: threads,
      // Kept warm: starting a thread and loading docxtemplater costs more than a fill.
      idleTimeout: Number.POSITIVE_INFINITY,
    });
  }

  async sniff(bytes: Uint8Array): Promise<SniffResult> {
    return (await this.run({ op: 'sniff', bytes, limits: this.limits })) as SniffResult;
  }

  async fill(bytes: Uint8Array, tags: unknown, options: FillOptions = {}): Promise<FillResult> {
    const value = (await this.run({
      op: 'fill',
      bytes,
      tags,
      options: { limits: this.limits, values: this.values, ...options },
    })) as {
      docx: Uint8Array;
      fields: TemplateField[];
    };
    return {
      docx: Buffer.from(value.docx.buffer, value.docx.byteOffset, value.docx.byteLength),
      fields: value.fields,
    };
  }

  async fields(bytes: Uint8Array, options: FieldsOptions = {}): Promise<TemplateField[]> {
    return (await this.run({
      op: 'fields',
      bytes,
      options: { limits: this.limits, ...options },
    })) as TemplateField[];
  }

  /** Sniff, fill (with values) and harden in one thread round trip: the pipeline's first steps. */
  async prepare(bytes: Uint8Array, tags: unknown, options: FillOptions = {}): Promise<Prepared> {
    return (await this.run({
      op: 'prepare',
      bytes,
      tags,
      options: { ...options, limits: this.limits, values: this.values },
    })) as Prepared;
  }

  /** pdf-lib's check of a given PDF: parses, has pages, not encrypted. */
  async checkPdf(bytes: Uint8Array, field: string): Promise<PdfInfo> {
    return (await this.run({ op: 'check-pdf', bytes, field })) as PdfInfo;
  }

  /** Checks a produced PDF and writes its Title and Producer (not for PDF/A). */
  async finishPdf(
    bytes: Uint8Array,
    field: string,
    stamp: StampOptions,
    pdfa: boolean,
  ): Promise<{ pdf: Buffer; pages: number }> {
    const value = (await this.run({ op: 'finish-pdf', bytes, field, stamp, pdfa })) as {
      pdf: Uint8Array;
      pages: number;
    };
    return {
      pdf: Buffer.from(value.pdf.buffer, value.pdf.byteOffset, value.pdf.byteLength),
      pages: value.pages,
    };
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
  }

  private async run(task: EngineTask): Promise<unknown> {
    const reply = await this.piscina.run(task);
    if (!reply.ok) throw DocpipeError.fromFailure(reply.failure);
    return reply.value;
  }
}
