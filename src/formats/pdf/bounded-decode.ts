import { AsyncLocalStorage } from 'node:async_hooks';
import { inflateSync } from 'node:zlib';
import { PDFArray, PDFName, decodePDFRawStream, type PDFRawStream } from 'pdf-lib';
import { PdfDamage } from './pdf-damage.js';

/** How far object and cross-reference streams may inflate while a PDF is checked. */
export interface StructureDecodeLimits {
  /** Decoded bytes of one object or cross-reference stream. */
  perStream: number;
  /** Decoded bytes of all of them in one PDF, counted as each is decoded. */
  perDocument: number;
}

/**
 * Object streams hold a PDF's small objects (dictionaries, not page content or images) and
 * cross-reference streams a few bytes per object, so real ones stay far below these. Per stream:
 * the limit page content has (MAX_PAGE_CONTENT_BYTES); per PDF: what a whole .docx may inflate to
 * (DOCPIPE_ZIP_MAX_UNCOMPRESSED_BYTES' default), so a PDF of many streams each under the first
 * costs no more than a zip bomb is allowed to. pdf-lib would otherwise decode them all in full
 * while loading. Sizes measured: docs/decisions.md, "Decoding limits in the PDF check".
 */
export const DEFAULT_STRUCTURE_DECODE_LIMITS: Readonly<StructureDecodeLimits> = Object.freeze({
  perStream: 64 * 1024 * 1024,
  perDocument: 256 * 1024 * 1024,
});

let limits: Readonly<StructureDecodeLimits> = DEFAULT_STRUCTURE_DECODE_LIMITS;

/** Replaces the limits (tests lower them to stay fast); returns the ones in force before. */
export function setStructureDecodeLimits(
  next: Readonly<StructureDecodeLimits>,
): Readonly<StructureDecodeLimits> {
  const previous = limits;
  limits = next;
  return previous;
}

const FILTER = PDFName.of('Filter');
const FLATE = PDFName.of('FlateDecode');

/**
 * What one PDF check may still decode. pdf-lib catches whatever its parser throws and throws
 * its own "Trying to parse invalid object" instead, so the first refusal is kept here for the
 * check to report. Streams decoded for pdf-lib are also kept by the offset of their object, for
 * the cross-reference reader, which reads the same streams again.
 */
export class DecodeBudget {
  private spent = 0;
  refused: PdfDamage | undefined;
  private readonly decoded = new Map<number, Uint8Array>();

  constructor(private readonly limits: Readonly<StructureDecodeLimits> = currentLimits()) {}

  /**
   * The stream's data with its filters undone (not its predictor), or {@link PdfDamage} of
   * reason `too-large` when it inflates past what is left. `objectAt` is its object's offset.
   */
  decode(stream: PDFRawStream, where: string, objectAt = -1): Uint8Array {
    const known = this.decoded.get(objectAt);
    if (known) return known;
    const cap = Math.min(this.limits.perStream, this.limits.perDocument - this.spent);
    const data = decodeUpTo(stream, cap);
    if (data === undefined) {
      const damage = new PdfDamage(`${where} inflates past ${this.limitText(cap)}`, 'too-large');
      this.refused ??= damage;
      throw damage;
    }
    this.spent += data.length;
    if (objectAt >= 0) this.decoded.set(objectAt, data);
    return data;
  }

  private limitText(cap: number): string {
    return cap === this.limits.perStream
      ? `${cap} bytes, the limit for one object or cross-reference stream`
      : `the ${this.limits.perDocument} bytes all of a PDF's object and cross-reference streams may decode to`;
  }
}

function currentLimits(): Readonly<StructureDecodeLimits> {
  return limits;
}

const budgets = new AsyncLocalStorage<DecodeBudget>();

/** Runs `work` (a PDF load and check) with its own budget, also across its awaits. */
export function withDecodeBudget<T>(budget: DecodeBudget, work: () => T): T {
  return budgets.run(budget, work);
}

/** The budget of the check in progress; outside one, a fresh budget with the limits. */
export function currentDecodeBudget(): DecodeBudget {
  return budgets.getStore() ?? new DecodeBudget();
}

/** Decoded data of at most `cap` bytes, or undefined when there is more. */
export function decodeUpTo(stream: PDFRawStream, cap: number): Uint8Array | undefined {
  if (isFlateOnly(stream)) {
    try {
      // zlib in C, stopping at the cap, is both the guard and the fast path.
      const data = inflateSync(stream.contents, { maxOutputLength: Math.max(1, cap) });
      return data.length > cap ? undefined : data;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return undefined;
      // zlib is stricter (checksum, cut data) than pdf-lib's own inflater, which decides below
      // as it did before, only bounded.
    }
  }
  return readUpTo(decodePDFRawStream(stream), cap);
}

/** Read in steps: asked for cap + 1 bytes at once, pdf-lib allocates a buffer of that size. */
const READ_STEP = 64 * 1024;

function readUpTo(
  decoder: ReturnType<typeof decodePDFRawStream>,
  cap: number,
): Uint8Array | undefined {
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    // Never clamped: getBytes makes a Uint8ClampedArray only when asked to.
    const part = decoder.getBytes(READ_STEP) as Uint8Array;
    if (part.length === 0) break;
    total += part.length;
    if (total > cap) return undefined;
    parts.push(part);
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts, total);
}

function isFlateOnly(stream: PDFRawStream): boolean {
  const filter = stream.dict.lookup(FILTER);
  if (filter === FLATE) return true;
  return filter instanceof PDFArray && filter.size() === 1 && filter.lookup(0) === FLATE;
}
