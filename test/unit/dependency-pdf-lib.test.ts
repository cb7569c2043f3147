import { readFileSync } from 'node:fs';
import { PDFContext, PDFDocument, PDFName, PDFRawStream, PDFRef } from 'pdf-lib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PDF_LIB_MEMBERS,
  PDF_LIB_VERSION,
  checkPdfLibInternals,
  installedPdfLibVersion,
  objectParserFor,
  patchPoints,
  pdfLibInternalsProblems,
  pdfLibOriginals,
  type ObjectParserInternals,
} from '../../src/formats/pdf/pdf-lib-internals.js';

const readJson = (path: string) =>
  JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
  };

const latin1 = (text: string) => Buffer.from(text, 'latin1');

/** Counts calls through a patch point while a test runs; put back afterwards. */
const restores: (() => void)[] = [];
function countCalls<T extends object, K extends keyof T>(target: T, key: K): { calls: number } {
  const counter = { calls: 0 };
  const was = target[key] as (...args: unknown[]) => unknown;
  target[key] = function (this: unknown, ...args: unknown[]) {
    counter.calls++;
    return was.apply(this, args);
  } as T[K];
  restores.push(() => (target[key] = was as T[K]));
  return counter;
}

/** Puts `value` at a patch point while a test runs; put back afterwards. */
function put<T extends object, K extends keyof T>(target: T, key: K, value: T[K]): void {
  const was = target[key];
  target[key] = value;
  restores.push(() => (target[key] = was));
}

describe('pdf-lib internals', () => {
  // pdf-lib as it ships, at every patch point: the unit tests share their modules from file to
  // file (vitest.config.ts), and a file before this one may have loaded the PDF check's hooks.
  beforeEach(() => {
    const { objectParser, documentParser, objectStreamParser } = patchPoints;
    put(objectParser, 'findEndOfStreamFallback', pdfLibOriginals.findEndOfStreamFallback);
    put(objectParser, 'parseName', pdfLibOriginals.parseName);
    put(objectParser, 'parseDictOrStream', pdfLibOriginals.parseDictOrStream);
    put(documentParser, 'parseIndirectObjectHeader', pdfLibOriginals.parseIndirectObjectHeader);
    put(
      objectStreamParser,
      'parseOffsetsAndObjectNumbers',
      pdfLibOriginals.parseOffsetsAndObjectNumbers,
    );
    put(patchPoints.objectStreamParserClass, 'forStream', pdfLibOriginals.objectStreamForStream);
    put(patchPoints.xrefStreamParserClass, 'forStream', pdfLibOriginals.xrefStreamForStream);
  });

  afterEach(() => {
    for (const restore of restores.splice(0).reverse()) restore();
  });

  it('is pinned exactly, and the installed version is the pinned one', () => {
    const pkg = readJson('../../package.json');
    const installed = readJson('../../node_modules/pdf-lib/package.json');
    expect(pkg.dependencies['pdf-lib']).toBe(PDF_LIB_VERSION);
    expect(installed.version).toBe(PDF_LIB_VERSION);
    expect(installedPdfLibVersion()).toBe(PDF_LIB_VERSION);
  });

  it('are all in place in the installed version', () => {
    expect(PDF_LIB_MEMBERS).toHaveLength(11);
    expect(pdfLibInternalsProblems()).toEqual([]);
    expect(() => checkPdfLibInternals()).not.toThrow();
  });

  it('refuses another version, a missing member and another arity, naming each', () => {
    const members = [
      { where: 'PDFObjectParser.prototype.findEndOfStreamFallback', fn: () => 0, arity: 1 },
      { where: 'PDFXRefStreamParser.forStream', fn: undefined, arity: 1 },
      { where: 'PDFObjectParser.prototype.parseName', fn: () => 0, arity: 0 },
    ];
    expect(() => checkPdfLibInternals('1.18.0', members)).toThrow(
      new Error(
        `docpipe needs pdf-lib ${PDF_LIB_VERSION} exactly (it uses internals of it, listed in ` +
          'src/formats/pdf/pdf-lib-internals.ts): version 1.18.0 is installed, not 1.17.1; ' +
          'PDFObjectParser.prototype.findEndOfStreamFallback takes 0 parameters, not 1; ' +
          'PDFXRefStreamParser.forStream is not a function. ' +
          'Install the version package.json names (npm ci).',
      ),
    );
  });

  it("falls back to its endstream search for an indirect /Length, ending before the line's break", () => {
    const input = latin1('<< /Length 9 0 R >>\nstream\nab\r\nendstream\nendobj');
    const parser = objectParserFor(input, PDFContext.create());
    const fallback = countCalls(patchPoints.objectParser, 'findEndOfStreamFallback');
    const viaDictOrStream = countCalls(patchPoints.objectParser, 'parseDictOrStream');
    const stream = parser.parseObject();
    expect(viaDictOrStream.calls).toBe(1);
    expect(fallback.calls).toBe(1);
    expect(stream).toBeInstanceOf(PDFRawStream);
    expect(Buffer.from((stream as PDFRawStream).contents).toString('latin1')).toBe('ab');
    // The fast search stands in for this one: it must leave the parser just past the keyword.
    expect(parser.bytes.offset()).toBe(input.indexOf('endstream') + 'endstream'.length);
  });

  it('parses names through parseName, decoding only upper-case hex escapes', () => {
    const context = PDFContext.create();
    const calls = countCalls(patchPoints.objectParser, 'parseName');
    const name = (text: string) => objectParserFor(latin1(text), context).parseObject();
    expect(name('/R#6Fot')).toBe(PDFName.of('Root'));
    expect(name('/R#6fot')).not.toBe(PDFName.of('Root'));
    expect(calls.calls).toBe(2);
  });

  it('loads a document through the header, object-stream and cross-reference-stream hooks', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    doc.addPage();
    const bytes = await doc.save({ useObjectStreams: true });
    const headers = countCalls(patchPoints.documentParser, 'parseIndirectObjectHeader');
    const listed = countCalls(patchPoints.objectStreamParser, 'parseOffsetsAndObjectNumbers');
    const objectStreams = countCalls(patchPoints.objectStreamParserClass, 'forStream');
    const xrefStreams = countCalls(patchPoints.xrefStreamParserClass, 'forStream');
    const loaded = await PDFDocument.load(bytes);
    expect(loaded.getPageCount()).toBe(2);
    // pdf-lib's save writes one object stream and one cross-reference stream.
    expect(objectStreams.calls).toBe(1);
    expect(listed.calls).toBe(1);
    expect(xrefStreams.calls).toBe(1);
    // Two top-level objects (the object stream, the cross-reference stream), each header read
    // twice: matchIndirectObjectHeader looks ahead through it, then the object is parsed.
    expect(headers.calls).toBe(4);
  });

  it('returns where each object starts and which objects an object stream lists', () => {
    const header = pdfLibOriginals.parseIndirectObjectHeader.call(
      objectParserFor(latin1('12 3 obj\n<< >>\nendobj'), PDFContext.create()),
    );
    expect(header).toBe(PDFRef.of(12, 3));
    const context = PDFContext.create();
    const objectStream = PDFRawStream.of(
      context.obj({ Type: 'ObjStm', N: 2, First: 10 }),
      latin1('7 0 8 3 \n<< >> 42'),
    );
    const parser = pdfLibOriginals.objectStreamForStream(objectStream) as ObjectParserInternals;
    expect(pdfLibOriginals.parseOffsetsAndObjectNumbers.call(parser)).toEqual([
      { objectNumber: 7, offset: 0 },
      { objectNumber: 8, offset: 3 },
    ]);
  });

  it('reads only as many cross-reference stream entries as its subsections say', () => {
    const context = PDFContext.create();
    const stream = PDFRawStream.of(
      context.obj({ Type: 'XRef', W: [1, 1, 1], Size: 3 }),
      new Uint8Array([0, 0, 0, 1, 9, 0, 1, 20, 0]),
    );
    const full = pdfLibOriginals.xrefStreamForStream(stream);
    expect(full.subsections).toEqual([{ firstObjectNumber: 0, length: 3 }]);
    expect(full.byteWidths).toEqual([1, 1, 1]);
    expect(full.parseIntoContext()).toHaveLength(3);
    const cut = pdfLibOriginals.xrefStreamForStream(stream);
    cut.subsections[0]!.length = 1;
    expect(cut.parseIntoContext()).toHaveLength(1);
  });
});
