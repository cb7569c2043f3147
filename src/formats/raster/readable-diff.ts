import { PNG } from 'pngjs';
import { CHANGE, decodePng, GONE, NEW, type ImageComparison } from './compare-images.js';

export interface ReadableDiffInput {
  /** The comparison of the snapshot with the page as it renders now, at the snapshot's size. */
  comparison: Pick<ImageComparison, 'changes' | 'expected' | 'actual'>;
  /** The snapshot compared (PNG). */
  expected: Buffer;
  /** The page as it renders now, drawn `scale` times as large as the images compared (PNG). */
  actualLarge: Buffer;
  /** How many times larger `actualLarge` is: 2 for 100 dpi over 50. */
  scale: number;
}

/** How strongly the unchanged page shows behind the changes: enough to find one's place. */
const FADE = 0.3;
/** Ink lighter than this is paper: anti-aliasing's faint edge pixels. */
const INK_MIN = 0.08;

/**
 * A diff image an author can read, at `actualLarge`'s resolution: the page as it renders now,
 * faded, with its ink that is new drawn in green at full strength (drawn at the larger
 * resolution, so its text reads), and the ink only the snapshot had in red (the snapshot scaled
 * up: blurred at 50 dpi, but it shows where the old text was). Where the comparison found a
 * change is taken from the comparison, one pixel around it included, so that whole glyphs turn
 * colour rather than their darkest pixels.
 */
export function readableDiff(input: ReadableDiffInput): Buffer {
  const { comparison, scale } = input;
  const width = Math.max(comparison.expected.width, comparison.actual.width);
  const height = Math.max(comparison.expected.height, comparison.actual.height);
  if (comparison.changes.length !== width * height)
    throw new RangeError(
      `readableDiff: ${comparison.changes.length} changes for ${width} x ${height} pixels`,
    );
  const near = aroundChanges(comparison.changes, width, height);
  const old = lumaOf(decodePng(input.expected, 'expected'));
  const big = decodePng(input.actualLarge, 'actual');
  const out = new PNG({ width: big.width, height: big.height });
  for (let y = 0; y < big.height; y++) {
    const ly = Math.min(Math.floor(y / scale), height - 1);
    for (let x = 0; x < big.width; x++) {
      const lx = Math.min(Math.floor(x / scale), width - 1);
      const i = (y * big.width + x) * 4;
      const newInk = 1 - luma(big.data, i) / 255;
      const change = near[ly * width + lx]!;
      if (change & CHANGE.new && newInk > INK_MIN) paint(out.data, i, NEW, newInk);
      else {
        const oldInk =
          change & CHANGE.gone
            ? 1 - sample(old, (x + 0.5) / scale - 0.5, (y + 0.5) / scale - 0.5) / 255
            : 0;
        if (oldInk > INK_MIN) paint(out.data, i, GONE, oldInk);
        else paint(out.data, i, [0, 0, 0], newInk * FADE);
      }
    }
  }
  return PNG.sync.write(out);
}

/** Each pixel's changes and its eight neighbours', as bits (CHANGE.gone | CHANGE.new). */
function aroundChanges(changes: Uint8Array, width: number, height: number): Uint8Array {
  const near = new Uint8Array(changes.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const c = changes[y * width + x]!;
      if (c === CHANGE.none) continue;
      for (let dy = Math.max(0, y - 1); dy <= Math.min(height - 1, y + 1); dy++)
        for (let dx = Math.max(0, x - 1); dx <= Math.min(width - 1, x + 1); dx++)
          near[dy * width + dx]! |= c;
    }
  return near;
}

interface Grey {
  width: number;
  height: number;
  data: Float32Array;
}

function lumaOf(img: { width: number; height: number; data: Buffer }): Grey {
  const data = new Float32Array(img.width * img.height);
  for (let p = 0; p < data.length; p++) data[p] = luma(img.data, p * 4);
  return { width: img.width, height: img.height, data };
}

/** Grey of an RGBA pixel against white paper (ITU-R BT.601). */
function luma(data: Buffer, i: number): number {
  const y = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
  const a = data[i + 3]! / 255;
  return y * a + 255 * (1 - a);
}

/** Bilinear sample at (x, y), clamped to the image; paper outside it. */
function sample(img: Grey, x: number, y: number): number {
  if (x < -0.5 || y < -0.5 || x > img.width - 0.5 || y > img.height - 0.5) return 255;
  const cx = Math.min(Math.max(x, 0), img.width - 1);
  const cy = Math.min(Math.max(y, 0), img.height - 1);
  const [x0, y0] = [Math.floor(cx), Math.floor(cy)];
  const [x1, y1] = [Math.min(x0 + 1, img.width - 1), Math.min(y0 + 1, img.height - 1)];
  const [fx, fy] = [cx - x0, cy - y0];
  const at = (px: number, py: number): number => img.data[py * img.width + px]!;
  const top = at(x0, y0) * (1 - fx) + at(x1, y0) * fx;
  const bottom = at(x0, y1) * (1 - fx) + at(x1, y1) * fx;
  return top * (1 - fy) + bottom * fy;
}

/** Ink of a colour, `ink` (0 to 1) strong, on white. */
function paint(out: Buffer, i: number, [r, g, b]: readonly number[], ink: number): void {
  out[i] = Math.round(255 - (255 - r!) * ink);
  out[i + 1] = Math.round(255 - (255 - g!) * ink);
  out[i + 2] = Math.round(255 - (255 - b!) * ink);
  out[i + 3] = 255;
}
