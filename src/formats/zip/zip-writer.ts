import { crc32, deflateRawSync } from 'node:zlib';
import type { ZipArchive, ZipEntry } from './zip-reader.js';

/** A new or changed part: its bytes are deflated. */
export interface NewZipItem {
  name: string;
  data: Buffer;
}

/** An untouched part: its compressed bytes are copied as they are, never inflated. */
export interface CopiedZipItem {
  name: string;
  from: ZipArchive;
  entry: ZipEntry;
}

export type ZipItem = NewZipItem | CopiedZipItem;

const FLAG_UTF8 = 0x0800;
const VERSION = 20;
/** 1980-01-01 00:00: a fixed time keeps equal inputs giving byte-equal outputs. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const DOS_TIME = 0;

/**
 * Writes a zip archive. Deterministic: the same items give the same bytes. With `compress` false,
 * new parts are stored as they are: for an archive read once, at once, by a program on the same
 * machine (LibreOffice), deflating it only costs both sides time.
 */
export function writeZip(
  items: ZipItem[],
  { compress = true }: { compress?: boolean } = {},
): Buffer {
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const item of items) {
    const name = Buffer.from(item.name, 'utf8');
    let method: number;
    let crc: number;
    let size: number;
    let body: Buffer;
    if ('data' in item) {
      crc = crc32(item.data);
      size = item.data.length;
      // Level 1: within a few percent of the default's size for Word XML, at a fraction of the time.
      const deflated = compress ? deflateRawSync(item.data, { level: 1 }) : item.data;
      // Tiny parts can grow when deflated; store them instead.
      if (deflated.length < size) {
        method = 8;
        body = deflated;
      } else {
        method = 0;
        body = item.data;
      }
    } else {
      method = item.entry.method;
      crc = item.entry.crc32;
      size = item.entry.uncompressedSize;
      body = item.from.raw(item.entry);
    }
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(VERSION, 4);
    local.writeUInt16LE(FLAG_UTF8, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);

    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(VERSION, 4);
    cd.writeUInt16LE(VERSION, 6);
    cd.writeUInt16LE(FLAG_UTF8, 8);
    cd.writeUInt16LE(method, 10);
    cd.writeUInt16LE(DOS_TIME, 12);
    cd.writeUInt16LE(DOS_DATE, 14);
    cd.writeUInt32LE(crc, 16);
    cd.writeUInt32LE(body.length, 20);
    cd.writeUInt32LE(size, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    central.push(cd, name);

    chunks.push(local, name, body);
    offset += local.length + name.length + body.length;
  }
  const cdSize = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(items.length, 8);
  end.writeUInt16LE(items.length, 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, ...central, end]);
}
