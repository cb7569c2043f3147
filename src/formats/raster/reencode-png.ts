import { PNG } from 'pngjs';
import { readPngStructure } from './png-structure.js';

/** Limits of an image a client sends to be drawn into a PDF (a drawn signature, say). */
export interface PngLimits {
  /** Bytes as sent. */
  maxBytes: number;
  /** Width times height: checked from the header, before anything is inflated. */
  maxPixels: number;
  maxWidth: number;
  maxHeight: number;
  /** Cut the image to the box of its pixels that are not transparent (a drawn signature). */
  trimToInk?: boolean;
}

/**
 * A PNG sent by a client, checked by its bytes and drawn anew: the answer is a PNG this process
 * wrote itself from the decoded pixels (8-bit RGBA, no ancillary chunks: no text, no profile, no
 * second image), so whatever the sender hid in the file never reaches a PDF. Its chunks are
 * walked and its image data inflated within the size its one header gives before the decoder
 * sees it (png-structure.ts), so a small file that claims or inflates to a huge image costs
 * nothing, and the decoded image is checked to be that size again. With `trimToInk`, the image is
 * cut to what is drawn on it, and one with nothing drawn is refused. Returns the problem as a
 * sentence instead when the bytes are not such a PNG. CPU-bound for a few milliseconds: a server
 * runs it in a thread (PngThread).
 */
export function reencodePng(
  bytes: Uint8Array,
  limits: PngLimits,
): { png: Buffer; width: number; height: number } | { problem: string } {
  if (bytes.byteLength > limits.maxBytes)
    return { problem: `the image has ${bytes.byteLength} bytes; at most ${limits.maxBytes}` };
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const structure = readPngStructure(buffer, limits);
  if ('problem' in structure) return structure;
  let decoded: PNG;
  try {
    decoded = PNG.sync.read(structure.clean);
  } catch (err) {
    return { problem: `the PNG cannot be read: ${(err as Error).message}` };
  }
  if (
    decoded.width !== structure.width ||
    decoded.height !== structure.height ||
    decoded.data.byteLength !== structure.width * structure.height * 4
  )
    return { problem: 'the PNG decodes to another size than its header says' };
  const box = limits.trimToInk ? inkBox(decoded) : whole(decoded);
  if (!box) return { problem: 'the image is empty: nothing is drawn on it' };
  const out = new PNG({ width: box.width, height: box.height, colorType: 6 });
  PNG.bitblt(decoded, out, box.x, box.y, box.width, box.height, 0, 0);
  return {
    png: PNG.sync.write(out, { colorType: 6, inputHasAlpha: true }),
    width: box.width,
    height: box.height,
  };
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function whole(png: PNG): Box {
  return { x: 0, y: 0, width: png.width, height: png.height };
}

/** Pixels of margin kept around the ink, so that a pen's antialiased edge is not cut. */
const INK_MARGIN = 2;

/**
 * The smallest box holding every pixel that is not fully transparent, with a small margin, or
 * undefined when there is none: a signature pad's canvas is mostly empty margin, and a mark
 * fitted into its place by the whole canvas would come out a fraction of the place's size.
 */
function inkBox(png: PNG): Box | undefined {
  let left = png.width;
  let right = -1;
  let top = png.height;
  let bottom = -1;
  for (let y = 0; y < png.height; y++)
    for (let x = 0; x < png.width; x++)
      if (png.data[(y * png.width + x) * 4 + 3]! > 0) {
        if (x < left) left = x;
        if (x > right) right = x;
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
  if (right < 0) return undefined;
  const x = Math.max(0, left - INK_MARGIN);
  const y = Math.max(0, top - INK_MARGIN);
  return {
    x,
    y,
    width: Math.min(png.width, right + INK_MARGIN + 1) - x,
    height: Math.min(png.height, bottom + INK_MARGIN + 1) - y,
  };
}
