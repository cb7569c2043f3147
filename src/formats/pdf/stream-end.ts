import { PDFStreamParsingError } from 'pdf-lib';
import { asBuffer } from '../../base/util/index.js';
import { patchPoints, pdfLibOriginals, type FindEndOfStreamFallback } from './pdf-lib-internals.js';

const STREAM = Buffer.from('stream', 'latin1');
const CR = 0x0d;
const LF = 0x0a;

/**
 * Where a stream's data ends, searched as pdf-lib's own fallback searches it: from `from`, every
 * `stream` keyword opens a level and every `endstream` closes one, and the data ends before the
 * line break (CR LF, CR or LF) in front of the `endstream` that closes the first level. Returns
 * that end and the offset just past the keyword, or undefined when the stream never closes.
 */
export function findStreamEnd(
  bytes: Uint8Array,
  from: number,
): { end: number; after: number } | undefined {
  const view = asBuffer(bytes);
  let nesting = 1;
  let position = from;
  for (;;) {
    // Both keywords end in "stream": the first occurrence is the next keyword of either kind.
    const hit = view.indexOf(STREAM, position);
    if (hit < 0) return undefined;
    const keyword = hit - 3;
    const after = hit + STREAM.length;
    const isEnd =
      keyword >= position &&
      view[keyword] === 0x65 && // e
      view[keyword + 1] === 0x6e && // n
      view[keyword + 2] === 0x64; // d
    position = after;
    if (!isEnd) {
      nesting++;
      continue;
    }
    nesting--;
    if (nesting > 0) continue;
    let end = keyword;
    if (end - 2 >= from && view[end - 2] === CR && view[end - 1] === LF) end -= 2;
    else if (end - 1 >= from && (view[end - 1] === CR || view[end - 1] === LF)) end -= 1;
    return { end, after };
  }
}

const fastFallback: FindEndOfStreamFallback = function (startPos) {
  const stream = this.bytes;
  const found = findStreamEnd(stream.bytes, stream.offset());
  if (!found) {
    stream.moveTo(stream.bytes.length);
    throw new PDFStreamParsingError(startPos);
  }
  stream.moveTo(found.after);
  return found.end;
};

/**
 * LibreOffice writes the length of its content and font streams as an indirect object that
 * follows the stream (`/Length 12 0 R`), so pdf-lib cannot use it while parsing and falls back
 * to finding `endstream` one byte at a time through a JavaScript keyword matcher, most of the
 * time of loading a produced PDF (docs/decisions.md, "pdf-lib's fastest parse"). With `fast`
 * (the default once pdf-check is loaded), that fallback is the same search done by
 * Buffer.indexOf; the results are the same, which test/unit/pdf-stream-end.test.ts checks
 * against pdf-lib's own on every PDF of the corpus.
 */
export function useFastStreamEnd(fast: boolean): void {
  patchPoints.objectParser.findEndOfStreamFallback = fast
    ? fastFallback
    : pdfLibOriginals.findEndOfStreamFallback;
}
