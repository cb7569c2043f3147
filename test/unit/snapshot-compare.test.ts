import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import {
  CHANGE,
  compareImages,
  decodePng,
  DEFAULT_MAX_CHANGED,
  readableDiff,
} from '../../src/formats/raster/index.js';

/** A page: white, with dark bars standing for lines of text. */
interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Grey of the ink. @defaultValue 20 */
  ink?: number;
  /** Grey of a pixel row above and below, as a rasterizer's anti-aliasing draws edges. */
  edge?: number;
}

function page(width: number, height: number, bars: Bar[]): Buffer {
  const png = new PNG({ width, height });
  png.data.fill(255);
  const set = (x: number, y: number, v: number): void => {
    const i = (y * width + x) * 4;
    png.data[i] = png.data[i + 1] = png.data[i + 2] = v;
  };
  for (const b of bars) {
    for (let y = b.y; y < b.y + b.height; y++)
      for (let x = b.x; x < b.x + b.width; x++) set(x, y, b.ink ?? 20);
    const edge = b.edge;
    if (edge === undefined) continue;
    for (let x = b.x; x < b.x + b.width; x++) {
      set(x, b.y - 1, edge);
      set(x, b.y + b.height, edge);
    }
  }
  return PNG.sync.write(png);
}

const LINES: Bar[] = [10, 30, 50, 70, 90].map((y) => ({ x: 20, y, width: 160, height: 6 }));

describe('compareImages', () => {
  it('finds nothing between identical pages and still draws a diff image of the page size', () => {
    const a = page(200, 150, LINES);
    const c = compareImages(a, Buffer.from(a));
    expect(c).toMatchObject({
      same: true,
      sizeChanged: false,
      changedPixels: 0,
      changedRatio: 0,
      box: undefined,
      expected: { width: 200, height: 150 },
      actual: { width: 200, height: 150 },
    });
    const diff = decodePng(c.diff, 'diff');
    expect([diff.width, diff.height]).toEqual([200, 150]);
  });

  it('lets ink a little lighter everywhere pass under the per-pixel tolerance', () => {
    const a = page(200, 150, LINES);
    const b = page(
      200,
      150,
      LINES.map((l) => ({ ...l, ink: 35 })),
    );
    const c = compareImages(a, b);
    expect(c.same).toBe(true);
    expect(c.changedPixels).toBe(0);
    // With no tolerance every inked pixel differs: the tolerance is what lets it pass.
    const strict = compareImages(a, b, { tolerance: 0 });
    expect(strict.changedPixels).toBe(5 * 160 * 6);
    expect(strict.same).toBe(false);
  });

  it('does not count anti-aliased edges drawn in another grey', () => {
    const a = page(
      200,
      150,
      LINES.map((l) => ({ ...l, edge: 128 })),
    );
    const b = page(
      200,
      150,
      LINES.map((l) => ({ ...l, edge: 200 })),
    );
    const c = compareImages(a, b, { tolerance: 0, maxChanged: 0 });
    expect(c.changedPixels).toBe(0);
    expect(c.same).toBe(true);
    // Yellow marks them in the diff image, ignored.
    const diff = decodePng(c.diff, 'diff');
    const i = (9 * 200 + 100) * 4;
    expect([...diff.data.subarray(i, i + 3)]).toEqual([255, 255, 0]);
  });

  it('fails a line moved down by 12 pixels and boxes its old and new places', () => {
    const moved = LINES.map((l, i) => (i === 2 ? { ...l, y: l.y + 12 } : l));
    const c = compareImages(page(200, 150, LINES), page(200, 150, moved));
    expect(c.same).toBe(false);
    expect(c.sizeChanged).toBe(false);
    // The third line was at rows 50 to 55 and is now at 62 to 67.
    expect(c.box).toEqual({ x: 20, y: 50, width: 160, height: 18 });
    expect(c.changedPixels).toBe(2 * 160 * 6);
    expect(c.changedRatio).toBeCloseTo(c.changedPixels / (200 * 150), 10);
    expect(c.changedRatio).toBeGreaterThan(DEFAULT_MAX_CHANGED);
    // Ink gone is red in the diff image, ink new is green.
    const diff = decodePng(c.diff, 'diff');
    const at = (x: number, y: number): number[] => [
      ...diff.data.subarray((y * 200 + x) * 4, (y * 200 + x) * 4 + 3),
    ];
    expect(at(100, 52)).toEqual([255, 0, 0]);
    expect(at(100, 65)).toEqual([0, 170, 0]);
  });

  it('passes a change smaller than the changed-area threshold, and fails it under a lower one', () => {
    const speck: Bar = { x: 150, y: 130, width: 3, height: 3 };
    const a = page(200, 150, LINES);
    const b = page(200, 150, [...LINES, speck]);
    const loose = compareImages(a, b, { maxChanged: 0.01 });
    expect(loose.same).toBe(true);
    expect(loose.changedPixels).toBeGreaterThan(0);
    expect(loose.box).toEqual({ x: 150, y: 130, width: 3, height: 3 });
    expect(loose.changedPixels).toBe(9);
    expect(compareImages(a, b, { maxChanged: 0 }).same).toBe(false);
  });

  it('fails a page whose size changed, even when what both hold is alike', () => {
    const c = compareImages(page(200, 150, LINES), page(200, 160, LINES));
    expect(c.same).toBe(false);
    expect(c.sizeChanged).toBe(true);
    expect(c.expected).toEqual({ width: 200, height: 150 });
    expect(c.actual).toEqual({ width: 200, height: 160 });
    // Compared on a white canvas as large as both: the added white strip is no change.
    expect(c.changedPixels).toBe(0);
    expect([decodePng(c.diff, 'diff').width, decodePng(c.diff, 'diff').height]).toEqual([200, 160]);
  });

  it('refuses bytes that are not a PNG, naming which image', () => {
    const a = page(20, 20, []);
    let err: unknown;
    try {
      compareImages(a, Buffer.from('not a png'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DocpipeError);
    expect((err as DocpipeError).details).toEqual([
      { field: 'actual', message: expect.stringMatching(/^not a readable PNG image: /) },
    ]);
  });

  it('refuses a tolerance or threshold outside 0 to 1', () => {
    const a = page(20, 20, []);
    expect(() => compareImages(a, a, { tolerance: 1.5 })).toThrow(
      /tolerance must be a number from 0 to 1/,
    );
    expect(() => compareImages(a, a, { maxChanged: -0.1 })).toThrow(/maxChanged must be/);
  });
});

describe('readableDiff', () => {
  /** The page of LINES with its third line moved down 12 pixels, compared and drawn twice as large. */
  function moved() {
    const movedLines = LINES.map((l, i) => (i === 2 ? { ...l, y: l.y + 12 } : l));
    const expected = page(200, 150, LINES);
    const comparison = compareImages(expected, page(200, 150, movedLines));
    const twice = (b: Bar): Bar => ({
      x: 2 * b.x,
      y: 2 * b.y,
      width: 2 * b.width,
      height: 2 * b.height,
    });
    const actualLarge = page(400, 300, movedLines.map(twice));
    return { expected, comparison, actualLarge };
  }

  it('keeps which pixels changed, and how, in the comparison', () => {
    const { comparison } = moved();
    expect(comparison.changes).toHaveLength(200 * 150);
    const count = (c: number): number => comparison.changes.filter((x) => x === c).length;
    expect(count(CHANGE.gone)).toBe(160 * 6);
    expect(count(CHANGE.new)).toBe(160 * 6);
    expect(comparison.changes[52 * 200 + 100]).toBe(CHANGE.gone);
    expect(comparison.changes[65 * 200 + 100]).toBe(CHANGE.new);
  });

  it('draws the new page at its own size: new ink green at full strength, old ink red, the rest faded', () => {
    const { expected, comparison, actualLarge } = moved();
    const diff = decodePng(readableDiff({ comparison, expected, actualLarge, scale: 2 }), 'diff');
    expect([diff.width, diff.height]).toEqual([400, 300]);
    const at = (x: number, y: number): number[] => [
      ...diff.data.subarray((y * 400 + x) * 4, (y * 400 + x) * 4 + 3),
    ];
    // The moved line: new at rows 124-135, old at 100-111 (twice the 50-dpi rows).
    const ink = 20 / 255;
    const toward = (c: number): number => Math.round(255 - (255 - c) * (1 - ink));
    expect(at(200, 130)).toEqual([toward(0), toward(170), toward(0)]);
    expect(at(200, 104)).toEqual([toward(255), toward(0), toward(0)]);
    // An unchanged line shows faded grey; paper stays white.
    const faded = Math.round(255 - 255 * (1 - ink) * 0.3);
    expect(at(200, 24)).toEqual([faded, faded, faded]);
    expect(at(200, 5)).toEqual([255, 255, 255]);
  });

  it('refuses a comparison that does not fit the images', () => {
    const { expected, comparison, actualLarge } = moved();
    expect(() =>
      readableDiff({
        comparison: { ...comparison, changes: comparison.changes.subarray(1) },
        expected,
        actualLarge,
        scale: 2,
      }),
    ).toThrow(/29999 changes for 200 x 150 pixels/);
  });
});
