import type { FillOptions } from '../fill/index.js';

export interface RenderInput {
  bytes: Uint8Array;
  /** The document's name: the PDF's title. Never a path: storage keys are content hashes. */
  name: string;
  /**
   * Its place in the fair schedule (its job's BullMQ priority, lower first): conversions waiting
   * for an office process go in this order, so that another company's document overtakes the
   * batch the worker had already taken. Not part of what is rendered. @defaultValue none: last
   */
  place?: number;
}

export interface RenderOptions extends Omit<FillOptions, 'limits'> {
  /** PDF/A-2b output. @defaultValue false */
  pdfa?: boolean;
}

export type RenderStep = 'cache' | 'sniff' | 'fill' | 'harden' | 'convert' | 'check' | 'store';

export interface RenderResult {
  /** Storage key of the PDF. */
  key: string;
  type: 'pdf';
  bytes: number;
  sha256: string;
  pages: number;
  /** What the input was. */
  input: 'pdf' | 'docx';
  /** Answered from storage without converting. */
  cached: boolean;
  /** Milliseconds per step of this call. */
  timings: Partial<Record<RenderStep, number>>;
}
