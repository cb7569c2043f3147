import {
  PDFName,
  PDFNumber,
  PDFRawStream,
  type PDFContext,
  type PDFDict,
  type PDFRef,
} from 'pdf-lib';
import {
  patchPoints,
  pdfLibOriginals as original,
  type ParseDictOrStream,
  type ParseIndirectObjectHeader,
  type ParseName,
  type ParseOffsetsAndObjectNumbers,
} from './pdf-lib-internals.js';
import { decodePdfName, isNameChar } from '../pdf-bytes/index.js';

/**
 * What pdf-lib's parser is made to do and to remember, so that the strict check can compare its
 * view of a file with the view of readers that follow the cross-reference table:
 *
 * - names are decoded in both hex cases (pdf-lib decodes only `#41`-style upper case, so
 *   `/E#6ecrypt` was not /Encrypt to it, and `/R#6fot` was no /Root);
 * - where each top-level object was parsed, and which object that was;
 * - where the object pdf-lib keeps for each number came from, and what each object stream lists;
 * - where each stream's data starts and where its `endstream` keyword is, so that its /Length
 *   can be held against what a reader that trusts /Length would read.
 *
 * pdf-lib parses a file front to back and ignores cross-reference offsets; readers do the
 * opposite. The records let the check make sure both arrive at the same objects.
 */

/** A stream as pdf-lib parsed it: where its data begins and where its `endstream` sits. */
export interface StreamSpan {
  dict: PDFDict;
  /** Offset of the `N G obj` header of the object it belongs to (-1 outside one). */
  objectAt: number;
  dataStart: number;
  keywordAt: number;
}

export interface ParseRecord {
  /** By `N G`: the offset of its last `N G obj` header in file order. */
  objects: Map<string, number>;
  /** The first object in the file, where a linearization dictionary would be. */
  first: { ref: PDFRef; at: number } | undefined;
  /** Every stream parsed, in file order, also those pdf-lib did not keep. */
  streams: StreamSpan[];
  /** Offset of the header of the top-level object being parsed (-1 before the first). */
  objectAt: number;
  /**
   * By `N G`: the offset of the top-level object whose parse gave pdf-lib the object it keeps
   * (the object itself, or the object stream that holds it). Object and cross-reference streams
   * are not kept, so they have none.
   */
  definedAt: Map<string, number>;
  /** By the offset of an object stream: the object numbers it lists, in order. */
  objectStreams: Map<number, number[]>;
}

const records = new WeakMap<PDFContext, ParseRecord>();

/** What the hooks recorded while this context was parsed (undefined when they were off). */
export function parseRecordOf(context: PDFContext): ParseRecord | undefined {
  return records.get(context);
}

/** A record of a parse that has met nothing yet. */
export function newParseRecord(): ParseRecord {
  return {
    objects: new Map(),
    first: undefined,
    streams: [],
    objectAt: -1,
    definedAt: new Map(),
    objectStreams: new Map(),
  };
}

function recordFor(context: PDFContext): ParseRecord {
  let record = records.get(context);
  if (!record) {
    const made = newParseRecord();
    const assign = context.assign.bind(context);
    context.assign = (ref, object) => {
      made.definedAt.set(`${ref.objectNumber} ${ref.generationNumber}`, made.objectAt);
      assign(ref, object);
    };
    records.set(context, made);
    record = made;
  }
  return record;
}

const keyword = (text: string) => [...Buffer.from(text, 'latin1')];
/** The spellings pdf-lib accepts after `stream`, longest first, as it tries them. */
const STREAM_KEYWORDS = ['stream \r\n', 'stream\r\n', 'stream\r', 'stream\n', 'stream'].map(
  keyword,
);
const ENDSTREAM = keyword('endstream');
const LENGTH = PDFName.of('Length');
const SLASH = 0x2f;

/** As pdf-lib's parseName, decoding `#xx` in either case. */
const parseName: ParseName = function () {
  const bytes = this.bytes;
  bytes.assertNext(SLASH);
  let raw = '';
  while (!bytes.done()) {
    const c = bytes.peek();
    if (!isNameChar(c)) break;
    raw += String.fromCharCode(c);
    bytes.next();
  }
  if (!raw.includes('#')) return PDFName.of(raw);
  // PDFName.of decodes once more (upper case only): a literal '#' must reach it as '#23'.
  return PDFName.of(decodePdfName(raw).replace(/#/g, '#23'));
};

/**
 * As pdf-lib's parseDictOrStream, remembering where each stream's data and end keyword are, and
 * never moving backwards on a negative /Length.
 */
const parseDictOrStream: ParseDictOrStream = function () {
  const startPos = this.bytes.position();
  const dict = this.parseDict();
  this.skipWhitespaceAndComments();
  if (!STREAM_KEYWORDS.some((k) => this.matchKeyword(k))) return dict;
  const start = this.bytes.offset();
  let end: number;
  const Length = dict.get(LENGTH);
  let keywordAt = -1;
  // A negative /Length sent pdf-lib back before the stream, where an earlier `endstream` could
  // match: it then parsed the same object again and again until memory ran out.
  if (Length instanceof PDFNumber && Length.asNumber() >= 0) {
    end = start + Length.asNumber();
    this.bytes.moveTo(end);
    this.skipWhitespaceAndComments();
    keywordAt = this.bytes.offset();
    if (!this.matchKeyword(ENDSTREAM)) {
      this.bytes.moveTo(start);
      end = this.findEndOfStreamFallback(startPos);
      keywordAt = -1;
    }
  } else {
    end = this.findEndOfStreamFallback(startPos);
  }
  // Every fallback leaves the parser just past the `endstream` it matched.
  if (keywordAt < 0) keywordAt = this.bytes.offset() - ENDSTREAM.length;
  const record = recordFor(this.context);
  record.streams.push({ dict, objectAt: record.objectAt, dataStart: start, keywordAt });
  return PDFRawStream.of(dict, this.bytes.slice(start, end));
};

/**
 * As pdf-lib's parseIndirectObjectHeader, remembering where each object starts. pdf-lib also
 * calls it to look ahead (past junk, past the header comment), but always at an object it then
 * parses from there, so what is remembered is where objects are.
 */
const parseIndirectObjectHeader: ParseIndirectObjectHeader = function () {
  this.skipWhitespaceAndComments();
  const at = this.bytes.offset();
  const ref = original.parseIndirectObjectHeader.call(this);
  const record = recordFor(this.context);
  record.objects.set(`${ref.objectNumber} ${ref.generationNumber}`, at);
  record.objectAt = at;
  record.first ??= { ref, at };
  return ref;
};

/** As pdf-lib's, remembering which objects an object stream lists, in which order. */
const parseOffsetsAndObjectNumbers: ParseOffsetsAndObjectNumbers = function () {
  const listed = original.parseOffsetsAndObjectNumbers.call(this);
  const record = recordFor(this.context);
  record.objectStreams.set(
    record.objectAt,
    listed.map((entry) => entry.objectNumber),
  );
  return listed;
};

/**
 * Puts the hooks in place (on by default once the PDF check is loaded) or takes them out; tests
 * compare pdf-lib's parse with and without them.
 */
export function useParserHooks(on: boolean): void {
  const { objectParser, documentParser, objectStreamParser } = patchPoints;
  objectParser.parseName = on ? parseName : original.parseName;
  objectParser.parseDictOrStream = on ? parseDictOrStream : original.parseDictOrStream;
  documentParser.parseIndirectObjectHeader = on
    ? parseIndirectObjectHeader
    : original.parseIndirectObjectHeader;
  objectStreamParser.parseOffsetsAndObjectNumbers = on
    ? parseOffsetsAndObjectNumbers
    : original.parseOffsetsAndObjectNumbers;
}
