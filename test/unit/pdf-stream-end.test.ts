import { readFileSync } from 'node:fs';
import {
  PDFContext,
  PDFDocument,
  PDFObjectParser,
  PDFRawStream,
  ParseSpeeds,
  type PDFObject,
} from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { useFastStreamEnd } from '../../src/formats/pdf/index.js';
import { useParserHooks } from '../../src/formats/pdf/parser-hooks.js';
import { corpusRows } from '../helpers/corpus.js';

interface Fallback {
  findEndOfStreamFallback: (this: Fallback, startPos: unknown) => number;
  bytes: { offset(): number; moveTo(offset: number): void };
}

/** Runs the fallback from `from` over `text`: where the data ends and where parsing goes on. */
function fallback(text: string | Uint8Array, from: number, fast: boolean) {
  useFastStreamEnd(fast);
  const bytes = typeof text === 'string' ? Buffer.from(text, 'latin1') : text;
  const parser = PDFObjectParser.forBytes(bytes, PDFContext.create()) as unknown as Fallback;
  parser.bytes.moveTo(from);
  try {
    const end = parser.findEndOfStreamFallback({ line: 0, column: 0, offset: from });
    return { end, next: parser.bytes.offset() };
  } catch (err) {
    return { error: `${(err as Error).constructor.name}: ${(err as Error).message}` };
  }
}

/** Every indirect object of a parsed PDF, streams by their exact data. */
function objects(doc: PDFDocument): string[] {
  return doc.context
    .enumerateIndirectObjects()
    .map(([ref, object]: [unknown, PDFObject]) =>
      object instanceof PDFRawStream
        ? `${String(ref)} ${object.dict.toString()} ${Buffer.from(object.contents).toString('base64')}`
        : `${String(ref)} ${object.toString()}`,
    );
}

async function parse(
  bytes: Uint8Array,
  fast: boolean,
  onFallback?: () => void,
): Promise<string[] | string> {
  useFastStreamEnd(fast);
  if (onFallback) {
    // Counts how often the fallback runs at all, so the comparison is known to cover it.
    const proto = PDFObjectParser.prototype as unknown as Fallback;
    const chosen = proto.findEndOfStreamFallback;
    proto.findEndOfStreamFallback = function (this: Fallback, startPos: unknown) {
      onFallback();
      return chosen.call(this, startPos);
    };
  }
  try {
    const doc = await PDFDocument.load(bytes, {
      updateMetadata: false,
      throwOnInvalidObject: true,
      parseSpeed: ParseSpeeds.Fastest,
    });
    return objects(doc);
  } catch (err) {
    // pdf-lib's line and column drift anyway (moveTo leaves them as they are, and every failed
    // keyword match advances them); the offset is what places an error, and it must agree.
    const message = (err as Error).message
      .replace(/"line":\d+,"column":\d+,/g, '')
      .replace(/line:\d+ col:\d+ /g, '');
    return `${(err as Error).constructor.name}: ${message}`;
  }
}

describe("fast end of stream (pdf-lib's fallback done by indexOf)", () => {
  afterEach(() => useFastStreamEnd(true));

  it.each([
    ['LF before endstream', 'abc\nendstream endobj'],
    ['CR LF before endstream', 'abc\r\nendstream endobj'],
    ['CR before endstream', 'abc\rendstream endobj'],
    ['two line breaks', 'abc\n\nendstream'],
    ['CR CR', 'abc\r\rendstream'],
    ['nothing before endstream', 'abcendstream'],
    ['endstream right at the start', 'endstream'],
    ['a line break right at the start', '\nendstream'],
    ['nested stream keywords', 'a stream b endstream c\nendstream'],
    ['"end" split around the start', 'endstream'],
    ['never closed', 'abc stream def\nendstream'],
    ['nothing at all', 'abc'],
  ])('%s: same end, same next offset, same error', (_name, text) => {
    for (const from of [0, 1, 2, 3]) {
      if (from > text.length) continue;
      expect(fallback(text, from, true)).toEqual(fallback(text, from, false));
    }
  });

  it('agrees with pdf-lib on thousands of random keyword soups', () => {
    const pieces = ['stream', 'endstream', 'end', 'e', 'nd', '\r', '\n', 'x', ' ', 'str', 'eam'];
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let compared = 0;
    for (let i = 0; i < 3000; i++) {
      const length = 1 + Math.floor(random() * 12);
      const text = Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)]).join(
        '',
      );
      const from = Math.floor(random() * Math.min(4, text.length));
      expect(fallback(text, from, true), JSON.stringify({ text, from })).toEqual(
        fallback(text, from, false),
      );
      compared++;
    }
    expect(compared).toBe(3000);
  });

  it('parses every PDF of the corpus to the same objects as pdf-lib alone', async () => {
    let fallbacks = 0;
    let pdfs = 0;
    for (const row of corpusRows()) {
      const bytes = readFileSync(row.path);
      if (!bytes.subarray(0, 1024).toString('latin1').includes('%PDF-')) continue;
      pdfs++;
      const ours = await parse(bytes, true, () => fallbacks++);
      const theirs = await parse(bytes, false);
      expect(ours, row.file).toEqual(theirs);
    }
    // The 47 corpus files that start as PDFs; 17 of their streams need the fallback search.
    expect(pdfs).toBe(47);
    expect(fallbacks).toBe(17);
  }, 120_000);
});

describe("docpipe's parser hooks (decoded names, recorded offsets) change nothing else", () => {
  afterEach(() => useParserHooks(true));

  it('parses every PDF of the corpus to the same objects as pdf-lib alone', async () => {
    let pdfs = 0;
    for (const row of corpusRows()) {
      const bytes = readFileSync(row.path);
      if (!bytes.subarray(0, 1024).toString('latin1').includes('%PDF-')) continue;
      pdfs++;
      useParserHooks(true);
      const ours = await parse(bytes, true);
      useParserHooks(false);
      const theirs = await parse(bytes, true);
      expect(ours, row.file).toEqual(theirs);
    }
    expect(pdfs).toBe(47);
  }, 120_000);
});
