import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { reencodePng, type PngLimits } from '../../src/formats/raster/index.js';
import { ihdr, pngChunk, pngOf, rgbaRows, zeroBomb } from '../helpers/png-builder.js';

/**
 * The checks of an image a client sends before any decoder sees it (issue 31): each hostile PNG
 * is refused for its own reason, and a plain drawing still comes out re-encoded.
 */

const LIMITS: PngLimits = {
  maxBytes: 512 * 1024,
  maxWidth: 1600,
  maxHeight: 800,
  maxPixels: 1600 * 800,
  trimToInk: true,
};

function problemOf(bytes: Buffer): string {
  const result = reencodePng(bytes, LIMITS);
  if (!('problem' in result)) throw new Error('the image was taken');
  return result.problem;
}

const bomb = zeroBomb(400 * 1024 * 1024);

describe('reencodePng', () => {
  it('re-encodes a plain drawing, trimmed to its ink, without its other chunks', () => {
    const text = pngChunk('tEXt', Buffer.from('Comment\0hidden', 'latin1'));
    const out = reencodePng(
      pngOf(ihdr({ width: 300, height: 100 }), text, pngChunk('IDAT', rgbaRows(300, 100))),
      LIMITS,
    );
    if ('problem' in out) throw new Error(out.problem);
    expect(out.png.includes(Buffer.from('hidden'))).toBe(false);
    const decoded = PNG.sync.read(out.png);
    expect([decoded.width, decoded.height]).toEqual([out.width, out.height]);
    expect(out.height).toBe(100);
  });

  it('takes image data split over several IDAT chunks, and a paletted image', () => {
    const data = rgbaRows(40, 40);
    const split = pngOf(
      ihdr({ width: 40, height: 40 }),
      pngChunk('IDAT', data.subarray(0, 10)),
      pngChunk('IDAT', data.subarray(10)),
    );
    expect(reencodePng(split, LIMITS)).toMatchObject({ width: expect.any(Number) });
    const palette = pngChunk('PLTE', Buffer.from([0, 0, 0, 255, 255, 255]));
    const transparency = pngChunk('tRNS', Buffer.from([255, 0]));
    const rows = Buffer.alloc(4 * 5);
    rows[1] = 0; // the first pixel ink, the rest the transparent entry
    rows.fill(1, 2, 5);
    for (let y = 1; y < 4; y++) rows.fill(1, y * 5 + 1, y * 5 + 5);
    const paletted = pngOf(
      ihdr({ width: 4, height: 4, colorType: 3 }),
      palette,
      transparency,
      pngChunk('IDAT', deflateSync(rows)),
    );
    expect(reencodePng(paletted, LIMITS)).toMatchObject({ width: 3, height: 3 });
  });

  it('refuses a second IHDR, whatever size it claims', () => {
    for (const [width, height] of [
      [11000, 11000],
      [5000, 5000],
      [16, 16],
    ] as const)
      expect(
        problemOf(
          pngOf(
            ihdr({ width: 16, height: 16 }),
            ihdr({ width, height }),
            pngChunk('IDAT', rgbaRows(16, 16)),
          ),
        ),
      ).toContain('more than one header chunk');
  });

  it('refuses an interlaced image before inflating anything', () => {
    expect(
      problemOf(pngOf(ihdr({ width: 1, height: 1, interlace: 1 }), pngChunk('IDAT', bomb))),
    ).toContain('interlaced');
  });

  it('stops inflating at the size the header gives', () => {
    expect(problemOf(pngOf(ihdr({ width: 1, height: 1 }), pngChunk('IDAT', bomb)))).toContain(
      'inflates to more than its header says',
    );
    expect(
      problemOf(
        pngOf(ihdr({ width: 300, height: 100 }), pngChunk('IDAT', deflateSync(Buffer.alloc(10)))),
      ),
    ).toContain('holds 10 bytes; its header says 120100');
  });

  it('refuses a header past the limits, a critical chunk it does not know, and broken structure', () => {
    expect(problemOf(pngOf(ihdr({ width: 2000, height: 100 })))).toContain('2000x100');
    const data = pngChunk('IDAT', rgbaRows(16, 16));
    const header = ihdr({ width: 16, height: 16 });
    expect(problemOf(pngOf(header, pngChunk('CgBI', Buffer.alloc(4)), data))).toContain(
      'critical chunk CgBI',
    );
    expect(problemOf(pngOf(header, data, pngChunk('tEXt', Buffer.from('a\0b')), data))).toContain(
      'not in one run',
    );
    expect(problemOf(pngOf(header, pngChunk('IDAT', rgbaRows(16, 16), true)))).toContain(
      'CRC does not match',
    );
    expect(problemOf(Buffer.concat([pngOf(header, data), Buffer.from('tail')]))).toContain(
      'bytes after its IEND',
    );
    expect(problemOf(pngOf(header))).toContain('no image data');
    expect(problemOf(pngOf(data))).toContain('no header chunk first');
    expect(problemOf(pngOf(ihdr({ width: 16, height: 16, depth: 3 }), data))).toContain(
      'bit depth 3',
    );
    expect(problemOf(pngOf(ihdr({ width: 4, height: 4, colorType: 3 }), data))).toContain(
      'no palette',
    );
    const whole = pngOf(header, data);
    expect(problemOf(whole.subarray(0, whole.byteLength - 20))).toMatch(/ends before|runs past/);
    expect(problemOf(Buffer.from('GIF89a'))).toContain('not a PNG');
  });
});
