import { createHash } from 'node:crypto';
import { crc32, inflateRawSync } from 'node:zlib';
import { DamagedPartError, ZipError } from './zip-error.js';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip-limits.js';
import { asBuffer } from '../../base/util/index.js';

const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_LOCAL = 0x04034b50;
const EOCD_MIN = 22;
const CENTRAL_MIN = 46;
const LOCAL_MIN = 30;
/** The EOCD record ends the file, after at most a 65535-byte comment. */
const EOCD_SEARCH = EOCD_MIN + 0xffff;
const FLAG_ENCRYPTED = 0x0001;
const FLAG_UTF8 = 0x0800;
const METHOD_STORED = 0;
const METHOD_DEFLATE = 8;
const EXTRA_ZIP64 = 0x0001;
const EXTRA_UNICODE_PATH = 0x7075;

export interface ZipEntry {
  /** Name as the central directory gives it. */
  readonly name: string;
  readonly method: number;
  readonly flags: number;
  readonly crc32: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly localHeaderOffset: number;
  /** Offset of the compressed data, after the local header. */
  readonly dataOffset: number;
}

/**
 * A zip archive read from its central directory, with every limit checked before anything is
 * inflated. Entries inflate on demand with a cap at their declared size, so a header that lies
 * about sizes cannot make us allocate more than the limits allow.
 */
export class ZipArchive {
  readonly entries: readonly ZipEntry[];
  private readonly byLowerName: Map<string, ZipEntry>;
  private readonly inflated = new Map<ZipEntry, Buffer>();
  private sha256: string | undefined;

  private constructor(
    private readonly bytes: Buffer,
    entries: ZipEntry[],
  ) {
    this.entries = entries;
    this.byLowerName = new Map(entries.map((e) => [e.name.toLowerCase(), e]));
  }

  static open(bytes: Uint8Array, limits: ZipLimits = DEFAULT_ZIP_LIMITS): ZipArchive {
    const buf = asBuffer(bytes);
    return new ZipArchive(buf, readCentralDirectory(buf, limits));
  }

  /** Size of the archive, in bytes. */
  get byteLength(): number {
    return this.bytes.length;
  }

  /** SHA-256 of the archive's bytes, hex: names a template for caches. */
  digest(): string {
    this.sha256 ??= createHash('sha256').update(this.bytes).digest('hex');
    return this.sha256;
  }

  /** Looks an entry up by name. OPC part names are case-insensitive. */
  entry(name: string): ZipEntry | undefined {
    return this.byLowerName.get(name.toLowerCase());
  }

  has(name: string): boolean {
    return this.byLowerName.has(name.toLowerCase());
  }

  /**
   * The inflated bytes of an entry, checked against its declared size and CRC. A part that is
   * missing or does not read back as its headers say throws {@link DamagedPartError}, naming it.
   */
  read(nameOrEntry: string | ZipEntry): Buffer {
    const entry = typeof nameOrEntry === 'string' ? this.entry(nameOrEntry) : nameOrEntry;
    if (!entry)
      throw new DamagedPartError(
        typeof nameOrEntry === 'string' ? nameOrEntry : nameOrEntry.name,
        'is missing',
      );
    const cached = this.inflated.get(entry);
    if (cached) return cached;
    const data = inflateEntry(this.raw(entry), entry);
    this.inflated.set(entry, data);
    return data;
  }

  /** The stored (compressed) bytes of an entry, for copying it unchanged into a new archive. */
  raw(entry: ZipEntry): Buffer {
    return this.bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  }
}

function inflateEntry(raw: Buffer, entry: ZipEntry): Buffer {
  let data: Buffer;
  if (entry.method === METHOD_STORED) {
    data = raw;
  } else {
    try {
      // maxOutputLength is the running cap: zlib stops as soon as the output would pass the
      // declared size, whatever the compressed stream claims.
      data = inflateRawSync(raw, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
    } catch (err) {
      const code = (err as { code?: string }).code;
      // Damaged, not too large: the declared size passed the limits, and inflating stopped
      // there, so nothing past them was spent. A flipped byte in the compressed data does this
      // far more often than a bomb whose header lies, and "too-large" would send its owner
      // looking for a size problem the file does not have.
      if (code === 'ERR_BUFFER_TOO_LARGE') {
        throw new DamagedPartError(
          entry.name,
          `inflates past its declared ${entry.uncompressedSize} bytes: its data does not match its header`,
        );
      }
      throw new DamagedPartError(entry.name, `does not inflate: ${(err as Error).message}`);
    }
  }
  if (data.length !== entry.uncompressedSize) {
    throw new DamagedPartError(
      entry.name,
      `holds ${data.length} bytes, its header says ${entry.uncompressedSize}`,
    );
  }
  if (crc32(data) !== entry.crc32) throw new DamagedPartError(entry.name, 'fails its CRC check');
  return data;
}

interface EndRecord {
  entryCount: number;
  cdSize: number;
  cdOffset: number;
}

function findEndRecord(buf: Buffer): EndRecord {
  if (buf.length < EOCD_MIN) throw new ZipError('damaged', 'too short to be a zip archive');
  const stop = Math.max(0, buf.length - EOCD_SEARCH);
  for (let i = buf.length - EOCD_MIN; i >= stop; i--) {
    if (buf.readUInt32LE(i) !== SIG_EOCD) continue;
    const commentLength = buf.readUInt16LE(i + 20);
    // A signature inside the comment would not reach the end of the file exactly.
    if (i + EOCD_MIN + commentLength > buf.length) continue;
    const disk = buf.readUInt16LE(i + 4);
    const cdDisk = buf.readUInt16LE(i + 6);
    const onDisk = buf.readUInt16LE(i + 8);
    let entryCount = buf.readUInt16LE(i + 10);
    let cdSize = buf.readUInt32LE(i + 12);
    let cdOffset = buf.readUInt32LE(i + 16);
    if (entryCount === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
      ({ entryCount, cdSize, cdOffset } = readZip64End(buf, i));
    } else if (disk !== 0 || cdDisk !== 0 || onDisk !== entryCount) {
      throw new ZipError('damaged', 'multi-disk archives are not supported');
    }
    return { entryCount, cdSize, cdOffset };
  }
  throw new ZipError('damaged', 'no end-of-central-directory record (truncated or not a zip)');
}

function readZip64End(buf: Buffer, eocdOffset: number): EndRecord {
  const locator = eocdOffset - 20;
  if (locator < 0 || buf.readUInt32LE(locator) !== SIG_ZIP64_LOCATOR) {
    throw new ZipError('damaged', 'zip64 sizes without a zip64 locator');
  }
  const recordOffset = safeNumber(buf.readBigUInt64LE(locator + 8));
  if (recordOffset + 56 > buf.length || buf.readUInt32LE(recordOffset) !== SIG_ZIP64_EOCD) {
    throw new ZipError('damaged', 'zip64 end record missing');
  }
  return {
    entryCount: safeNumber(buf.readBigUInt64LE(recordOffset + 32)),
    cdSize: safeNumber(buf.readBigUInt64LE(recordOffset + 40)),
    cdOffset: safeNumber(buf.readBigUInt64LE(recordOffset + 48)),
  };
}

function safeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER))
    throw new ZipError('damaged', 'zip64 value out of range');
  return Number(value);
}

function readCentralDirectory(buf: Buffer, limits: ZipLimits): ZipEntry[] {
  const end = findEndRecord(buf);
  if (end.entryCount > limits.maxEntries) {
    throw new ZipError(
      'too-large',
      `${end.entryCount} entries, more than the limit of ${limits.maxEntries}`,
    );
  }
  if (end.cdOffset + end.cdSize > buf.length) {
    throw new ZipError('damaged', 'central directory lies past the end of the file');
  }
  const entries: ZipEntry[] = [];
  const seen = new Set<string>();
  let total = 0;
  let pos = end.cdOffset;
  for (let n = 0; n < end.entryCount; n++) {
    if (pos + CENTRAL_MIN > buf.length || buf.readUInt32LE(pos) !== SIG_CENTRAL) {
      throw new ZipError('damaged', `central directory entry ${n} is malformed`);
    }
    const flags = buf.readUInt16LE(pos + 8);
    const method = buf.readUInt16LE(pos + 10);
    const crc = buf.readUInt32LE(pos + 16);
    let compressedSize = buf.readUInt32LE(pos + 20);
    let uncompressedSize = buf.readUInt32LE(pos + 24);
    const nameLength = buf.readUInt16LE(pos + 28);
    const extraLength = buf.readUInt16LE(pos + 30);
    const commentLength = buf.readUInt16LE(pos + 32);
    let localHeaderOffset = buf.readUInt32LE(pos + 42);
    const nameStart = pos + CENTRAL_MIN;
    const extraStart = nameStart + nameLength;
    const next = extraStart + extraLength + commentLength;
    if (next > buf.length)
      throw new ZipError('damaged', `central directory entry ${n} is truncated`);
    const nameBytes = buf.subarray(nameStart, extraStart);
    const name = decodeName(nameBytes, flags);
    const extra = buf.subarray(extraStart, extraStart + extraLength);

    const zip64 = findExtra(extra, EXTRA_ZIP64);
    if (zip64) {
      let at = 0;
      const take = (): number => {
        if (at + 8 > zip64.length)
          throw new ZipError('damaged', `zip64 extra field of ${name} is short`);
        const v = safeNumber(zip64.readBigUInt64LE(at));
        at += 8;
        return v;
      };
      if (uncompressedSize === 0xffffffff) uncompressedSize = take();
      if (compressedSize === 0xffffffff) compressedSize = take();
      if (localHeaderOffset === 0xffffffff) localHeaderOffset = take();
    }

    // Zip tools disagree about the Info-ZIP Unicode Path field: some rename the entry, some do
    // not. An archive that means different things to different readers is refused.
    const unicodePath = findExtra(extra, EXTRA_UNICODE_PATH);
    if (unicodePath && unicodePath.length > 5) {
      const alias = unicodePath.subarray(5).toString('utf8');
      if (alias !== name) {
        throw new ZipError(
          'damaged',
          `entry ${name} carries a second name ${alias}: readers would disagree`,
        );
      }
    }

    const key = name.toLowerCase();
    if (seen.has(key)) throw new ZipError('damaged', `entry ${name} appears twice`);
    seen.add(key);

    if (flags & FLAG_ENCRYPTED) throw new ZipError('encrypted', `entry ${name} is encrypted`);
    if (method !== METHOD_STORED && method !== METHOD_DEFLATE) {
      throw new ZipError('damaged', `entry ${name} uses compression method ${method}`);
    }
    if (method === METHOD_STORED && compressedSize !== uncompressedSize) {
      throw new ZipError('damaged', `stored entry ${name} has different sizes`);
    }
    total += uncompressedSize;
    if (total > limits.maxUncompressedBytes) {
      throw new ZipError(
        'too-large',
        `entries inflate to more than the limit of ${limits.maxUncompressedBytes} bytes`,
      );
    }
    if (
      uncompressedSize >= limits.ratioCheckMinBytes &&
      uncompressedSize / Math.max(1, compressedSize) > limits.maxCompressionRatio
    ) {
      throw new ZipError(
        'too-large',
        `entry ${name} claims a compression ratio of ${Math.round(uncompressedSize / Math.max(1, compressedSize))}:1, more than ${limits.maxCompressionRatio}:1`,
      );
    }
    const dataOffset = readLocalHeader(buf, localHeaderOffset, nameBytes, name);
    if (dataOffset + compressedSize > buf.length) {
      throw new ZipError('damaged', `entry ${name} lies past the end of the file`);
    }
    entries.push({
      name,
      method,
      flags,
      crc32: crc,
      compressedSize,
      uncompressedSize,
      localHeaderOffset,
      dataOffset,
    });
    pos = next;
  }
  rejectOverlaps(entries, end.cdOffset);
  return entries;
}

function readLocalHeader(buf: Buffer, offset: number, nameBytes: Buffer, name: string): number {
  if (offset + LOCAL_MIN > buf.length || buf.readUInt32LE(offset) !== SIG_LOCAL) {
    throw new ZipError('damaged', `local header of ${name} is missing`);
  }
  const nameLength = buf.readUInt16LE(offset + 26);
  const extraLength = buf.readUInt16LE(offset + 28);
  const localName = buf.subarray(offset + LOCAL_MIN, offset + LOCAL_MIN + nameLength);
  // Readers that walk local headers and readers that trust the central directory must see the
  // same names, or a checked part could be swapped for an unchecked one.
  if (!localName.equals(nameBytes)) {
    throw new ZipError('damaged', `local and central names of ${name} differ`);
  }
  return offset + LOCAL_MIN + nameLength + extraLength;
}

/** Overlapping entries are how non-recursive zip bombs multiply one compressed stream. */
function rejectOverlaps(entries: ZipEntry[], cdOffset: number): void {
  const sorted = [...entries].sort((a, b) => a.localHeaderOffset - b.localHeaderOffset);
  for (let i = 0; i < sorted.length; i++) {
    const e = sorted[i]!;
    const end = e.dataOffset + e.compressedSize;
    const nextStart = i + 1 < sorted.length ? sorted[i + 1]!.localHeaderOffset : cdOffset;
    if (end > nextStart) throw new ZipError('damaged', `entry ${e.name} overlaps the next entry`);
  }
}

function findExtra(extra: Buffer, id: number): Buffer | undefined {
  let at = 0;
  while (at + 4 <= extra.length) {
    const headerId = extra.readUInt16LE(at);
    const size = extra.readUInt16LE(at + 2);
    if (at + 4 + size > extra.length) return undefined;
    if (headerId === id) return extra.subarray(at + 4, at + 4 + size);
    at += 4 + size;
  }
  return undefined;
}

function decodeName(bytes: Buffer, flags: number): string {
  // Without the UTF-8 flag names are CP437; OOXML part names are ASCII in practice, and a
  // latin1 reading keeps every byte distinct, which is all duplicate detection needs.
  return flags & FLAG_UTF8 ? bytes.toString('utf8') : bytes.toString('latin1');
}
