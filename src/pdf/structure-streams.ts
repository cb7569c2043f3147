import { PDFName, PDFObjectStreamParser, PDFRawStream, PDFXRefStreamParser } from 'pdf-lib';
import { currentDecodeBudget } from './bounded-decode.js';
import { parseRecordOf } from './parser-hooks.js';

const FILTER = PDFName.of('Filter');
const DECODE_PARMS = PDFName.of('DecodeParms');

type ForObjectStream = (stream: PDFRawStream, shouldWaitForTick?: () => boolean) => unknown;
type ForXrefStream = (stream: PDFRawStream) => XrefParserInternals;

/** The parts of pdf-lib's cross-reference stream parser used here; not in its declarations. */
interface XrefParserInternals {
  subsections: { firstObjectNumber: number; length: number }[];
  byteWidths: number[];
}

const objectStreams = PDFObjectStreamParser as unknown as { forStream: ForObjectStream };
const xrefStreams = PDFXRefStreamParser as unknown as { forStream: ForXrefStream };
const original = { objectStream: objectStreams.forStream, xrefStream: xrefStreams.forStream };

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

const forObjectStream: ForObjectStream = (stream, shouldWaitForTick) =>
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
const forXrefStream: ForXrefStream = (stream) => {
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
  objectStreams.forStream = on ? forObjectStream : original.objectStream;
  xrefStreams.forStream = on ? forXrefStream : original.xrefStream;
}
