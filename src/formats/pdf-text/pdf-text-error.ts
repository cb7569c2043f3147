import { DocpipeError, type FailureSlug } from '../../base/errors/index.js';

/**
 * Why the text layer could not be read or changed:
 * - `not-removable`: a match given to removeText does not cover whole text-showing operators
 *   of a page's own content (or is not on the PDF at all);
 * - `too-large`: a content stream, CMap or the work of one page passes docpipe's limits;
 * - `too-deep`: forms or nested operands go deeper than any real document;
 * - `damaged`: the PDF's structure cannot be read (no pages, objects that do not parse).
 */
export type PdfTextReason = 'not-removable' | 'too-large' | 'too-deep' | 'damaged';

/**
 * A failure of the text layer. It is a DocpipeError so that it crosses threads and the queue as
 * any failure does: by default `document-production-failed` (the text layer is read from the
 * PDFs docpipe produces); a caller reading an uploaded PDF passes `unsupported-file-type`.
 */
export class PdfTextError extends DocpipeError {
  constructor(
    readonly reason: PdfTextReason,
    message: string,
    field = 'pdf',
    slug: FailureSlug = 'document-production-failed',
  ) {
    super(slug, [{ field, message: `${reason}: the PDF's text layer ${message}` }]);
  }
}
