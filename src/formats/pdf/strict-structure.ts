import {
  PDFArray,
  PDFCatalog,
  PDFDict,
  PDFRawStream,
  PDFName,
  PDFNumber,
  PDFRef,
  type PDFContext,
  type PDFDocument,
  type PDFObject,
} from 'pdf-lib';
import { checkLinearization } from './linearization.js';
import { pagesOf } from './page-tree.js';
import { newParseRecord, parseRecordOf, type ParseRecord } from './parser-hooks.js';
import { PdfDamage } from './pdf-damage.js';
import { isPdfWhitespace } from '../pdf-bytes/index.js';
import { readXrefChain, type XrefChain } from './xref-chain.js';

const ENCRYPT = PDFName.of('Encrypt');
const ROOT = PDFName.of('Root');
const LENGTH = PDFName.of('Length');
const SIZE = PDFName.of('Size');

/**
 * Holds a PDF that pdf-lib parsed against what poppler and pdf.js read without repairing it,
 * and returns its page count. pdf-lib parses front to back and mends what it meets (a wrong
 * /Length, a missing /Root); readers follow startxref, the cross-reference entries and /Length,
 * and repair, each in its own way, only when those fail. So a PDF passes only when:
 *
 * - the cross-reference chain reads (startxref, tables or streams, /Prev, /XRefStm) and every
 *   entry in use points at the object pdf-lib kept for that number;
 * - every stream's /Length ends its data where its `endstream` is;
 * - the newest trailer has no /Encrypt and its /Root is the catalog pdf-lib uses;
 * - the page tree is a tree of bounded depth whose every /Count is right ({@link pagesOf});
 * - a linearized file's linearization dictionary agrees with it ({@link checkLinearization}).
 *
 * Returns the pages in order. Throws {@link PdfDamage} naming the first fault found.
 */
export function checkStructure(bytes: Buffer, doc: PDFDocument): PDFRef[] {
  const { context } = doc;
  const record = parseRecordOf(context) ?? emptyRecord(context);
  const chain = readXrefChain(bytes, context);
  if (chain.trailer.has(ENCRYPT) || doc.isEncrypted)
    throw new PdfDamage('is encrypted (its trailer has an /Encrypt entry)', 'encrypted');
  checkSize(chain);
  const isListed = listedIn(chain);
  checkEntries(bytes, chain, record);
  checkReferences(context, chain);
  checkStreamLengths(bytes, record, context, isListed);
  const root = chain.trailer.get(ROOT);
  if (!(root instanceof PDFRef)) throw new PdfDamage('its trailer has no /Root reference');
  const catalog = isListed(root) ? context.lookup(root) : undefined;
  if (!(catalog instanceof PDFCatalog))
    throw new PdfDamage(`its trailer's /Root (${String(root)}) is not a catalog`);
  if (context.trailerInfo.Root !== root)
    throw new PdfDamage('its trailers name different catalogs as /Root');
  const pages = pagesOf(context, catalog, isListed);
  checkLinearization(bytes, context, record, chain, pages);
  return pages;
}

/** A file in which pdf-lib found no object at all; objects without a record mean hooks off. */
function emptyRecord(context: PDFContext): ParseRecord {
  if (context.enumerateIndirectObjects().length > 0)
    throw new Error('the parser hooks were off while this PDF was parsed');
  return newParseRecord();
}

/** /Size is one past the highest object number; poppler warns and guesses without it. */
function checkSize(chain: XrefChain): void {
  const size = chain.trailer.get(SIZE);
  const value = size instanceof PDFNumber ? size.asNumber() : NaN;
  // A loop, not Math.max(...keys): a large table would overflow the call's arguments.
  let highest = 0;
  for (const number of chain.entries.keys()) if (number > highest) highest = number;
  if (!Number.isInteger(value) || value <= highest)
    throw new PdfDamage(
      `its trailer's /Size (${String(size)}) is not one past its highest object number (${highest})`,
    );
}

/** Whether readers resolve a reference through the cross-reference entries. */
function listedIn(chain: XrefChain): (ref: PDFRef) => boolean {
  return (ref) => {
    const entry = chain.entries.get(ref.objectNumber);
    if (entry?.kind === 'offset') return entry.generation === ref.generationNumber;
    return entry?.kind === 'compressed' && ref.generationNumber === 0;
  };
}

function checkEntries(bytes: Buffer, chain: XrefChain, record: ParseRecord): void {
  for (const [number, entry] of chain.entries) {
    if (entry.kind === 'offset') {
      const name = `${number} ${entry.generation}`;
      const header = record.objects.get(name);
      if (header === undefined || skipWhitespace(bytes, entry.offset) !== header)
        throw new PdfDamage(
          `its cross-reference entry for object ${name} points at offset ${entry.offset}, ${
            header !== undefined
              ? `but the object pdf-lib reads is at ${header}`
              : 'where there is no such object'
          }`,
        );
      // What pdf-lib keeps under this number came from elsewhere (an earlier copy, when this is
      // an object stream, or an object stream after it).
      const defined = record.definedAt.get(name);
      if (defined !== undefined && defined !== header)
        throw new PdfDamage(`object ${name} is defined more than once`);
    } else if (entry.kind === 'compressed') {
      const container = record.objects.get(`${entry.stream} 0`);
      const listed = container === undefined ? undefined : record.objectStreams.get(container);
      if (chain.entries.get(entry.stream)?.kind !== 'offset' || !listed)
        throw new PdfDamage(
          `its cross-reference entry for object ${number} 0 names object stream ${entry.stream}, which is none`,
        );
      if (listed[entry.index] !== number)
        throw new PdfDamage(
          `its cross-reference entry for object ${number} 0 names place ${entry.index} in object stream ${entry.stream}, which holds ${listed[entry.index] === undefined ? 'nothing' : `object ${listed[entry.index]}`} there`,
        );
      if (record.definedAt.get(`${number} 0`) !== container)
        throw new PdfDamage(`object ${number} 0 is defined more than once`);
    }
  }
}

/**
 * Every object pdf-lib holds has an entry, and every reference, in any object or the trailer,
 * leads to one: poppler rebuilds its whole table when it needs an object the table does not
 * list, and pdf.js when an entry in use points wrong, each in its own way. A reference to an
 * entry a later update freed is null to every reader alike, and stays allowed.
 */
function checkReferences(context: PDFContext, chain: XrefChain): void {
  const unresolved = (ref: PDFRef): boolean => {
    const entry = chain.entries.get(ref.objectNumber);
    if (entry === undefined) return true;
    if (entry.kind === 'offset') return entry.generation !== ref.generationNumber;
    return entry.kind === 'compressed' && ref.generationNumber !== 0;
  };
  const objects: [string, PDFObject][] = [['the trailer', chain.trailer]];
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (unresolved(ref))
      throw new PdfDamage(`object ${tagOf(ref)} is not in its cross-reference table`);
    objects.push([`object ${tagOf(ref)}`, object]);
  }
  for (const [where, object] of objects) {
    const found = referencesIn(object).find(unresolved);
    if (found)
      throw new PdfDamage(
        `${where} refers to ${String(found)}, which its cross-reference table does not list`,
      );
  }
}

const tagOf = (ref: PDFRef) => `${ref.objectNumber} ${ref.generationNumber}`;

/** The references a value holds, however deep, without recursion. */
function referencesIn(value: PDFObject): PDFRef[] {
  const refs: PDFRef[] = [];
  const stack: PDFObject[] = [value];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item instanceof PDFRef) refs.push(item);
    else if (item instanceof PDFRawStream) stack.push(item.dict);
    else if (item instanceof PDFDict) for (const [, v] of item.entries()) stack.push(v);
    else if (item instanceof PDFArray)
      for (let i = 0; i < item.size(); i++) stack.push(item.get(i));
  }
  return refs;
}

/**
 * A reader takes /Length bytes and expects `endstream` after white-space (poppler, pdf.js); pdf-lib
 * searches for `endstream` when /Length does not fit. Both read the same data only when /Length,
 * direct or indirect, ends where only white-space or comments separate it from the keyword.
 */
function checkStreamLengths(
  bytes: Buffer,
  record: ParseRecord,
  context: PDFContext,
  isListed: (ref: PDFRef) => boolean,
): void {
  const streams = streamsByDict(context);
  for (const span of record.streams) {
    let length: PDFObject | undefined = span.dict.get(LENGTH);
    const where =
      span.objectAt >= 0 ? `the stream of the object at offset ${span.objectAt}` : 'a stream';
    if (length instanceof PDFRef) {
      if (!isListed(length))
        throw new PdfDamage(`${where} has its /Length in ${String(length)}, which is not listed`);
      length = context.lookup(length);
    }
    const value = length instanceof PDFNumber ? length.asNumber() : NaN;
    if (!Number.isInteger(value) || value < 0)
      throw new PdfDamage(`${where} has no valid /Length (${String(length)})`);
    const end = span.dataStart + value;
    if (
      end > span.keywordAt ||
      skipWhitespaceAndComments(bytes, end, span.keywordAt) !== span.keywordAt
    )
      throw new PdfDamage(
        `${where} says /Length ${value}, but its data ends ${span.keywordAt - span.dataStart} bytes in, at endstream`,
      );
    // With an indirect /Length, pdf-lib searched for `endstream` and cut the line break before
    // it, and with it the data's own last byte when that byte is CR or LF (1 stream in 128 of
    // deflated data): what readers take is the /Length bytes, so the stream holds those.
    const stream = streams.get(span.dict);
    if (stream && stream.contents.length !== value)
      (stream as { contents: Uint8Array }).contents = bytes.subarray(span.dataStart, end);
  }
}

/** Each parsed stream by its dictionary, which is what the parse record keeps of it. */
function streamsByDict(context: PDFContext): Map<PDFDict, PDFRawStream> {
  const streams = new Map<PDFDict, PDFRawStream>();
  for (const [, object] of context.enumerateIndirectObjects())
    if (object instanceof PDFRawStream) streams.set(object.dict, object);
  return streams;
}

function skipWhitespace(bytes: Buffer, at: number): number {
  while (at < bytes.length && isPdfWhitespace(bytes[at]!)) at++;
  return at;
}

/** Past white-space and `%` comments, up to `limit`. */
function skipWhitespaceAndComments(bytes: Buffer, at: number, limit: number): number {
  while (at < limit) {
    const c = bytes[at]!;
    if (isPdfWhitespace(c)) at++;
    else if (c === 0x25) {
      while (at < limit && bytes[at] !== 0x0a && bytes[at] !== 0x0d) at++;
    } else break;
  }
  return at;
}
