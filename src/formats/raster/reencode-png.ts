import { PNG } from 'pngjs';

/** Limits of an image a client sends to be drawn into a PDF (a drawn signature, say). */
export interface PngLimits {
  /** Bytes as sent. */
  maxBytes: number;
  /** Width times height: checked from the header, before anything is inflated. */
  maxPixels: number;
  maxWidth: number;
  maxHeight: number;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A PNG sent by a client, checked by its bytes and drawn anew: the answer is a PNG this process
 * wrote itself from the decoded pixels (8-bit RGBA, no ancillary chunks: no text, no profile, no
 * second image), so whatever the sender hid in the file never reaches a PDF. The size is read
 * from IHDR and refused before inflating, so a small file that claims a huge image costs
 * nothing. Returns the problem as a sentence instead when the bytes are not such a PNG.
 */
export function reencodePng(
  bytes: Uint8Array,
  limits: PngLimits,
): { png: Buffer; width: number; height: number } | { problem: string } {
  if (bytes.byteLength > limits.maxBytes)
    return { problem: `the image has ${bytes.byteLength} bytes; at most ${limits.maxBytes}` };
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.byteLength < 33 || !buffer.subarray(0, 8).equals(SIGNATURE))
    return { problem: 'the image is not a PNG (its bytes do not start as one)' };
  // IHDR is always the first chunk: length 13, type, width, height.
  if (buffer.toString('latin1', 12, 16) !== 'IHDR')
    return { problem: 'the PNG has no header chunk first' };
  const width = buffer.readUInt32BE(16);
  const height = buffer.readUInt32BE(20);
  if (width === 0 || height === 0) return { problem: 'the image is empty (0 pixels)' };
  if (width > limits.maxWidth || height > limits.maxHeight || width * height > limits.maxPixels)
    return {
      problem: `the image is ${width}x${height} pixels; at most ${limits.maxWidth}x${limits.maxHeight} and ${limits.maxPixels} pixels`,
    };
  let decoded: PNG;
  try {
    decoded = PNG.sync.read(buffer);
  } catch (err) {
    return { problem: `the PNG cannot be read: ${(err as Error).message}` };
  }
  const out = new PNG({ width: decoded.width, height: decoded.height, colorType: 6 });
  decoded.data.copy(out.data);
  return {
    png: PNG.sync.write(out, { colorType: 6, inputHasAlpha: true }),
    width: decoded.width,
    height: decoded.height,
  };
}
