import { constants, inflateRawSync } from 'node:zlib';
import {
  DamagedPartError,
  ZipError,
  type ZipArchive,
  type ZipEntry,
} from '../../formats/zip/index.js';
import type { HardenSource } from './package-parts.js';

const ZIP_LOCAL_HEADER = Buffer.from('PK\x03\x04', 'latin1');
/**
 * Compressed bytes inflated to see a part's first four: a deflate block's code tables take a few
 * hundred bytes, and this little input cannot inflate to much (deflate's largest ratio is about
 * 1032), so a hostile part cannot make the look costly.
 */
const HEAD_INPUT_BYTES = 512;

/**
 * The parts that are themselves zip packages: Word documents embedded as objects
 * (`word/embeddings/*.docx`) or inserted whole (`w:altChunk`). LibreOffice imports an embedded
 * Word document with its own font table, so its embedded fonts are loaded like the outer
 * document's (tried here: an altChunk and an OLE package each put their Calibri into the PDF).
 * LibreOffice finds them by relationship id whatever the relationship's type or the part's name,
 * so every part that is not XML is looked at: its first four bytes, which for a picture cost a
 * small inflate. A zip with bytes before its first header is not opened by LibreOffice (tried:
 * such an altChunk was left out), so the head is enough.
 */
export function zipParts(pkg: HardenSource): { zips: string[]; unreadable: UnreadablePart[] } {
  const xml = new Set(pkg.xmlParts);
  const zips: string[] = [];
  const unreadable: UnreadablePart[] = [];
  for (const entry of pkg.archive.entries) {
    if (entry.name.endsWith('/') || xml.has(entry.name)) continue;
    try {
      if (startsAsZip(pkg.archive, entry)) zips.push(entry.name);
    } catch (err) {
      if (!(err instanceof ZipError)) throw err;
      unreadable.push({
        part: entry.name,
        message: err instanceof DamagedPartError ? err.fault : err.why,
      });
    }
  }
  return { zips, unreadable };
}

/**
 * A part whose beginning could not be read: only a damaged or crafted one (a picture's first
 * compressed bytes always inflate to something), and whether LibreOffice reads it as a package
 * cannot be told.
 */
export interface UnreadablePart {
  part: string;
  message: string;
}

function startsAsZip(archive: ZipArchive, entry: ZipEntry): boolean {
  if (entry.uncompressedSize < ZIP_LOCAL_HEADER.length) return false;
  const raw = archive.raw(entry);
  let head: Buffer | undefined;
  if (entry.method === 0) head = raw;
  else {
    try {
      head = inflateRawSync(raw.subarray(0, HEAD_INPUT_BYTES), {
        // A truncated stream ends without an error: what it held so far is returned.
        finishFlush: constants.Z_SYNC_FLUSH,
      });
    } catch {
      head = undefined;
    }
  }
  // Too little came out (blocks that say nothing first, a damaged stream): the whole part says.
  if (!head || head.length < ZIP_LOCAL_HEADER.length) head = archive.read(entry);
  return head.subarray(0, ZIP_LOCAL_HEADER.length).equals(ZIP_LOCAL_HEADER);
}
