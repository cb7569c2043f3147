import { createHash } from 'node:crypto';
import { PDF, PdfArray, PdfString } from '@libpdf/core';

/**
 * Loads a PDF to stamp and seal. A file without a trailer /ID (pdf-lib writes none) would get a
 * random one when saved; it gets one derived from its bytes instead, so that saving the same
 * input twice gives the same output.
 */
export async function openPdf(bytes: Uint8Array): Promise<PDF> {
  const pdf = await PDF.load(bytes);
  ensureFileId(pdf, () => createHash('sha256').update(bytes).digest().subarray(0, 16));
  return pdf;
}

/** Sets the trailer's /ID from `id()` when it has none. */
export function ensureFileId(pdf: PDF, id: () => Uint8Array): void {
  const trailer = pdf.context.info.trailer;
  const present = trailer.getArray('ID');
  if (present && present.length >= 2) return;
  const value = id();
  trailer.set('ID', new PdfArray([new PdfString(value, 'hex'), new PdfString(value, 'hex')]));
}
