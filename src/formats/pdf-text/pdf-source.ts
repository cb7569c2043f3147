import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFObjectParser,
  PDFContext,
  PDFRawStream,
  PDFRef,
  PDFStream,
  type PDFObject,
} from 'pdf-lib';
import { asBuffer } from '../../base/util/index.js';
import {
  MAX_PAGE_CONTENT_BYTES,
  PdfDamage,
  decodeUpTo,
  readXrefChain,
  type XrefChain,
} from '../pdf/index.js';
import { afterObjectHeader, readObject } from './object-reader.js';
import { PdfTextError } from './pdf-text-error.js';

/** A page as the text layer reads it: its dictionary and, when it has one, its reference. */
export interface SourcePage {
  dict: PDFDict;
  ref: PDFRef | undefined;
}

/**
 * The objects of a PDF, whichever way it was loaded: through pdf-lib (the check's parse) or read
 * lazily from the bytes (only the page tree, resources, fonts and content the text layer needs).
 */
export interface PdfSource {
  /** The object a reference points at (a direct object is itself). */
  lookup(object: PDFObject | undefined): PDFObject | undefined;
  pages: SourcePage[];
  /** The newest trailer's entries an incremental update repeats, and the next free number. */
  trailer: SourceTrailer;
}

export interface SourceTrailer {
  root: PDFObject | undefined;
  info: PDFObject | undefined;
  id: PDFObject | undefined;
  /** One past the highest object number in use. */
  size: number;
}

/** Objects read for one call at most: pages, resources, fonts, forms and their streams. */
export const MAX_OBJECT_READS = 100_000;
/** As in the PDF check: a deeper page tree is no real document. */
const MAX_PAGE_TREE_DEPTH = 64;
/** References to references: one hop is already odd. */
const MAX_REF_HOPS = 8;

const KIDS = PDFName.of('Kids');
const PAGES = PDFName.of('Pages');
const ROOT = PDFName.of('Root');
const PARENT = PDFName.of('Parent');
const TYPE = PDFName.of('Type');
const N = PDFName.of('N');
const FIRST = PDFName.of('First');

/** The source of a PDF given as bytes or as a document pdf-lib loaded. */
export function sourceOf(pdf: Uint8Array | PDFDocument): PdfSource {
  if (pdf instanceof PDFDocument) return documentSource(pdf);
  return new LazyPdf(asBuffer(pdf));
}

function documentSource(doc: PDFDocument): PdfSource {
  const { context } = doc;
  const lookup = (object: PDFObject | undefined) =>
    object instanceof PDFRef ? context.lookup(object) : object;
  const { Root, Info, ID } = context.trailerInfo;
  return {
    lookup,
    pages: walkPages(lookup, Root),
    trailer: { root: Root, info: Info, id: ID, size: context.largestObjectNumber + 1 },
  };
}

/** The page leaves in order, each once, depth-bounded and loop-proof. */
function walkPages(
  lookup: (object: PDFObject | undefined) => PDFObject | undefined,
  root: PDFObject | undefined,
): SourcePage[] {
  const catalog = lookup(root);
  if (!(catalog instanceof PDFDict)) throw new PdfTextError('damaged', 'has no catalog');
  const pages: SourcePage[] = [];
  const seen = new Set<PDFObject>();
  const visit = (node: PDFObject | undefined, depth: number): void => {
    const ref = node instanceof PDFRef ? node : undefined;
    const dict = lookup(node);
    if (!(dict instanceof PDFDict) || seen.has(dict)) return;
    seen.add(dict);
    const kids = lookup(dict.get(KIDS));
    if (kids instanceof PDFArray && dict.get(TYPE) !== PDFName.of('Page')) {
      if (depth >= MAX_PAGE_TREE_DEPTH)
        throw new PdfTextError('too-deep', `has a page tree deeper than ${MAX_PAGE_TREE_DEPTH}`);
      for (let i = 0; i < kids.size(); i++) visit(kids.get(i), depth + 1);
    } else pages.push({ dict, ref });
  };
  visit(catalog.get(PAGES), 0);
  if (pages.length === 0) throw new PdfTextError('damaged', 'has no pages');
  return pages;
}

/** A page's attribute or its nearest ancestor's (Resources are inherited), bounded. */
export function inheritedOf(source: PdfSource, page: PDFDict, key: PDFName): PDFObject | undefined {
  let node: PDFObject | undefined = page;
  for (let depth = 0; depth <= MAX_PAGE_TREE_DEPTH && node instanceof PDFDict; depth++) {
    const value = node.get(key);
    if (value !== undefined) return value;
    node = source.lookup(node.get(PARENT));
  }
  return undefined;
}

/** A stream's data with its filters undone, at most `cap` bytes. */
export function streamData(stream: PDFObject | undefined, cap: number, what: string): Uint8Array {
  let data: Uint8Array | undefined;
  try {
    if (stream instanceof PDFRawStream) data = decodeUpTo(stream, cap);
    else if (stream instanceof PDFStream) {
      const maybe = stream as PDFStream & { getUnencodedContents?: () => Uint8Array };
      data = maybe.getUnencodedContents ? maybe.getUnencodedContents() : stream.getContents();
      if (data.length > cap) data = undefined;
    } else return new Uint8Array(0);
  } catch (err) {
    throw new PdfTextError(
      'damaged',
      `has ${what} that does not decode (${String((err as Error).message).slice(0, 100)})`,
    );
  }
  if (data === undefined)
    throw new PdfTextError('too-large', `has ${what} that inflates past ${cap} bytes`);
  return data;
}

/**
 * Objects read from the bytes on demand through the cross-reference chain (tables, streams and
 * object streams), as readers do: the text layer of a page needs a few dozen objects, and a
 * whole parse with pdf-lib costs many times more (and is asynchronous).
 */
class LazyPdf implements PdfSource {
  readonly pages: SourcePage[];
  readonly trailer: SourceTrailer;
  private readonly context = PDFContext.create();
  private readonly chain: XrefChain;
  private readonly objects = new Map<number, PDFObject | undefined>();
  private readonly objectStreams = new Map<
    number,
    { data: Uint8Array; offsets: Map<number, number> }
  >();
  private reads = 0;

  constructor(private readonly bytes: Buffer) {
    try {
      this.chain = readXrefChain(bytes, this.context);
    } catch (err) {
      if (err instanceof PdfDamage)
        throw new PdfTextError(err.reason === 'too-large' ? 'too-large' : 'damaged', err.message);
      throw err;
    }
    const { trailer, entries } = this.chain;
    this.pages = walkPages((o) => this.lookup(o), trailer.get(ROOT));
    let size = 0;
    for (const number of entries.keys()) if (number >= size) size = number + 1;
    const given = trailer.get(PDFName.of('Size'));
    if (given instanceof PDFNumber && given.asNumber() > size) size = given.asNumber();
    this.trailer = {
      root: trailer.get(ROOT),
      info: trailer.get(PDFName.of('Info')),
      id: trailer.get(PDFName.of('ID')),
      size,
    };
  }

  lookup(object: PDFObject | undefined): PDFObject | undefined {
    for (let hop = 0; object instanceof PDFRef && hop < MAX_REF_HOPS; hop++)
      object = this.read(object.objectNumber);
    return object instanceof PDFRef ? undefined : object;
  }

  private read(number: number): PDFObject | undefined {
    if (this.objects.has(number)) return this.objects.get(number);
    if (++this.reads > MAX_OBJECT_READS)
      throw new PdfTextError('too-large', `needs more than ${MAX_OBJECT_READS} objects read`);
    this.objects.set(number, undefined); // a reference loop reads as nothing
    let object: PDFObject | undefined;
    try {
      object = this.parse(number);
    } catch (err) {
      if (err instanceof PdfTextError) throw err;
      object = undefined; // an object that does not parse is null, as readers take it
    }
    this.objects.set(number, object);
    return object;
  }

  private parse(number: number): PDFObject | undefined {
    const entry = this.chain.entries.get(number);
    if (!entry || entry.kind === 'free') return undefined;
    if (entry.kind === 'offset') {
      const from = afterObjectHeader(this.bytes, entry.offset);
      if (from < 0) return undefined;
      return this.parseAt(this.bytes, from);
    }
    const holder = this.objectStream(entry.stream);
    const at = holder?.offsets.get(number);
    if (!holder || at === undefined) return undefined;
    return this.parseAt(holder.data, at);
  }

  /** The object at `at`: read fast when it is plain, else by pdf-lib's parser (streams). */
  private parseAt(data: Uint8Array, at: number): PDFObject {
    return (
      readObject(data, at, this.context) ??
      PDFObjectParser.forBytes(data.subarray(at), this.context).parseObject()
    );
  }

  private objectStream(
    number: number,
  ): { data: Uint8Array; offsets: Map<number, number> } | undefined {
    const known = this.objectStreams.get(number);
    if (known) return known;
    const stream = this.lookup(PDFRef.of(number));
    if (!(stream instanceof PDFRawStream)) return undefined;
    const data = streamData(stream, MAX_PAGE_CONTENT_BYTES, `object stream ${number}`);
    const count = stream.dict.get(N);
    const first = stream.dict.get(FIRST);
    if (!(count instanceof PDFNumber) || !(first instanceof PDFNumber)) return undefined;
    const numbers = Buffer.from(
      data.buffer,
      data.byteOffset,
      Math.min(data.length, first.asNumber()),
    )
      .toString('latin1')
      .trim()
      .split(/\s+/)
      .map(Number);
    const offsets = new Map<number, number>();
    for (let i = 0; i + 1 < numbers.length && i / 2 < count.asNumber(); i += 2)
      offsets.set(numbers[i]!, first.asNumber() + numbers[i + 1]!);
    const holder = { data, offsets };
    this.objectStreams.set(number, holder);
    return holder;
  }
}
