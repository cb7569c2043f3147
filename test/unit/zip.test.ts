import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ZIP_LIMITS, ZipArchive, ZipError, writeZip } from '../../src/formats/zip/index.js';
import { patchEntry } from '../helpers/zip-patch.js';

const text = (s: string) => Buffer.from(s, 'utf8');

function problemOf(fn: () => unknown): { problem: string; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof ZipError) return { problem: err.problem, message: err.message };
    throw err;
  }
  throw new Error('expected a ZipError');
}

describe('zip reader', () => {
  it('reads what the writer wrote, byte for byte, and copies raw entries unchanged', () => {
    const zip = writeZip([
      { name: 'a.xml', data: text('<a>hello hello hello hello</a>') },
      { name: 'dir/b.bin', data: Buffer.from([1, 2, 3]) },
    ]);
    const archive = ZipArchive.open(zip);
    expect(archive.entries.map((e) => e.name)).toEqual(['a.xml', 'dir/b.bin']);
    expect(archive.read('A.XML').toString()).toBe('<a>hello hello hello hello</a>');
    const copy = writeZip(
      archive.entries.map((entry) => ({ name: entry.name, from: archive, entry })),
    );
    expect(ZipArchive.open(copy).read('dir/b.bin')).toEqual(Buffer.from([1, 2, 3]));
    expect(writeZip([{ name: 'x', data: text('same') }])).toEqual(
      writeZip([{ name: 'x', data: text('same') }]),
    );
  });

  it('refuses more entries than the limit before reading any', () => {
    const zip = writeZip(
      Array.from({ length: 30 }, (_, i) => ({ name: `f${i}`, data: text('x') })),
    );
    const r = problemOf(() => ZipArchive.open(zip, { ...DEFAULT_ZIP_LIMITS, maxEntries: 20 }));
    expect(r.problem).toBe('too-large');
    expect(r.message).toContain('30 entries');
  });

  it('refuses a high compression ratio from the headers alone', () => {
    const zeros = Buffer.alloc(8 * 1024 * 1024);
    const zip = writeZip([{ name: 'bomb.xml', data: zeros }]);
    const r = problemOf(() => ZipArchive.open(zip));
    expect(r.problem).toBe('too-large');
    expect(r.message).toMatch(/compression ratio of \d+:1/);
  });

  it('refuses a total declared size past the limit without inflating anything', () => {
    // The data is not even valid deflate: were it inflated, the error would be 'damaged'.
    const entries = Array.from({ length: 3 }, (_, i) => ({
      name: `p${i}`,
      data: text('tiny '.repeat(40)),
    }));
    let zip = writeZip(entries);
    for (const e of entries) zip = patchEntry(zip, e.name, { uncompressedSize: 200 * 1024 * 1024 });
    const r = problemOf(() =>
      ZipArchive.open(zip, { ...DEFAULT_ZIP_LIMITS, maxCompressionRatio: Number.MAX_SAFE_INTEGER }),
    );
    expect(r.problem).toBe('too-large');
    expect(r.message).toContain('inflate to more than the limit');
  });

  it('caps inflation at the declared size when the header lies', () => {
    const big = Buffer.alloc(50 * 1024 * 1024, 0x41);
    const zip = patchEntry(writeZip([{ name: 'liar.xml', data: big }]), 'liar.xml', {
      uncompressedSize: 1000,
    });
    const archive = ZipArchive.open(zip);
    const before = process.memoryUsage().arrayBuffers;
    const r = problemOf(() => archive.read('liar.xml'));
    // Damaged: a header that does not match its data (a flipped byte does the same).
    expect(r.problem).toBe('damaged');
    expect(r.message).toContain('inflates past its declared 1000 bytes');
    // Nothing near the real 50 MiB was allocated.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(10 * 1024 * 1024);
  });

  it('refuses encrypted entries', () => {
    const zip = patchEntry(writeZip([{ name: 'secret.xml', data: text('<x/>') }]), 'secret.xml', {
      flags: 0x0801,
    });
    expect(problemOf(() => ZipArchive.open(zip)).problem).toBe('encrypted');
  });

  it('refuses duplicate names, CRC mismatches, truncation and local/central disagreement', () => {
    const dup = writeZip([
      { name: 'word/document.xml', data: text('a') },
      { name: 'WORD/document.xml', data: text('b') },
    ]);
    expect(problemOf(() => ZipArchive.open(dup)).message).toContain('appears twice');

    const badCrc = patchEntry(writeZip([{ name: 'a', data: text('hello') }]), 'a', { crc32: 1234 });
    expect(problemOf(() => ZipArchive.open(badCrc).read('a')).message).toContain('CRC');

    const good = writeZip([{ name: 'a', data: text('hello world') }]);
    expect(problemOf(() => ZipArchive.open(good.subarray(0, good.length - 10))).problem).toBe(
      'damaged',
    );

    const two = writeZip([
      { name: 'first', data: text('1') },
      { name: 'other', data: text('2') },
    ]);
    const aliased = patchEntry(two, 'other', { localHeaderOffset: 0 });
    expect(problemOf(() => ZipArchive.open(aliased)).message).toContain('local and central names');
  });

  it('refuses unsupported compression methods as damaged', () => {
    const zip = writeZip([{ name: 'a', data: deflateRawSync(text('x')) }]);
    const patched = Buffer.from(zip);
    patched.writeUInt16LE(12, patched.indexOf(Buffer.from('PK\x01\x02', 'latin1')) + 10);
    expect(problemOf(() => ZipArchive.open(patched)).message).toContain('compression method 12');
  });
});
