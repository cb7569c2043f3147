/**
 * Rewrites fields of a zip's central directory (and the matching local header), to build
 * archives whose headers lie: the inputs zip bombs and damaged files are made of.
 */
export interface EntryPatch {
  uncompressedSize?: number;
  compressedSize?: number;
  flags?: number;
  localHeaderOffset?: number;
  crc32?: number;
}

export function patchEntry(zip: Buffer, name: string, patch: EntryPatch): Buffer {
  const out = Buffer.from(zip);
  const nameBytes = Buffer.from(name, 'utf8');
  let found = false;
  for (let i = 0; i + 46 <= out.length; i++) {
    if (out.readUInt32LE(i) !== 0x02014b50) continue;
    const nameLength = out.readUInt16LE(i + 28);
    if (!out.subarray(i + 46, i + 46 + nameLength).equals(nameBytes)) continue;
    found = true;
    const local = out.readUInt32LE(i + 42);
    if (patch.flags !== undefined) {
      out.writeUInt16LE(patch.flags, i + 8);
      out.writeUInt16LE(patch.flags, local + 6);
    }
    if (patch.crc32 !== undefined) out.writeUInt32LE(patch.crc32, i + 16);
    if (patch.compressedSize !== undefined) out.writeUInt32LE(patch.compressedSize, i + 20);
    if (patch.uncompressedSize !== undefined) out.writeUInt32LE(patch.uncompressedSize, i + 24);
    if (patch.localHeaderOffset !== undefined) out.writeUInt32LE(patch.localHeaderOffset, i + 42);
  }
  if (!found) throw new Error(`no central directory entry named ${name}`);
  return out;
}

/** A minimal Compound File (OLE2) with the given streams, for encrypted-Office and .doc inputs. */
export function buildCfb(streams: { name: string; data?: Buffer }[]): Buffer {
  const SECTOR = 512;
  const END = 0xfffffffe;
  const header = Buffer.alloc(SECTOR);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x3e, 0x18);
  header.writeUInt16LE(3, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(9, 0x1e);
  header.writeUInt16LE(6, 0x20);
  header.writeUInt32LE(1, 0x2c);
  header.writeUInt32LE(1, 0x30);
  header.writeUInt32LE(4096, 0x38);
  header.writeUInt32LE(END, 0x3c);
  header.writeUInt32LE(END, 0x44);
  header.fill(0xff, 0x4c);
  header.writeUInt32LE(0, 0x4c);

  const dataSectors: Buffer[] = [];
  const fat = Buffer.alloc(SECTOR, 0xff);
  fat.writeUInt32LE(0xfffffffd, 0);
  fat.writeUInt32LE(END, 4);
  const directory = Buffer.alloc(SECTOR);
  const entries = [{ name: 'Root Entry', type: 5, start: END, size: 0 }];
  for (const s of streams) {
    let start = END;
    if (s.data) {
      start = 2 + dataSectors.length;
      const sector = Buffer.alloc(SECTOR);
      s.data.copy(sector, 0, 0, Math.min(SECTOR, s.data.length));
      dataSectors.push(sector);
      fat.writeUInt32LE(END, start * 4);
    }
    entries.push({
      name: s.name,
      type: 2,
      start,
      size: s.data ? Math.max(4096, s.data.length) : 0,
    });
  }
  entries.forEach((e, i) => {
    const at = i * 128;
    const name = Buffer.from(`${e.name}\0`, 'utf16le');
    name.copy(directory, at);
    directory.writeUInt16LE(name.length, at + 0x40);
    directory[at + 0x42] = e.type;
    directory.writeUInt32LE(e.start, at + 0x74);
    directory.writeUInt32LE(e.size, at + 0x78);
  });
  return Buffer.concat([header, fat, directory, ...dataSectors]);
}
