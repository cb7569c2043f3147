import { PDFName, PDFObjectStreamParser, PDFRawStream, PDFXRefStreamParser } from 'pdf-lib';
import { currentDecodeBudget } from './bounded-decode.js';
import { parseRecordOf } from './parser-hooks.js';
import {
  patchPoints,
  pdfLibOriginals,
  type ObjectStreamForStream,
  type XrefStreamForStream,
} from './pdf-lib-internals.js';

const FILTER = PDFName.of('Filter');
const DECODE_PARMS = PDFName.of('DecodeParms');

const original = {
  objectStream: pdfLibOriginals.objectStreamForStream,
  xrefStream: pdfLibOriginals.xrefStreamForStream,
};

/**
 * The stream decoded within the check's budget, as a stream without filters, so that pdf-lib
 * reads these bytes instead of decoding the data again (in full, whatever its size). Its
 * /DecodeParms go too: pdf-lib never applied a predictor to them.
 */
function decodedForPdfLib(stream: PDFRawStream, kind: string): PDFRawStream {
  const at = parseRecordOf(stream.dict.context)?.objectAt ?? -1;
  const where = at >= 0 ? `its ${kind} at offset ${at}` : `an ${kind}`;
  const bytes = currentDecodeBudget().decode(stream, where, at);
  const dict = stream.dict.clone();
  dict.delete(FILTER);
  dict.delete(DECODE_PARMS);
  return PDFRawStream.of(dict, bytes);
}

const forObjectStream: ObjectStreamForStream = (stream, shouldWaitForTick) =>
  original.objectStream.call(
    PDFObjectStreamParser,
    decodedForPdfLib(stream, 'object stream'),
    shouldWaitForTick,
  );

/**
 * pdf-lib reads as many entries as /Size or /Index say, past the end of the data (as
 * `undefined` bytes): `/Size 100000000` over a few bytes made a hundred million entries.
 * Nothing uses them (only the stream's trailer keys count), so it reads what the data holds.
 */
const forXrefStream: XrefStreamForStream = (stream) => {
  const decoded = decodedForPdfLib(stream, 'cross-reference stream');
  const parser = original.xrefStream.call(PDFXRefStreamParser, decoded);
  const rowWidth = parser.byteWidths.reduce((sum, width) => sum + Math.max(0, width), 0);
  let rows = rowWidth > 0 ? Math.floor(decoded.contents.length / rowWidth) : 0;
  for (const subsection of parser.subsections) {
    const wanted = Number.isFinite(subsection.length) ? Math.max(0, subsection.length) : 0;
    subsection.length = Math.min(wanted, rows);
    rows -= subsection.length;
  }
  return parser;
};

/**
 * Puts the bounded decode in front of pdf-lib's object and cross-reference stream parsers (on
 * by default once the PDF check is loaded) or takes it out. Patched on the classes 'pdf-lib'
 * exports, which its document parser calls through, so in whichever build is imported.
 */
export function useBoundedStructureStreams(on: boolean): void {
  patchPoints.objectStreamParserClass.forStream = on ? forObjectStream : original.objectStream;
  patchPoints.xrefStreamParserClass.forStream = on ? forXrefStream : original.xrefStream;
}
