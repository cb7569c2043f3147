import { constants, inflateRawSync } from 'node:zlib';
import {
  badCharacterReferenceIn,
  hasDefiningDoctype,
  hasDoctype,
  sniffXml,
  unnamedCharacter,
  type XmlSniff,
} from '../opc/index.js';
import { ZipError, type ZipArchive, type ZipEntry } from '../zip/index.js';
import { unsupported, type UnsupportedSniff } from './sniff-result.js';

/** Bytes of a part's beginning that tell whether it is XML; a declaration fits in them. */
const HEAD_BYTES = 1024;
/**
 * Compressed bytes inflated to get that head. A deflate block's code tables take at most a few
 * hundred bytes; the output of this much input is at most about 1032 times larger (deflate's
 * largest ratio), so a hostile entry cannot make the head costly.
 */
const HEAD_INPUT_BYTES = 2048;

/**
 * Reads an XML part and checks it: refused when it is in an encoding docpipe does not read
 * (another parser would read what docpipe cannot check), declares a DOCTYPE, or holds a character
 * reference that names no character. Returns its bytes,
 * or the refusal.
 */
export function readCheckedXml(archive: ZipArchive, name: string): Buffer | UnsupportedSniff {
  const bytes = readEntry(archive, name);
  if (!Buffer.isBuffer(bytes)) return bytes;
  const sniffed = sniffXml(bytes.subarray(0, HEAD_BYTES), bytes.length <= HEAD_BYTES);
  return checkSniffed(name, bytes, sniffed, hasDoctype);
}

/**
 * Whether a part whose name and content type do not say XML is XML by its content, as a parser
 * that follows a relationship to it would read it (LibreOffice reads a header named `.dat` as a
 * header). Only its first bytes are inflated, so images and fonts cost next to nothing.
 * Such a part may carry a bare DOCTYPE (an HTML part's `<!DOCTYPE html>`), which defines
 * nothing; one that could define entities or fetch a DTD is refused.
 * Returns its checked bytes when it is XML, undefined when it is not, or the refusal.
 */
export function xmlByContent(
  archive: ZipArchive,
  entry: ZipEntry,
): Buffer | undefined | UnsupportedSniff {
  const head = readHead(archive, entry);
  if (head !== undefined) {
    const sniffed = sniffXml(head, head.length >= entry.uncompressedSize);
    if (sniffed.kind === 'not-xml') return undefined;
  }
  const bytes = readEntry(archive, entry.name);
  if (!Buffer.isBuffer(bytes)) return bytes;
  const sniffed = sniffXml(bytes.subarray(0, HEAD_BYTES), bytes.length <= HEAD_BYTES);
  if (sniffed.kind === 'not-xml' || sniffed.kind === 'undecided') {
    // Long white space before anything: the whole part must show whether it is XML.
    const whole = sniffXml(bytes, true);
    if (whole.kind === 'not-xml') return undefined;
    return checkSniffed(entry.name, bytes, whole, hasDefiningDoctype);
  }
  return checkSniffed(entry.name, bytes, sniffed, hasDefiningDoctype);
}

function checkSniffed(
  name: string,
  bytes: Buffer,
  sniffed: XmlSniff,
  refusedDoctype: (bytes: Buffer) => boolean,
): Buffer | UnsupportedSniff {
  if (sniffed.kind === 'unreadable') {
    return unsupported(
      'damaged',
      `XML part ${name} ${sniffed.why}; docpipe reads XML parts in UTF-8 or UTF-16, as OOXML requires`,
    );
  }
  if (refusedDoctype(bytes))
    return unsupported('xml-doctype', `XML part ${name} declares a DOCTYPE`);
  // Every reader of the part would stop there, each its own way: one refusal, here.
  const bad = badCharacterReferenceIn(bytes);
  if (bad !== undefined) return unsupported('damaged', `XML part ${name} ${unnamedCharacter(bad)}`);
  return bytes;
}

function readEntry(archive: ZipArchive, name: string): Buffer | UnsupportedSniff {
  try {
    return archive.read(name);
  } catch (err) {
    if (err instanceof ZipError) return unsupported(err.problem, err.why);
    throw err;
  }
}

/**
 * The first bytes of an entry without inflating all of it, or undefined when they cannot be had
 * that way (the full read then says what is wrong with the entry).
 */
function readHead(archive: ZipArchive, entry: ZipEntry): Buffer | undefined {
  const raw = archive.raw(entry);
  if (entry.method === 0) return raw.subarray(0, Math.min(HEAD_BYTES, entry.uncompressedSize));
  try {
    const head = inflateRawSync(raw.subarray(0, HEAD_INPUT_BYTES), {
      // A truncated stream ends without an error: what it held so far is returned.
      finishFlush: constants.Z_SYNC_FLUSH,
      maxOutputLength: Math.max(1, entry.uncompressedSize),
    });
    return head.subarray(0, HEAD_BYTES);
  } catch {
    return undefined;
  }
}
