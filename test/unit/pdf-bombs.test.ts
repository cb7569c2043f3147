import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, deflateRawSync, deflateSync, inflateSync } from 'node:zlib';
import {
  PDFContext,
  PDFDict,
  PDFName,
  PDFObjectParser,
  PDFRawStream,
  decodePDFRawStream,
} from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_STRUCTURE_DECODE_LIMITS,
  DecodeBudget,
  setStructureDecodeLimits,
} from '../../src/formats/pdf/bounded-decode.js';
import { checkPdf } from '../../src/formats/pdf/index.js';
import { corpusDir, corpusRows } from '../helpers/corpus.js';

const MiB = 1024 * 1024;

/**
 * zlib data that inflates to `mib` MiB of spaces, built without holding them: one MiB deflated
 * and ended by a sync flush is a run of blocks that stands alone, so copies of it follow one
 * another; a final empty block and the Adler-32 of the whole (computed) close it.
 */
function zlibBomb(mib: number, fill = 0x20): Buffer {
  const piece = deflateRawSync(Buffer.alloc(MiB, fill), { finishFlush: constants.Z_SYNC_FLUSH });
  const n = BigInt(mib * MiB);
  const c = BigInt(fill);
  const a = (1n + n * c) % 65521n;
  const b = (n + (c * n * (n + 1n)) / 2n) % 65521n;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(Number((b << 16n) | a));
  return Buffer.concat([
    Buffer.from([0x78, 0x9c]),
    ...Array.from({ length: mib }, () => piece),
    Buffer.from([0x03, 0x00]),
    adler,
  ]);
}

/**
 * A one-page PDF whose page dictionary lives in an object stream, indexed by a cross-reference
 * stream, as Word and Acrobat write them. `objectStream` and `xrefTail` let a test make either
 * stream inflate to what it wants.
 */
function pdfWithStreams(options: { objectStream?: Buffer; xrefPadding?: Buffer } = {}): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.5\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let size = parts[0]!.length;
  const add = (text: string | Buffer) => {
    const buffer = typeof text === 'string' ? Buffer.from(text, 'latin1') : text;
    parts.push(buffer);
    size += buffer.length;
  };
  const object = (number: number, body: string) => {
    offsets[number] = size;
    add(`${number} 0 obj\n${body}\nendobj\n`);
  };
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  const inner = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>';
  const header = '3 0 ';
  const data = options.objectStream ?? deflateSync(Buffer.from(header + inner, 'latin1'));
  offsets[4] = size;
  add(
    `4 0 obj\n<< /Type /ObjStm /N 1 /First ${header.length} /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
  );
  add(data);
  add('\nendstream\nendobj\n');
  offsets[5] = size;
  const row = (type: number, second: number, third: number) => {
    const out = Buffer.alloc(7);
    out.writeUInt8(type, 0);
    out.writeUInt32BE(second, 1);
    out.writeUInt16BE(third, 5);
    return out;
  };
  const rows = Buffer.concat([
    row(0, 0, 65535),
    row(1, offsets[1]!, 0),
    row(1, offsets[2]!, 0),
    row(2, 4, 0),
    row(1, offsets[4], 0),
    row(1, offsets[5], 0),
  ]);
  const xref = options.xrefPadding ? xrefWithPadding(rows, options.xrefPadding) : deflateSync(rows);
  add(
    `5 0 obj\n<< /Type /XRef /Size 6 /W [1 4 2] /Root 1 0 R /Filter /FlateDecode /Length ${xref.length} >>\nstream\n`,
  );
  add(xref);
  add(`\nendstream\nendobj\nstartxref\n${offsets[5]}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/** The rows, then a bomb of zeros after them (zlib data of their own, in one stream). */
function xrefWithPadding(rows: Buffer, bomb: Buffer): Buffer {
  // The bomb's zlib wrapper is dropped and its blocks follow the rows' non-final block.
  const head = deflateRawSync(rows, { finishFlush: constants.Z_SYNC_FLUSH });
  const body = bomb.subarray(2, bomb.length - 4);
  const all = Buffer.concat([head, body]);
  // Adler-32 of rows followed by the bomb's data is not needed: the cap is met first.
  return Buffer.concat([Buffer.from([0x78, 0x9c]), all, Buffer.alloc(4)]);
}

async function refusal(pdf: Uint8Array): Promise<{ slug: string; message: string }> {
  try {
    await checkPdf(pdf, 'document');
  } catch (err) {
    const e = err as { slug: string; details: { message: string }[] };
    return { slug: e.slug, message: e.details[0]!.message };
  }
  throw new Error('the PDF was accepted');
}

afterEach(() => {
  setStructureDecodeLimits(DEFAULT_STRUCTURE_DECODE_LIMITS);
});

describe('object and cross-reference stream bombs', () => {
  it('accepts the well-formed PDF the bombs are built from', async () => {
    expect(await checkPdf(pdfWithStreams(), 'document')).toEqual({ pages: 1 });
  });

  it('builds zlib bombs that inflate to exactly what they claim', () => {
    expect(inflateSync(zlibBomb(3)).equals(Buffer.alloc(3 * MiB, 0x20))).toBe(true);
  });

  it('refuses an object stream that inflates past the per-stream limit', async () => {
    setStructureDecodeLimits({ perStream: 1 * MiB, perDocument: 8 * MiB });
    const header = deflateRawSync(Buffer.from('3 0 << /Type /Page >>'), {
      finishFlush: constants.Z_SYNC_FLUSH,
    });
    const bomb = zlibBomb(4);
    const stream = Buffer.concat([bomb.subarray(0, 2), header, bomb.subarray(2)]);
    const { slug, message } = await refusal(pdfWithStreams({ objectStream: stream }));
    expect(slug).toBe('unsupported-file-type');
    expect(message).toMatch(
      /^too-large: its object stream at offset \d+ inflates past 1048576 bytes, the limit for one object or cross-reference stream$/,
    );
  });

  it('refuses a cross-reference stream that inflates past the per-stream limit', async () => {
    setStructureDecodeLimits({ perStream: 1 * MiB, perDocument: 8 * MiB });
    const { slug, message } = await refusal(pdfWithStreams({ xrefPadding: zlibBomb(4, 0) }));
    expect(slug).toBe('unsupported-file-type');
    expect(message).toMatch(
      /^too-large: its cross-reference stream at offset \d+ inflates past 1048576 bytes/,
    );
  });

  it('counts every stream of a document against the per-document limit', () => {
    const budget = new DecodeBudget({ perStream: 3 * MiB, perDocument: 5 * MiB });
    const stream = (mib: number) =>
      PDFRawStream.of(pdfLibContextDict({ Filter: 'FlateDecode' }), zlibBomb(mib));
    expect(budget.decode(stream(2), 'the first').length).toBe(2 * MiB);
    expect(budget.decode(stream(2), 'the second').length).toBe(2 * MiB);
    expect(() => budget.decode(stream(2), 'the third')).toThrow(
      'the third inflates past the 5242880 bytes all of a PDF',
    );
    expect(budget.refused?.reason).toBe('too-large');
  });

  it('decodes other filters with pdf-lib within the limit, in steps', () => {
    const budget = new DecodeBudget({ perStream: 1000, perDocument: 10_000 });
    const hex = (n: number) =>
      PDFRawStream.of(
        pdfLibContextDict({ Filter: 'ASCIIHexDecode' }),
        Buffer.from('41'.repeat(n) + '>', 'latin1'),
      );
    expect(Buffer.from(budget.decode(hex(1000), 'exactly at')).toString()).toBe('A'.repeat(1000));
    expect(() => budget.decode(hex(1001), 'one past')).toThrow('one past inflates past 1000');
  });

  it('holds the default limit against a 512 MiB object stream without the memory it inflates to', async () => {
    const before = process.resourceUsage().maxRSS * 1024;
    const header = deflateRawSync(Buffer.from('3 0 << /Type /Page >>'), {
      finishFlush: constants.Z_SYNC_FLUSH,
    });
    const bomb = zlibBomb(512);
    const stream = Buffer.concat([bomb.subarray(0, 2), header, bomb.subarray(2)]);
    const { message } = await refusal(pdfWithStreams({ objectStream: stream }));
    expect(message).toContain(`inflates past ${64 * MiB} bytes`);
    const grown = process.resourceUsage().maxRSS * 1024 - before;
    // Unbounded, pdf-lib held all 512 MiB (and copies while its buffer doubled).
    expect(grown).toBeLessThan(200 * MiB);
  });

  it('reads no more cross-reference entries than the data holds, whatever /Size says', async () => {
    const pdf = pdfWithStreams().toString('latin1').replace('/Size 6 ', '/Size 99999999 ');
    const before = process.resourceUsage().maxRSS * 1024;
    const { slug, message } = await refusal(Buffer.from(pdf, 'latin1'));
    // Read as /Size claimed, a hundred million entries took gigabytes.
    expect(process.resourceUsage().maxRSS * 1024 - before).toBeLessThan(200 * MiB);
    expect(slug).toBe('unsupported-file-type');
    expect(message).toMatch(/^damaged: its cross-reference stream at offset \d+ holds fewer/);
  });
});

describe('the bounded decode against pdf-lib', () => {
  it('decodes every object and cross-reference stream of the corpus as pdf-lib does', () => {
    const pdfs = corpusRows().filter((row) => row.file.endsWith('.pdf'));
    expect(pdfs).toHaveLength(48);
    let compared = 0;
    for (const row of pdfs) {
      const bytes = readFileSync(join(corpusDir(), row.file));
      for (const stream of structureStreams(bytes)) {
        let expected: Uint8Array | undefined;
        try {
          expected = decodePDFRawStream(stream).decode();
        } catch {
          expected = undefined;
        }
        let actual: Uint8Array | undefined;
        try {
          actual = new DecodeBudget().decode(stream, 'a stream');
        } catch {
          actual = undefined;
        }
        expect(actual && Buffer.from(actual), row.file).toEqual(expected && Buffer.from(expected));
        compared++;
      }
    }
    // The corpus's object and cross-reference streams (Word's and Acrobat's), every one compared.
    expect(compared).toBe(51);
  });
});

/** Every /ObjStm and /XRef stream of a file, found by scanning for their dictionaries. */
function structureStreams(bytes: Buffer): PDFRawStream[] {
  const text = bytes.toString('latin1');
  const found: PDFRawStream[] = [];
  const pattern = /\d+\s+\d+\s+obj\s*(<<(?:(?!stream)[\s\S]){0,2000}?>>)\s*stream(\r\n|\n|\r)/g;
  for (const match of text.matchAll(pattern)) {
    const dictText = match[1]!;
    if (!/\/Type\s*\/(ObjStm|XRef)\b/.test(dictText)) continue;
    const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dictText);
    if (!length) continue;
    const start = match.index + match[0].length;
    const dict = parseDict(dictText);
    if (!dict) continue;
    found.push(PDFRawStream.of(dict, bytes.subarray(start, start + Number(length[1]))));
  }
  return found;
}

const sharedContext = PDFContext.create();

function parseDict(text: string): PDFDict | undefined {
  try {
    const parsed = PDFObjectParser.forBytes(
      Buffer.from(text, 'latin1'),
      sharedContext,
    ).parseObject();
    return parsed instanceof PDFDict ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function pdfLibContextDict(entries: Record<string, string>): PDFDict {
  const dict = sharedContext.obj({});
  for (const [key, value] of Object.entries(entries)) dict.set(PDFName.of(key), PDFName.of(value));
  return dict;
}
