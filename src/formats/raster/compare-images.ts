import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { DocpipeError } from '../../base/errors/index.js';

export interface CompareOptions {
  /**
   * How far apart two pixels' colours may be and still count as the same (pixelmatch's threshold,
   * 0 to 1 of its perceptual colour distance). Anti-aliased edges are never counted.
   * @defaultValue DEFAULT_TOLERANCE
   */
  tolerance?: number;
  /**
   * The share of the page's pixels (0 to 1) that may differ before the images count as different.
   * @defaultValue DEFAULT_MAX_CHANGED
   */
  maxChanged?: number;
}

/**
 * pixelmatch's own default: the same glyph drawn by another FreeType build stays under it, while
 * black text on white, or a grey table rule gone, is far above it.
 */
export const DEFAULT_TOLERANCE = 0.1;
/**
 * 0.05% of a page: about 120 pixels of an A4 page at 50 dpi. A line moved by one line height
 * changes several percent; a different digit in a date changes a few dozen pixels, which the text
 * snapshot catches, so this only keeps a sub-pixel shift from failing a page.
 */
export const DEFAULT_MAX_CHANGED = 0.0005;

/** A rectangle in pixels, from the top left corner. */
export interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ImageComparison {
  /** No size change and no more changed pixels than the threshold allows. */
  same: boolean;
  expected: { width: number; height: number };
  actual: { width: number; height: number };
  sizeChanged: boolean;
  /** Pixels that differ beyond the tolerance, anti-aliasing left out. */
  changedPixels: number;
  /** changedPixels over the pixels compared (the larger of both sizes). */
  changedRatio: number;
  /** Smallest rectangle holding every changed pixel; undefined when none changed. */
  box: PixelBox | undefined;
  /**
   * PNG of the expected image faded, with what only the expected image has in red, what only the
   * actual one has in green, and ignored anti-aliasing in yellow.
   */
  diff: Buffer;
  /** Each compared pixel, row by row on the canvas of both sizes: CHANGE.none, gone or new. */
  changes: Uint8Array;
}

/** What a pixel of `ImageComparison.changes` says. */
export const CHANGE = { none: 0, gone: 1, new: 2 } as const;

/** Only in the expected image (ink gone). */
export const GONE: [number, number, number] = [255, 0, 0];
/** Only in the actual image (new ink, darker than before). */
export const NEW: [number, number, number] = [0, 170, 0];

/**
 * Compares two PNG images pixel by pixel. Images of different sizes are compared on a white
 * canvas as large as both, and are never the same. A buffer that is not a PNG is a
 * `document-production-failed` naming `expected` or `actual`.
 */
export function compareImages(
  expected: Buffer,
  actual: Buffer,
  options: CompareOptions = {},
): ImageComparison {
  const tolerance = checkedShare('tolerance', options.tolerance ?? DEFAULT_TOLERANCE);
  const maxChanged = checkedShare('maxChanged', options.maxChanged ?? DEFAULT_MAX_CHANGED);
  const a = decodePng(expected, 'expected');
  const b = decodePng(actual, 'actual');
  const width = Math.max(a.width, b.width);
  const height = Math.max(a.height, b.height);
  const out = new PNG({ width, height });
  const changedPixels = pixelmatch(
    onCanvas(a, width, height),
    onCanvas(b, width, height),
    out.data,
    width,
    height,
    { threshold: tolerance, diffColor: GONE, diffColorAlt: NEW },
  );
  const sizeChanged = a.width !== b.width || a.height !== b.height;
  const changedRatio = changedPixels / (width * height);
  const changes = changesIn(out.data);
  return {
    same: !sizeChanged && changedRatio <= maxChanged,
    expected: { width: a.width, height: a.height },
    actual: { width: b.width, height: b.height },
    sizeChanged,
    changedPixels,
    changedRatio,
    box: changedBox(changes, width, height),
    diff: PNG.sync.write(out),
    changes,
  };
}

function checkedShare(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0 || value > 1)
    throw new RangeError(`${name} must be a number from 0 to 1, not ${value}`);
  return value;
}

interface Rgba {
  width: number;
  height: number;
  data: Buffer;
}

/** Any PNG (grey, palette, 16-bit) as 8-bit RGBA. */
export function decodePng(bytes: Buffer, field: string): Rgba {
  try {
    const png = PNG.sync.read(bytes);
    return { width: png.width, height: png.height, data: png.data };
  } catch (err) {
    throw new DocpipeError('document-production-failed', [
      { field, message: `not a readable PNG image: ${(err as Error).message}` },
    ]);
  }
}

/** The image in the top left corner of a white canvas; itself when it is that size already. */
function onCanvas(img: Rgba, width: number, height: number): Buffer {
  if (img.width === width && img.height === height) return img.data;
  const canvas = Buffer.alloc(width * height * 4, 255);
  for (let y = 0; y < img.height; y++)
    img.data.copy(canvas, y * width * 4, y * img.width * 4, (y + 1) * img.width * 4);
  return canvas;
}

/** The pixels pixelmatch drew as changed: pure GONE or NEW, never its faded grey. */
function changesIn(data: Buffer): Uint8Array {
  const changes = new Uint8Array(data.length / 4);
  for (let p = 0; p < changes.length; p++) {
    if (isColour(data, p * 4, GONE)) changes[p] = CHANGE.gone;
    else if (isColour(data, p * 4, NEW)) changes[p] = CHANGE.new;
  }
  return changes;
}

/** The box around the changed pixels. */
function changedBox(changes: Uint8Array, width: number, height: number): PixelBox | undefined {
  let [left, top, right, bottom] = [width, height, -1, -1];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (changes[y * width + x] === CHANGE.none) continue;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
    }
  }
  if (right < 0) return undefined;
  return { x: left, y: top, width: right - left + 1, height: bottom - top + 1 };
}

function isColour(data: Buffer, i: number, [r, g, b]: [number, number, number]): boolean {
  return data[i] === r && data[i + 1] === g && data[i + 2] === b;
}
