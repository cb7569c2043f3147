import { unsupported, type UnsupportedSniff } from './sniff-result.js';

export const CFB_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

const FREE_OR_END = 0xfffffffa;
const DIR_ENTRY_SIZE = 128;
/** FIB flag fEncrypted of a Word 97-2003 WordDocument stream. */
const FIB_ENCRYPTED = 0x0100;
const WORD_FIB_IDENT = 0xa5ec;

/**
 * Compound File Binary (OLE2): Word/Excel/PowerPoint 97-2003, or an encrypted OOXML file, which
 * Office wraps in a CFB holding EncryptionInfo and EncryptedPackage. Never a .docx we accept;
 * the directory tells which refusal reason fits.
 */
export function probeCfb(bytes: Buffer): UnsupportedSniff {
  let names: Map<string, { start: number; size: number }>;
  let sectorSize: number;
  try {
    ({ names, sectorSize } = readDirectory(bytes));
  } catch (err) {
    return unsupported('damaged', `OLE2 compound file is unreadable: ${(err as Error).message}`);
  }
  if (names.has('encryptioninfo') || names.has('encryptedpackage')) {
    return unsupported(
      'encrypted',
      'encrypted Office document (OLE2 container with EncryptedPackage)',
    );
  }
  const word = names.get('worddocument');
  if (word) {
    const fibAt = (word.start + 1) * sectorSize;
    if (word.size >= 0x0c && fibAt + 0x0c <= bytes.length) {
      const ident = bytes.readUInt16LE(fibAt);
      const flags = bytes.readUInt16LE(fibAt + 0x0a);
      if (ident === WORD_FIB_IDENT && flags & FIB_ENCRYPTED) {
        return unsupported('encrypted', 'password-protected Word 97-2003 document');
      }
    }
    return unsupported('legacy-office', 'Word 97-2003 document (.doc), not .docx');
  }
  if (names.has('workbook') || names.has('book')) {
    return unsupported('legacy-office', 'Excel 97-2003 workbook (.xls)');
  }
  if (names.has('powerpoint document')) {
    return unsupported('legacy-office', 'PowerPoint 97-2003 presentation (.ppt)');
  }
  return unsupported('legacy-office', 'OLE2 compound file that is not a Word document');
}

function readDirectory(bytes: Buffer): {
  names: Map<string, { start: number; size: number }>;
  sectorSize: number;
} {
  if (bytes.length < 512) throw new Error('shorter than its header');
  const sectorShift = bytes.readUInt16LE(0x1e);
  if (sectorShift !== 9 && sectorShift !== 12) throw new Error(`sector shift ${sectorShift}`);
  const sectorSize = 1 << sectorShift;
  const sectorCount = Math.floor((bytes.length - sectorSize) / sectorSize) + 1;
  const sectorOffset = (n: number): number => (n + 1) * sectorSize;

  // The first 109 FAT sector numbers sit in the header; more come in DIFAT sectors.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109; i++) {
    const s = bytes.readUInt32LE(0x4c + i * 4);
    if (s < FREE_OR_END) fatSectors.push(s);
  }
  let difat = bytes.readUInt32LE(0x44);
  for (let guard = 0; difat < FREE_OR_END && guard < sectorCount; guard++) {
    const at = sectorOffset(difat);
    if (at + sectorSize > bytes.length) throw new Error('DIFAT past the end');
    for (let i = 0; i < sectorSize / 4 - 1; i++) {
      const s = bytes.readUInt32LE(at + i * 4);
      if (s < FREE_OR_END) fatSectors.push(s);
    }
    difat = bytes.readUInt32LE(at + sectorSize - 4);
  }
  const nextSector = (n: number): number => {
    const perSector = sectorSize / 4;
    const fatSector = fatSectors[Math.floor(n / perSector)];
    if (fatSector === undefined) throw new Error('FAT too short');
    const at = sectorOffset(fatSector) + (n % perSector) * 4;
    if (at + 4 > bytes.length) throw new Error('FAT past the end');
    return bytes.readUInt32LE(at);
  };

  const names = new Map<string, { start: number; size: number }>();
  let sector = bytes.readUInt32LE(0x30);
  // The guard stops a FAT loop: a chain cannot be longer than the file has sectors.
  for (let guard = 0; sector < FREE_OR_END; guard++) {
    if (guard > sectorCount) throw new Error('directory chain loops');
    const at = sectorOffset(sector);
    if (at + sectorSize > bytes.length) throw new Error('directory past the end');
    for (let e = 0; e < sectorSize / DIR_ENTRY_SIZE; e++) {
      const entry = at + e * DIR_ENTRY_SIZE;
      const nameLength = bytes.readUInt16LE(entry + 0x40);
      const type = bytes[entry + 0x42];
      if (type === 0 || nameLength < 2 || nameLength > 64) continue;
      const name = bytes.subarray(entry, entry + nameLength - 2).toString('utf16le');
      names.set(name.toLowerCase(), {
        start: bytes.readUInt32LE(entry + 0x74),
        size: bytes.readUInt32LE(entry + 0x78),
      });
    }
    sector = nextSector(sector);
  }
  return { names, sectorSize };
}
