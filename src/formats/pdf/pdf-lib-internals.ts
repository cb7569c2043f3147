import { createRequire } from 'node:module';
import {
  PDFContext,
  PDFObjectParser,
  PDFObjectStreamParser,
  PDFParser,
  PDFRawStream,
  PDFXRefStreamParser,
  type PDFDict,
  type PDFName,
  type PDFObject,
  type PDFRef,
} from 'pdf-lib';

/**
 * Every pdf-lib internal docpipe reads, calls or replaces is declared here, and only here. pdf-lib
 * has no hooks for what the PDF check needs (a bounded decode, where objects and streams were
 * parsed, names in both hex cases, a faster `endstream` search), so the check replaces parser
 * methods and reads members that pdf-lib's declarations mark protected or private.
 *
 * pdf-lib is pinned to this exact version in package.json; {@link checkPdfLibInternals} runs when
 * the PDF check loads, before anything is patched, and test/unit/dependency-pdf-lib.test.ts holds
 * the pin and the behaviour each patch relies on.
 */
export const PDF_LIB_VERSION = '1.17.1';

/** A position in pdf-lib's byte stream, as its parse errors take it. */
export interface StreamPosition {
  line: number;
  column: number;
  offset: number;
}

/** pdf-lib's ByteStream: its public methods, and its private `bytes` (the whole input). */
export interface ByteStreamInternals {
  bytes: Uint8Array;
  offset(): number;
  moveTo(offset: number): void;
  peek(): number;
  next(): number;
  assertNext(expected: number): number;
  done(): boolean;
  position(): StreamPosition;
  slice(start: number, end: number): Uint8Array;
}

/** The protected members of pdf-lib's object parser (and the parsers built on it) used here. */
export interface ObjectParserInternals {
  context: PDFContext;
  bytes: ByteStreamInternals;
  skipWhitespaceAndComments(): void;
  matchKeyword(keyword: number[]): boolean;
  parseDict(): PDFDict;
  parseObject(): PDFObject;
  findEndOfStreamFallback(startPos: StreamPosition): number;
}

/** The private members of pdf-lib's cross-reference stream parser used here. */
export interface XrefStreamParserInternals {
  subsections: { firstObjectNumber: number; length: number }[];
  byteWidths: number[];
  parseIntoContext(): unknown[];
}

export type FindEndOfStreamFallback = (
  this: ObjectParserInternals,
  startPos: StreamPosition,
) => number;
export type ParseName = (this: ObjectParserInternals) => PDFName;
export type ParseDictOrStream = (this: ObjectParserInternals) => PDFDict | PDFRawStream;
export type ParseIndirectObjectHeader = (this: ObjectParserInternals) => PDFRef;
export type ParseOffsetsAndObjectNumbers = (
  this: ObjectParserInternals,
) => { objectNumber: number; offset: number }[];
export type ObjectStreamForStream = (
  stream: PDFRawStream,
  shouldWaitForTick?: () => boolean,
) => unknown;
export type XrefStreamForStream = (stream: PDFRawStream) => XrefStreamParserInternals;

/** The places docpipe replaces pdf-lib's code, typed as they are used. */
export const patchPoints = {
  /** Also the prototype PDFParser and PDFObjectStreamParser inherit these from. */
  objectParser: PDFObjectParser.prototype as unknown as {
    findEndOfStreamFallback: FindEndOfStreamFallback;
    parseName: ParseName;
    parseDictOrStream: ParseDictOrStream;
  },
  documentParser: PDFParser.prototype as unknown as {
    parseIndirectObjectHeader: ParseIndirectObjectHeader;
  },
  objectStreamParser: PDFObjectStreamParser.prototype as unknown as {
    parseOffsetsAndObjectNumbers: ParseOffsetsAndObjectNumbers;
  },
  /** Static factories pdf-lib's document parser calls through the exported classes. */
  objectStreamParserClass: PDFObjectStreamParser as unknown as { forStream: ObjectStreamForStream },
  xrefStreamParserClass: PDFXRefStreamParser as unknown as { forStream: XrefStreamForStream },
};

/** pdf-lib's own code at each patch point, taken before any module here patches it. */
export const pdfLibOriginals = Object.freeze({
  findEndOfStreamFallback: patchPoints.objectParser.findEndOfStreamFallback,
  parseName: patchPoints.objectParser.parseName,
  parseDictOrStream: patchPoints.objectParser.parseDictOrStream,
  parseIndirectObjectHeader: patchPoints.documentParser.parseIndirectObjectHeader,
  parseOffsetsAndObjectNumbers: patchPoints.objectStreamParser.parseOffsetsAndObjectNumbers,
  objectStreamForStream: patchPoints.objectStreamParserClass.forStream,
  xrefStreamForStream: patchPoints.xrefStreamParserClass.forStream,
});

/** An object parser over `bytes`, with its protected members in view. */
export function objectParserFor(bytes: Uint8Array, context: PDFContext): ObjectParserInternals {
  return PDFObjectParser.forBytes(bytes, context) as unknown as ObjectParserInternals;
}

/** A function member docpipe replaces or calls, and how many parameters pdf-lib declares. */
export interface PdfLibMember {
  where: string;
  fn: unknown;
  arity: number;
}

const inherited = PDFObjectParser.prototype as unknown as Record<string, unknown>;

/** Every function member used: the patched ones as pdf-lib had them, then the ones called. */
export const PDF_LIB_MEMBERS: readonly PdfLibMember[] = [
  ...(
    [
      ['PDFObjectParser.prototype.findEndOfStreamFallback', 'findEndOfStreamFallback', 1],
      ['PDFObjectParser.prototype.parseName', 'parseName', 0],
      ['PDFObjectParser.prototype.parseDictOrStream', 'parseDictOrStream', 0],
      ['PDFParser.prototype.parseIndirectObjectHeader', 'parseIndirectObjectHeader', 0],
      [
        'PDFObjectStreamParser.prototype.parseOffsetsAndObjectNumbers',
        'parseOffsetsAndObjectNumbers',
        0,
      ],
      ['PDFObjectStreamParser.forStream', 'objectStreamForStream', 2],
      ['PDFXRefStreamParser.forStream', 'xrefStreamForStream', 1],
    ] as const
  ).map(([where, key, arity]) => ({ where, fn: pdfLibOriginals[key], arity })),
  ...(
    [
      ['skipWhitespaceAndComments', 0],
      ['matchKeyword', 1],
      ['parseDict', 0],
      ['parseObject', 0],
    ] as const
  ).map(([name, arity]) => ({
    where: `PDFObjectParser.prototype.${name}`,
    fn: inherited[name],
    arity,
  })),
];

const BYTE_STREAM_METHODS = [
  'offset',
  'moveTo',
  'peek',
  'next',
  'assertNext',
  'done',
  'position',
  'slice',
] as const;

/** The version of pdf-lib that Node resolves from here. */
export function installedPdfLibVersion(): string {
  const require = createRequire(import.meta.url);
  return (require('pdf-lib/package.json') as { version: string }).version;
}

/**
 * What is wrong with pdf-lib's internals as docpipe uses them: another version, a member gone or
 * of another arity, or instance fields no longer where they were. Empty when all is in place.
 */
export function pdfLibInternalsProblems(
  version: string = installedPdfLibVersion(),
  members: readonly PdfLibMember[] = PDF_LIB_MEMBERS,
): string[] {
  const problems: string[] = [];
  if (version !== PDF_LIB_VERSION)
    problems.push(`version ${version} is installed, not ${PDF_LIB_VERSION}`);
  for (const { where, fn, arity } of members) {
    if (typeof fn !== 'function') problems.push(`${where} is not a function`);
    else if (fn.length !== arity)
      problems.push(`${where} takes ${fn.length} parameters, not ${arity}`);
  }
  if (problems.length === 0) problems.push(...instanceProblems());
  return problems;
}

function instanceProblems(): string[] {
  const problems: string[] = [];
  try {
    const context = PDFContext.create();
    const input = Buffer.from('<< >>', 'latin1');
    const parser = objectParserFor(input, context);
    if (parser.context !== context) problems.push('an object parser has no context member');
    const bytes = parser.bytes as Partial<ByteStreamInternals> | undefined;
    if (!(bytes?.bytes instanceof Uint8Array) || bytes.bytes.length !== input.length)
      problems.push("an object parser's bytes member does not hold its input as bytes");
    for (const method of BYTE_STREAM_METHODS)
      if (typeof bytes?.[method] !== 'function') problems.push(`ByteStream.${method} is missing`);
    const xref = pdfLibOriginals.xrefStreamForStream(
      PDFRawStream.of(context.obj({ Type: 'XRef', W: [1, 1, 1], Size: 1 }), new Uint8Array(3)),
    );
    const [subsection] = Array.isArray(xref.subsections) ? xref.subsections : [];
    if (subsection?.firstObjectNumber !== 0 || subsection.length !== 1)
      problems.push('a cross-reference stream parser has no subsections member as expected');
    if (!Array.isArray(xref.byteWidths) || xref.byteWidths.join() !== '1,1,1')
      problems.push('a cross-reference stream parser has no byteWidths member as expected');
  } catch (err) {
    problems.push(`a probe parse failed (${(err as Error).message})`);
  }
  return problems;
}

/**
 * Refuses to go on with a pdf-lib whose internals are not those docpipe was built against: a
 * clear start-up error instead of PDFs checked wrongly later.
 */
export function checkPdfLibInternals(...probe: Parameters<typeof pdfLibInternalsProblems>): void {
  const problems = pdfLibInternalsProblems(...probe);
  if (problems.length > 0)
    throw new Error(
      `docpipe needs pdf-lib ${PDF_LIB_VERSION} exactly (it uses internals of it, listed in ` +
        `src/formats/pdf/pdf-lib-internals.ts): ${problems.join('; ')}. ` +
        `Install the version package.json names (npm ci).`,
    );
}
