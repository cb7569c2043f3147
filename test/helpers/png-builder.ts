import { constants, crc32, deflateRawSync, deflateSync } from 'node:zlib';

/**
 * PNGs built chunk by chunk, hostile ones included (two headers, interlace, image data that
 * inflates past its header, unknown critical chunks), for the tests of images clients send.
 */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One chunk: length, type, data, CRC (a wrong one when `badCrc`). */
export function pngChunk(type: string, data: Buffer, badCrc = false): Buffer {
  const out = Buffer.alloc(12 + data.byteLength);
  out.writeUInt32BE(data.byteLength, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  const crc = crc32(out.subarray(4, 8 + data.byteLength));
  out.writeUInt32BE(badCrc ? crc ^ 1 : crc, 8 + data.byteLength);
  return out;
}

export interface HeaderFields {
  width: number;
  height: number;
  /** @defaultValue 8 */
  depth?: number;
  /** @defaultValue 6 (RGBA) */
  colorType?: number;
  /** @defaultValue 0 */
  interlace?: number;
}

export function ihdr(fields: HeaderFields): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(fields.width, 0);
  data.writeUInt32BE(fields.height, 4);
  data[8] = fields.depth ?? 8;
  data[9] = fields.colorType ?? 6;
  data[12] = fields.interlace ?? 0;
  return pngChunk('IHDR', data);
}

/** The signature, these chunks, and IEND. */
export function pngOf(...chunks: Buffer[]): Buffer {
  return Buffer.concat([SIGNATURE, ...chunks, pngChunk('IEND', Buffer.alloc(0))]);
}

/** Image data of an RGBA image with a diagonal line drawn, rows filtered with type 0. */
export function rgbaRows(width: number, height: number): Buffer {
  const rows = Buffer.alloc(height * (width * 4 + 1));
  for (let y = 0; y < height; y++) {
    const x = Math.floor((y * width) / height);
    rows[y * (width * 4 + 1) + 1 + x * 4 + 3] = 255;
  }
  return deflateSync(rows);
}

/**
 * A zlib stream of `bytes` zero bytes, made without ever holding them: one MiB of zeros deflated
 * with a full flush (byte-aligned blocks that refer to nothing before them) repeated, then a
 * final empty block and the Adler-32 of the zeros (a = 1, b = the count). 400 MiB is 415 KB.
 */
export function zeroBomb(bytes: number): Buffer {
  const MIB = 1 << 20;
  const segment = (size: number) =>
    deflateRawSync(Buffer.alloc(size), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const whole = segment(MIB);
  const parts: Buffer[] = [Buffer.from([0x78, 0xda])];
  for (let i = 0; i < Math.floor(bytes / MIB); i++) parts.push(whole);
  if (bytes % MIB > 0) parts.push(segment(bytes % MIB));
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((bytes % 65521) << 16) | 1) >>> 0);
  parts.push(Buffer.from([0x03, 0x00]), adler);
  return Buffer.concat(parts);
}
