import { crc32, inflateSync } from 'node:zlib';

/** What a PNG's chunks say, once walked and found to be one plain image. */
export interface PngStructure {
  width: number;
  height: number;
  /** The same image with only the chunks a decoder needs: IHDR, PLTE, tRNS, one IDAT, IEND. */
  clean: Buffer;
}

/** Limits a PNG is held to before any decoder sees it. */
export interface PngStructureLimits {
  maxWidth: number;
  maxHeight: number;
  maxPixels: number;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The critical chunks of a plain image; any other critical chunk is one no decoder here knows. */
const CRITICAL = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND']);

/** Bit depths each colour type allows (PNG specification, 11.2.2). */
const DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};
/** Samples a pixel has per colour type. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * A file of many tiny chunks costs a loop per chunk; a signature pad writes a handful, and an
 * encoder that splits its data into 8 KiB IDATs writes 64 for the largest image taken.
 */
const MAX_CHUNKS = 1024;

/**
 * Walks a PNG's chunks before any decoder sees it, so that the decoder only ever gets one plain
 * image of the size checked here: exactly one IHDR, first (a decoder sizes its buffers from the
 * last one it meets, so a second IHDR past the checked first was an 11000x11000 image in a 627 KB
 * file); no interlace (an interlaced image is inflated with no bound by pngjs); no critical chunk
 * other than IHDR, PLTE, IDAT and IEND; the IDATs in one run, each chunk's CRC right, IEND last.
 * The image data is then inflated with its output bounded to what the header says it holds, so a
 * small IDAT that inflates to gigabytes stops at the first byte past that.
 */
export function readPngStructure(
  bytes: Buffer,
  limits: PngStructureLimits,
): PngStructure | { problem: string } {
  if (bytes.byteLength < 8 || !bytes.subarray(0, 8).equals(SIGNATURE))
    return { problem: 'the image is not a PNG (its bytes do not start as one)' };
  let header: Buffer | undefined;
  let palette: Buffer | undefined;
  let transparency: Buffer | undefined;
  const data: Buffer[] = [];
  /** 'before' the first IDAT, 'in' the run of IDATs, 'after' it. */
  let idat: 'before' | 'in' | 'after' = 'before';
  let ended = false;
  let at = 8;
  for (let count = 0; !ended; count++) {
    if (count === MAX_CHUNKS) return { problem: `the PNG has more than ${MAX_CHUNKS} chunks` };
    if (at + 12 > bytes.byteLength) return { problem: 'the PNG ends before its IEND chunk' };
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (length > bytes.byteLength - at - 12)
      return { problem: `the PNG's ${printable(type)} chunk runs past the end of the file` };
    if (!/^[A-Za-z]{4}$/.test(type))
      return { problem: 'the PNG has a chunk with a malformed type' };
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== bytes.readUInt32BE(at + 8 + length))
      return { problem: `the PNG's ${type} chunk is damaged (its CRC does not match)` };
    at += 12 + length;
    if (count === 0 && type !== 'IHDR') return { problem: 'the PNG has no header chunk first' };
    if (idat === 'in' && type !== 'IDAT') idat = 'after';
    const critical = type.charCodeAt(0) < 0x61;
    if (critical && !CRITICAL.has(type))
      return { problem: `the PNG has a critical chunk ${type} that is not taken` };
    switch (type) {
      case 'IHDR': {
        if (count !== 0) return { problem: 'the PNG has more than one header chunk (IHDR)' };
        const problem = headerProblem(body, limits);
        if (problem) return { problem };
        header = body;
        break;
      }
      case 'PLTE':
        if (palette || idat !== 'before' || length === 0 || length % 3 !== 0 || length > 768)
          return {
            problem: 'the PNG’s palette (PLTE) is not a single valid one before the image data',
          };
        palette = body;
        break;
      case 'tRNS':
        if (transparency || idat !== 'before')
          return {
            problem: 'the PNG’s transparency (tRNS) is not a single one before the image data',
          };
        transparency = body;
        break;
      case 'IDAT':
        if (idat === 'after') return { problem: 'the PNG’s image data (IDAT) is not in one run' };
        idat = 'in';
        data.push(body);
        break;
      case 'IEND':
        ended = true;
        break;
      // Ancillary chunks (text, profiles, gamma, time, ...) are dropped: nothing of them is drawn.
    }
  }
  if (at !== bytes.byteLength) return { problem: 'the PNG has bytes after its IEND chunk' };
  if (!header) return { problem: 'the PNG has no header chunk first' };
  if (data.length === 0) return { problem: 'the PNG has no image data (IDAT)' };
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const depth = header[8]!;
  const colorType = header[9]!;
  if (colorType === 3 && !palette) return { problem: 'the PNG is paletted but has no palette' };
  const compressed = Buffer.concat(data);
  const rowBytes = Math.ceil((width * CHANNELS[colorType]! * depth) / 8);
  const expected = height * (rowBytes + 1);
  let inflated: Buffer;
  try {
    // One byte more than expected, so that data longer than its header says is told apart.
    inflated = inflateSync(compressed, { maxOutputLength: expected + 1 });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      return { problem: 'the PNG’s image data inflates to more than its header says' };
    return { problem: `the PNG’s image data cannot be inflated: ${(err as Error).message}` };
  }
  if (inflated.byteLength !== expected)
    return {
      problem: `the PNG’s image data holds ${inflated.byteLength} bytes; its header says ${expected}`,
    };
  return {
    width,
    height,
    clean: Buffer.concat([
      SIGNATURE,
      chunk('IHDR', header),
      ...(palette ? [chunk('PLTE', palette)] : []),
      ...(transparency ? [chunk('tRNS', transparency)] : []),
      chunk('IDAT', compressed),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  };
}

function headerProblem(body: Buffer, limits: PngStructureLimits): string | undefined {
  if (body.byteLength !== 13) return 'the PNG’s header chunk (IHDR) is not 13 bytes';
  const width = body.readUInt32BE(0);
  const height = body.readUInt32BE(4);
  const [depth, colorType, compression, filter, interlace] = body.subarray(8);
  if (width === 0 || height === 0) return 'the image is empty (0 pixels)';
  if (width > limits.maxWidth || height > limits.maxHeight || width * height > limits.maxPixels)
    return `the image is ${width}x${height} pixels; at most ${limits.maxWidth}x${limits.maxHeight} and ${limits.maxPixels} pixels`;
  if (!DEPTHS[colorType!]?.includes(depth!))
    return `the PNG's colour type ${colorType} with bit depth ${depth} is not a valid one`;
  if (compression !== 0 || filter !== 0)
    return 'the PNG uses a compression or filter method other than the standard one';
  if (interlace !== 0) return 'the PNG is interlaced; send it without interlacing';
  return undefined;
}

function chunk(type: string, body: Buffer): Buffer {
  const out = Buffer.alloc(12 + body.byteLength);
  out.writeUInt32BE(body.byteLength, 0);
  out.write(type, 4, 'latin1');
  body.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + body.byteLength)), 8 + body.byteLength);
  return out;
}

/** A chunk type as it may be quoted in a message: four letters, else a placeholder. */
function printable(type: string): string {
  return /^[A-Za-z]{4}$/.test(type) ? type : 'last';
}
