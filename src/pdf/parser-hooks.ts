import {
  PDFName,
  PDFNumber,
  PDFObjectParser,
  PDFParser,
  PDFRawStream,
  type PDFContext,
  type PDFDict,
  type PDFObject,
  type PDFRef,
} from 'pdf-lib';
import { decodePdfName, isNameChar } from './pdf-names.js';

/**
 * What pdf-lib's parser is made to do and to remember, so that the strict check can compare its
 * view of a file with the view of readers that follow the cross-reference table:
 *
 * - names are decoded in both hex cases (pdf-lib decodes only `#41`-style upper case, so
 *   `/E#6ecrypt` was not /Encrypt to it, and `/R#6fot` was no /Root);
 * - where each top-level object was parsed, and which object that was;
 * - where each stream's data starts and where its `endstream` keyword is, so that its /Length
 *   can be held against what a reader that trusts /Length would read.
 *
 * pdf-lib parses a file front to back and ignores cross-reference offsets; readers do the
 * opposite. The records let the check make sure both arrive at the same objects.
 */

/** Where a top-level object was parsed, and the object pdf-lib kept from there. */
export interface ParsedObject {
  /** Offset of its `N G obj` header. */
  at: number;
  /** The object assigned from there; undefined for object and cross-reference streams. */
  object: PDFObject | undefined;
}

/** A stream as pdf-lib parsed it: where its data begins and where its `endstream` sits. */
export interface StreamSpan {
  dict: PDFDict;
  /** Offset of the `N G obj` header of the object it belongs to (-1 outside one). */
  objectAt: number;
  dataStart: number;
  keywordAt: number;
}

export interface ParseRecord {
  /** By `N G`: the last definition in file order, as pdf-lib keeps it. */
  objects: Map<string, ParsedObject>;
  /** The first object in the file, where a linearization dictionary would be. */
  first: ParsedObject | undefined;
  /** Every stream parsed, in file order, also those pdf-lib did not keep. */
  streams: StreamSpan[];
  /** Offset of the object being parsed. */
  objectAt: number;
  /** The reference pdf-lib assigned last, to tell assigned objects from stream containers. */
  lastAssigned: PDFRef | undefined;
}

const records = new WeakMap<PDFContext, ParseRecord>();

/** What the hooks recorded while this context was parsed (undefined when they were off). */
export function parseRecordOf(context: PDFContext): ParseRecord | undefined {
  return records.get(context);
}

function recordFor(context: PDFContext): ParseRecord {
  let record = records.get(context);
  if (!record) {
    const made: ParseRecord = {
      objects: new Map(),
      first: undefined,
      streams: [],
      objectAt: -1,
      lastAssigned: undefined,
    };
    const assign = context.assign.bind(context);
    context.assign = (ref, object) => {
      made.lastAssigned = ref;
      assign(ref, object);
    };
    records.set(context, made);
    record = made;
  }
  return record;
}

/** The parts of pdf-lib's parsers the hooks use; not in its type declarations. */
interface ParserInternals {
  context: PDFContext;
  bytes: {
    offset(): number;
    moveTo(offset: number): void;
    peek(): number;
    next(): number;
    assertNext(expected: number): number;
    done(): boolean;
    position(): unknown;
    slice(start: number, end: number): Uint8Array;
  };
  skipWhitespaceAndComments(): void;
  matchKeyword(keyword: number[]): boolean;
  parseDict(): PDFDict;
  findEndOfStreamFallback(startPos: unknown): number;
}

const keyword = (text: string) => [...Buffer.from(text, 'latin1')];
/** The spellings pdf-lib accepts after `stream`, longest first, as it tries them. */
const STREAM_KEYWORDS = ['stream \r\n', 'stream\r\n', 'stream\r', 'stream\n', 'stream'].map(
  keyword,
);
const ENDSTREAM = keyword('endstream');
const LENGTH = PDFName.of('Length');
const SLASH = 0x2f;

type ParseName = (this: ParserInternals) => PDFName;
type ParseDictOrStream = (this: ParserInternals) => PDFDict | PDFRawStream;
type ParseIndirectObject = (this: ParserInternals) => Promise<PDFRef>;

const objectProto = PDFObjectParser.prototype as unknown as {
  parseName: ParseName;
  parseDictOrStream: ParseDictOrStream;
};
const documentProto = PDFParser.prototype as unknown as {
  parseIndirectObject: ParseIndirectObject;
};
const original = {
  parseName: objectProto.parseName,
  parseDictOrStream: objectProto.parseDictOrStream,
  parseIndirectObject: documentProto.parseIndirectObject,
};

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

/** As pdf-lib's parseIndirectObject, remembering where each object was and what it became. */
const parseIndirectObject: ParseIndirectObject = async function () {
  this.skipWhitespaceAndComments();
  const at = this.bytes.offset();
  const record = recordFor(this.context);
  record.lastAssigned = undefined;
  record.objectAt = at;
  const ref = await original.parseIndirectObject.call(this);
  // Object and cross-reference streams are not assigned (an object stream assigns what it
  // holds, under other numbers): for them, lookup would find an older object.
  const object = record.lastAssigned === ref ? this.context.lookup(ref) : undefined;
  const parsed = { at, object };
  record.objects.set(`${ref.objectNumber} ${ref.generationNumber}`, parsed);
  record.first ??= parsed;
  record.objectAt = -1;
  return ref;
};

/**
 * Puts the hooks in place (on by default once the PDF check is loaded) or takes them out; tests
 * compare pdf-lib's parse with and without them.
 */
export function useParserHooks(on: boolean): void {
  objectProto.parseName = on ? parseName : original.parseName;
  objectProto.parseDictOrStream = on ? parseDictOrStream : original.parseDictOrStream;
  documentProto.parseIndirectObject = on ? parseIndirectObject : original.parseIndirectObject;
}
