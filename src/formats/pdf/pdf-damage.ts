/**
 * A fault in a PDF's structure that poppler or pdf.js would repair in their own way or refuse.
 * Thrown by the structure checks; the PDF check turns it into a typed failure.
 */
export class PdfDamage extends Error {
  override readonly name = 'PdfDamage';

  constructor(
    message: string,
    /**
     * `encrypted` when what was found is an encryption dictionary; `too-large` when a stream
     * inflates past docpipe's limits (as zip bombs are refused).
     */
    readonly reason: 'damaged' | 'encrypted' | 'too-large' = 'damaged',
  ) {
    super(message);
  }
}
