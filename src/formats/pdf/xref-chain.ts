import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFRawStream,
  type PDFContext,
  type PDFObject,
} from 'pdf-lib';
import { currentDecodeBudget } from './bounded-decode.js';
import { objectParserFor, type ObjectParserInternals } from './pdf-lib-internals.js';
import { isPdfWhitespace } from '../pdf-bytes/index.js';
import { PdfDamage } from './pdf-damage.js';
import { unpredict } from './xref-predictor.js';

/** One cross-reference entry, as readers look objects up. */
export type XrefEntry =
  | { kind: 'free' }
  | { kind: 'offset'; offset: number; generation: number }
  | { kind: 'compressed'; stream: number; index: number };

/** The cross-reference data readers follow from `startxref` through every /Prev. */
export interface XrefChain {
  /** The newest trailer: where readers take /Root, /Encrypt and /Info from. */
  trailer: PDFDict;
  /** By object number, the newest entry. */
  entries: Map<number, XrefEntry>;
  /** The section startxref points at: a table or a stream, and the numbers it lists. */
  newest: { table: boolean; numbers: Set<number> };
}

/** More sections than any incremental history has; past it the /Prev chain is taken as broken. */
const MAX_SECTIONS = 4096;
/** How far from the end readers look for `startxref`. */
const STARTXREF_WINDOW = 2048;
const STARTXREF = Buffer.from('startxref', 'latin1');
const XREF = Buffer.from('xref', 'latin1');
const TRAILER = Buffer.from('trailer', 'latin1');

interface Section {
  table: boolean;
  trailer: PDFDict;
  entries: [number, XrefEntry][];
}

type ObjectParser = Pick<ObjectParserInternals, 'bytes' | 'parseObject'>;

/** Reads the chain as poppler and pdf.js do without repairing; any fault is {@link PdfDamage}. */
export function readXrefChain(bytes: Buffer, context: PDFContext): XrefChain {
  const parser = objectParserFor(bytes, context);
  const entries = new Map<number, XrefEntry>();
  const visited = new Set<number>();
  let trailer: PDFDict | undefined;
  let newest: XrefChain['newest'] | undefined;
  let offset: number | undefined = startxref(bytes);
  while (offset !== undefined) {
    if (visited.has(offset)) throw new PdfDamage(`its /Prev chain loops back to offset ${offset}`);
    if (visited.size >= MAX_SECTIONS)
      throw new PdfDamage(`it has more than ${MAX_SECTIONS} cross-reference sections`);
    visited.add(offset);
    const sections = readSections(bytes, offset, parser);
    for (const section of sections) {
      for (const [number, entry] of section.entries)
        if (!entries.has(number)) entries.set(number, entry);
    }
    const latest = sections[0]!.trailer;
    trailer ??= latest;
    newest ??= {
      table: sections[0]!.table,
      numbers: new Set(sections.flatMap((section) => section.entries.map(([n]) => n))),
    };
    const prev = latest.get(PDFName.of('Prev'));
    if (prev !== undefined && !isOffset(prev, bytes))
      throw new PdfDamage(`a trailer's /Prev is not an offset in the file (${String(prev)})`);
    offset = prev === undefined ? undefined : prev.asNumber();
  }
  return { trailer: trailer!, entries, newest: newest! };
}

function isOffset(value: PDFObject | undefined, bytes: Buffer): value is PDFNumber {
  if (!(value instanceof PDFNumber)) return false;
  const n = value.asNumber();
  return Number.isInteger(n) && n >= 0 && n < bytes.length;
}

function startxref(bytes: Buffer): number {
  const at = bytes.lastIndexOf(STARTXREF);
  if (at < 0 || at < bytes.length - STARTXREF_WINDOW)
    throw new PdfDamage('it has no startxref at its end');
  const match = /^\s*(\d+)/.exec(
    bytes.subarray(at + STARTXREF.length, at + STARTXREF.length + 32).toString('latin1'),
  );
  const offset = match ? Number(match[1]) : NaN;
  if (!(offset < bytes.length)) throw new PdfDamage('its startxref is not an offset in the file');
  return offset;
}

/** The section at an offset: a table (with the stream a hybrid trailer names) or a stream. */
function readSections(bytes: Buffer, offset: number, parser: ObjectParser): Section[] {
  let at = offset;
  while (at < bytes.length && isPdfWhitespace(bytes[at]!)) at++;
  if (bytes.subarray(at, at + XREF.length).equals(XREF)) {
    const table = readTable(bytes, at + XREF.length, parser);
    const hybrid = table.trailer.get(PDFName.of('XRefStm'));
    if (hybrid === undefined) return [table];
    if (!isOffset(hybrid, bytes))
      throw new PdfDamage(
        `its trailer's /XRefStm is not an offset in the file (${String(hybrid)})`,
      );
    return [table, readStream(bytes, hybrid.asNumber(), parser)];
  }
  return [readStream(bytes, offset, parser)];
}

/** Tokens of a classic table: numbers and the `n`/`f` markers, up to `trailer`. */
function readTable(bytes: Buffer, from: number, parser: ObjectParser): Section {
  const entries: [number, XrefEntry][] = [];
  const malformed = () =>
    new PdfDamage(`its cross-reference table at offset ${from - 4} is malformed`);
  // Read byte by byte: a table has three tokens an object, and strings for each cost more than
  // the rest of the check.
  let at = from;
  const skip = () => {
    while (at < bytes.length && isPdfWhitespace(bytes[at]!)) at++;
  };
  const integer = (): number => {
    skip();
    const start = at;
    let value = 0;
    while (at < bytes.length && bytes[at]! >= 0x30 && bytes[at]! <= 0x39)
      value = value * 10 + bytes[at++]! - 0x30;
    if (at === start || at - start > 10 || (at < bytes.length && !isPdfWhitespace(bytes[at]!)))
      throw malformed();
    return value;
  };
  for (;;) {
    skip();
    if (bytes.subarray(at, at + TRAILER.length).equals(TRAILER)) {
      at += TRAILER.length;
      break;
    }
    const first = integer();
    const count = integer();
    // Each entry takes at least 6 bytes ("0 0 n" and a separator): a count past that is a lie.
    if (count * 6 > bytes.length - at) throw malformed();
    for (let i = 0; i < count; i++) {
      const offset = integer();
      const generation = integer();
      skip();
      const marker = bytes[at++];
      if (at < bytes.length && !isPdfWhitespace(bytes[at]!)) throw malformed();
      if (marker === 0x6e) entries.push([first + i, { kind: 'offset', offset, generation }]);
      else if (marker === 0x66) entries.push([first + i, { kind: 'free' }]);
      else throw malformed();
    }
  }
  parser.bytes.moveTo(at);
  let trailer: PDFObject;
  try {
    trailer = parser.parseObject();
  } catch {
    throw new PdfDamage(
      `the trailer after its cross-reference table at offset ${from - 4} does not parse`,
    );
  }
  if (!(trailer instanceof PDFDict))
    throw new PdfDamage(
      `the trailer after its cross-reference table at offset ${from - 4} is not a dictionary`,
    );
  return { table: true, trailer, entries };
}

function readStream(bytes: Buffer, offset: number, parser: ObjectParser): Section {
  const header = /^\s*(\d+)\s+(\d+)\s+obj/.exec(
    bytes.subarray(offset, offset + 64).toString('latin1'),
  );
  if (!header)
    throw new PdfDamage(
      `startxref or /Prev points at offset ${offset}, where there is no cross-reference section`,
    );
  parser.bytes.moveTo(offset + header[0].length);
  let stream: PDFObject;
  try {
    stream = parser.parseObject();
  } catch {
    throw new PdfDamage(`its cross-reference stream at offset ${offset} does not parse`);
  }
  if (
    !(stream instanceof PDFRawStream) ||
    stream.dict.get(PDFName.of('Type')) !== PDFName.of('XRef')
  )
    throw new PdfDamage(
      `startxref or /Prev points at offset ${offset}, where there is no cross-reference section`,
    );
  const objectAt = offset + header[0].search(/\d/);
  return { table: false, trailer: stream.dict, entries: streamEntries(stream, offset, objectAt) };
}

function streamEntries(
  stream: PDFRawStream,
  offset: number,
  objectAt: number,
): [number, XrefEntry][] {
  const { dict } = stream;
  const bad = (what: string) =>
    new PdfDamage(`its cross-reference stream at offset ${offset} ${what}`);
  const widths = integers(dict.get(PDFName.of('W')));
  if (widths?.length !== 3 || widths.some((w) => w > 8)) throw bad('has no valid /W');
  const rowWidth = widths[0]! + widths[1]! + widths[2]!;
  const size = dict.get(PDFName.of('Size'));
  const index = dict.has(PDFName.of('Index'))
    ? integers(dict.get(PDFName.of('Index')))
    : size instanceof PDFNumber
      ? [0, size.asNumber()]
      : undefined;
  if (!index || index.length % 2 !== 0 || rowWidth === 0) throw bad('has no valid /Index or /Size');
  let data: Uint8Array;
  try {
    // Bounded, and decoded once: pdf-lib's load decoded this stream through the same budget.
    const decoded = currentDecodeBudget().decode(
      stream,
      `its cross-reference stream at offset ${offset}`,
      objectAt,
    );
    data = unpredict(decoded, dict, rowWidth);
  } catch (err) {
    if (err instanceof PdfDamage) throw err;
    throw bad(`cannot be decoded (${(err as Error).message.slice(0, 100)})`);
  }
  const rows = index.reduce((sum, n, i) => (i % 2 === 1 ? sum + n : sum), 0);
  if (rows * rowWidth > data.length) throw bad('holds fewer entries than its /Index says');
  const entries: [number, XrefEntry][] = [];
  let at = 0;
  const field = (width: number, fallback: number): number => {
    if (width === 0) return fallback;
    let value = 0;
    for (let i = 0; i < width; i++) value = value * 256 + data[at++]!;
    return value;
  };
  for (let pair = 0; pair < index.length; pair += 2) {
    for (let i = 0; i < index[pair + 1]!; i++) {
      const type = field(widths[0]!, 1);
      const second = field(widths[1]!, 0);
      const third = field(widths[2]!, 0);
      const number = index[pair]! + i;
      if (type === 0) entries.push([number, { kind: 'free' }]);
      else if (type === 1)
        entries.push([number, { kind: 'offset', offset: second, generation: third }]);
      else if (type === 2)
        entries.push([number, { kind: 'compressed', stream: second, index: third }]);
    }
  }
  return entries;
}

/** A direct array of non-negative integers, or undefined. */
function integers(value: PDFObject | undefined): number[] | undefined {
  if (!(value instanceof PDFArray)) return undefined;
  const out: number[] = [];
  for (let i = 0; i < value.size(); i++) {
    const item = value.get(i);
    if (!(item instanceof PDFNumber)) return undefined;
    const n = item.asNumber();
    if (!Number.isInteger(n) || n < 0) return undefined;
    out.push(n);
  }
  return out;
}
