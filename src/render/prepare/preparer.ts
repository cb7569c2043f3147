import type { DocumentFontFacts, Prepared } from './prepare-document.js';
import type { FillOptions, FillResult } from '../../document/fill/index.js';
import type { TemplateField } from '../../document/fields/index.js';
import type { FieldsOptions } from '../../document/inspect/index.js';
import type { PdfFidelity, StampOptions } from '../../formats/pdf/index.js';
import type { SniffResult } from '../../formats/sniff/index.js';

/**
 * What the pipeline needs before and after conversion: the CPU-bound steps around it (sniff, fill
 * and harden before; the PDF check and stamp after). The renderer depends on this, not on where
 * the steps run: `PreparePool` runs them in worker threads, `InlinePreparer` in the caller's
 * thread (tests, and tools that render one document). Both implement it here, beside it.
 */
export interface Preparer {
  sniff(bytes: Uint8Array): Promise<SniffResult>;
  fill(bytes: Uint8Array, tags: unknown, options?: FillOptions): Promise<FillResult>;
  fields(bytes: Uint8Array, options?: FieldsOptions): Promise<TemplateField[]>;
  /** Sniff, fill (with values) and harden in one step: the pipeline's first steps. */
  prepare(bytes: Uint8Array, tags: unknown, options?: FillOptions): Promise<Prepared>;
  /**
   * The check of a given PDF: parses, has pages, not encrypted, opens in every reader; with its
   * embedded fonts and empty pages.
   */
  checkPdf(bytes: Uint8Array, field: string): Promise<PdfFidelity>;
  /** Checks a produced PDF and writes its Title and Producer (not for PDF/A). */
  finishPdf(
    bytes: Uint8Array,
    field: string,
    stamp: StampOptions,
    pdfa: boolean,
  ): Promise<{ pdf: Buffer } & PdfFidelity>;
  /**
   * The families a .docx uses for Latin text and those it embedded (none for anything else), as
   * `prepare` reads them: a cache hit's notices.
   */
  documentFonts(bytes: Uint8Array): Promise<DocumentFontFacts>;
  close(): Promise<void>;
}
