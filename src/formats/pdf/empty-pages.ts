import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, type PDFContext } from 'pdf-lib';
import { decodeUpTo } from './bounded-decode.js';
import { drawsSomething } from './page-drawing.js';

/**
 * Decoded content read per page when looking for a drawing operator. Real pages draw within
 * their first bytes; a page whose content runs past this without drawing is counted as drawn
 * rather than read on (its content is not nothing, whatever it is).
 */
export const MAX_EMPTY_SCAN_BYTES_PER_PAGE = 8 * 1024 * 1024;
/** Decoded content read per PDF: pages past it are counted as drawn, unread. */
export const MAX_EMPTY_SCAN_BYTES = 64 * 1024 * 1024;

const CONTENTS = PDFName.of('Contents');
const FILTER = PDFName.of('Filter');

/**
 * The pages (numbered from 1) whose content draws nothing: no text, no image, no painted path
 * ({@link drawsSomething}). A page with only a header or footer draws them, so it is not empty
 * here. Its content was already checked to decode ({@link checkPageContent}).
 */
export function emptyPages(context: PDFContext, pages: readonly PDFRef[]): number[] {
  const empty: number[] = [];
  let budget = MAX_EMPTY_SCAN_BYTES;
  pages.forEach((ref, i) => {
    const page = context.lookup(ref);
    if (!(page instanceof PDFDict)) return;
    const read = pageDraws(context, page, Math.min(budget, MAX_EMPTY_SCAN_BYTES_PER_PAGE));
    budget -= read.bytes;
    if (!read.draws) empty.push(i + 1);
  });
  return empty;
}

function pageDraws(
  context: PDFContext,
  page: PDFDict,
  cap: number,
): { draws: boolean; bytes: number } {
  const contents = context.lookup(page.get(CONTENTS));
  const streams = contents instanceof PDFArray ? contents.asArray() : [page.get(CONTENTS)];
  let bytes = 0;
  for (const item of streams) {
    const stream = item instanceof PDFRef ? context.lookup(item) : item;
    if (!(stream instanceof PDFRawStream)) continue;
    const data = stream.dict.get(FILTER) ? decodeUpTo(stream, cap - bytes) : stream.contents;
    // Past what may be read: something is there, so it is not counted as empty.
    if (data === undefined || bytes + data.length > cap) return { draws: true, bytes: cap };
    bytes += data.length;
    // Streams split only between tokens (ISO 32000-1, 7.8.2), so each is read on its own.
    if (drawsSomething(data)) return { draws: true, bytes };
  }
  return { draws: false, bytes };
}
