import { DocpipeError } from '../../base/errors/index.js';
import { DEFAULT_VALUE_LIMITS, type ValueLimits } from '../../document/values/index.js';
import { type FillOptions, type FillResult } from '../../document/fill/index.js';
import { type TemplateField } from '../../document/fields/index.js';
import type { FieldsOptions } from '../../document/inspect/index.js';
import { type PdfFidelity, type StampOptions } from '../../formats/pdf/index.js';
import { asBuffer } from '../../base/util/index.js';
import {
  DEFAULT_SNIFF_LIMITS,
  type SniffLimits,
  type SniffResult,
} from '../../formats/sniff/index.js';
import type { PrepareReply, PrepareTask } from './prepare-task.js';
import type { DocumentFontFacts, Prepared } from './prepare-document.js';
import type { Preparer } from './preparer.js';

export interface PrepareLimits {
  /** @defaultValue DEFAULT_SNIFF_LIMITS */
  limits?: SniffLimits;
  /** What tag values may be, for every fill of this preparer. @defaultValue DEFAULT_VALUE_LIMITS */
  values?: ValueLimits;
}

/**
 * The preparer's calls as tasks of its protocol. Where a task runs is the subclass's choice; the
 * replies cross back as data and typed failures are rebuilt from `{error, details}`, so a caller
 * sees the same results and errors from a thread pool as from its own thread.
 */
export abstract class TaskPreparer implements Preparer {
  protected readonly limits: SniffLimits;
  protected readonly values: ValueLimits;

  protected constructor(options: PrepareLimits) {
    this.limits = options.limits ?? DEFAULT_SNIFF_LIMITS;
    this.values = options.values ?? DEFAULT_VALUE_LIMITS;
  }

  /** Runs one task and answers its reply. */
  protected abstract execute(task: PrepareTask): Promise<PrepareReply>;

  abstract close(): Promise<void>;

  async sniff(bytes: Uint8Array): Promise<SniffResult> {
    return (await this.run({ op: 'sniff', bytes, limits: this.limits })) as SniffResult;
  }

  async fill(bytes: Uint8Array, tags: unknown, options: FillOptions = {}): Promise<FillResult> {
    const value = (await this.run({
      op: 'fill',
      bytes,
      tags,
      options: { limits: this.limits, values: this.values, ...options },
    })) as Omit<FillResult, 'docx'> & { docx: Uint8Array };
    return { ...value, docx: asBuffer(value.docx) };
  }

  async fields(bytes: Uint8Array, options: FieldsOptions = {}): Promise<TemplateField[]> {
    return (await this.run({
      op: 'fields',
      bytes,
      options: { limits: this.limits, ...options },
    })) as TemplateField[];
  }

  async prepare(bytes: Uint8Array, tags: unknown, options: FillOptions = {}): Promise<Prepared> {
    return (await this.run({
      op: 'prepare',
      bytes,
      tags,
      options: { ...options, limits: this.limits, values: this.values },
    })) as Prepared;
  }

  async checkPdf(bytes: Uint8Array, field: string): Promise<PdfFidelity> {
    return (await this.run({ op: 'check-pdf', bytes, field })) as PdfFidelity;
  }

  async documentFonts(bytes: Uint8Array): Promise<DocumentFontFacts> {
    return (await this.run({
      op: 'document-fonts',
      bytes,
      limits: this.limits,
    })) as DocumentFontFacts;
  }

  async finishPdf(
    bytes: Uint8Array,
    field: string,
    stamp: StampOptions,
    pdfa: boolean,
  ): Promise<{ pdf: Buffer } & PdfFidelity> {
    const value = (await this.run({ op: 'finish-pdf', bytes, field, stamp, pdfa })) as {
      pdf: Uint8Array;
    } & PdfFidelity;
    return { ...value, pdf: asBuffer(value.pdf) };
  }

  private async run(task: PrepareTask): Promise<unknown> {
    const reply = await this.execute(task);
    if (!reply.ok) throw DocpipeError.fromFailure(reply.failure);
    return reply.value;
  }
}
