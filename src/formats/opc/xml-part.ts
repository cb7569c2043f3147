import { DamagedPartError, type ZipArchive } from '../zip/index.js';
import { textEncodingOf } from './xml-encoding.js';
import { badCharacterReference, decodeXml, unnamedCharacter } from './xml-text.js';

/**
 * A package part's XML as text: inflated and checked (size, CRC), decoded in its encoding, and
 * checked for what no XML parser reads (a character reference that names no character). Every
 * failure is a {@link DamagedPartError} naming the part, so each reader of parts (harden, the
 * font scan, lint, preview, fill) fails the same typed, permanent way on a damaged part.
 */
export function readXmlPart(archive: ZipArchive, name: string): string {
  const text = decodeXml(archive.read(name));
  const bad = badCharacterReference(text);
  if (bad !== undefined) throw new DamagedPartError(name, unnamedCharacter(bad));
  return text;
}

const REFERENCE_START = Buffer.from('&#', 'latin1');

/**
 * {@link badCharacterReference} of a part's bytes. A UTF-8 part without `&#` (nearly every part)
 * costs one byte search, no decoding.
 */
export function badCharacterReferenceIn(bytes: Buffer): string | undefined {
  if (textEncodingOf(bytes).encoding === 'utf-8' && !bytes.includes(REFERENCE_START))
    return undefined;
  return badCharacterReference(decodeXml(bytes));
}

/**
 * The damaged-part error for an XML parser's fatal error: xmldom's `ParseError`, which
 * docxtemplater raises for a content-types or relationship part it cannot parse (sniffing reads
 * those leniently, by their elements). The parser does not say which part; its message names
 * the element (`unclosed xml tag(s): Types`). Undefined for any other error.
 */
export function damagedXmlOf(err: unknown): DamagedPartError | undefined {
  const e = err as { name?: unknown; message?: unknown } | null;
  if (e?.name !== 'ParseError' || typeof e.message !== 'string') return undefined;
  const first = e.message.split('\n', 1)[0]!.trim();
  return new DamagedPartError(undefined, `is not well-formed XML (${first})`);
}
