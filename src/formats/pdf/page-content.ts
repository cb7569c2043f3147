import { inflateSync } from 'node:zlib';
import { PDFArray, PDFName, PDFRawStream, PDFRef, type PDFObject, type PDFPageLeaf } from 'pdf-lib';
import { decodeUpTo } from './bounded-decode.js';
import { PdfDamage } from './pdf-damage.js';

/**
 * Filters a page's content may use. The image filters (DCTDecode, JPXDecode, JBIG2Decode,
 * CCITTFaxDecode) are for images only; on page content poppler decodes them anyway (a JBIG2
 * "content" kept pdftotext busy for minutes), and a filter no reader knows leaves it blank.
 */
const CONTENT_FILTERS = new Set(
  [
    'FlateDecode',
    'Fl',
    'LZWDecode',
    'LZW',
    'ASCIIHexDecode',
    'AHx',
    'ASCII85Decode',
    'A85',
    'RunLengthDecode',
    'RL',
  ].map((name) => PDFName.of(name)),
);
const FLATE = new Set([PDFName.of('FlateDecode'), PDFName.of('Fl')]);
const CONTENTS = PDFName.of('Contents');
const FILTER = PDFName.of('Filter');

/**
 * More than any page's drawing instructions: a content stream that inflates past it is a bomb
 * (poppler and pdf.js would spend minutes on it), not a page.
 */
export const MAX_PAGE_CONTENT_BYTES = 64 * 1024 * 1024;

const tag = (ref: PDFRef) => `${ref.objectNumber} ${ref.generationNumber} R`;

/**
 * A page's content streams must decode: poppler shows what it can of a corrupt Flate stream and
 * pdf.js fails the page, so the same file would read differently. zlib is stricter than both
 * (it also checks the Adler-32 sum), which only ever refuses more. About 10 microseconds for a
 * page of text.
 */
export function checkPageContent(
  pageRef: PDFRef,
  page: PDFPageLeaf,
  resolve: (ref: PDFRef, from: string) => PDFObject | undefined,
): void {
  const contents = page.get(CONTENTS);
  const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
  for (const ref of refs) {
    if (!(ref instanceof PDFRef)) continue;
    const stream = resolve(ref, `page ${tag(pageRef)}`);
    if (!(stream instanceof PDFRawStream)) continue;
    const where = `the content of page ${tag(pageRef)} (${tag(ref)})`;
    const filter = stream.dict.get(FILTER);
    const filters = filter instanceof PDFArray ? filter.asArray() : filter ? [filter] : [];
    for (const f of filters) {
      if (!(f instanceof PDFName) || !CONTENT_FILTERS.has(f))
        throw new PdfDamage(
          `${where} is under the filter ${String(f)}, which page content cannot use`,
        );
    }
    if (filters.length > 0) decodes(stream, filters, where);
  }
}

function decodes(stream: PDFRawStream, filters: PDFObject[], where: string): void {
  try {
    if (filters.length === 1 && FLATE.has(filters[0] as PDFName))
      inflateSync(stream.contents, { maxOutputLength: MAX_PAGE_CONTENT_BYTES });
    // Read in steps: getBytes(cap + 1) made pdf-lib allocate twice the limit for every stream
    // (docs/decisions.md, "Decoding limits in the PDF check").
    else if (decodeUpTo(stream, MAX_PAGE_CONTENT_BYTES) === undefined)
      throw new Error(`inflates past ${MAX_PAGE_CONTENT_BYTES} bytes`);
  } catch (err) {
    const message =
      (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE'
        ? `inflates past ${MAX_PAGE_CONTENT_BYTES} bytes`
        : (err as Error).message.slice(0, 100);
    throw new PdfDamage(`${where} does not decode (${message})`);
  }
}
