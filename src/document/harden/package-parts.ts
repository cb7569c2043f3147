import type { ContentTypes } from '../../formats/opc/index.js';
import {
  badCharacterReference,
  decodeXml,
  textEncodingOf,
  unnamedCharacter,
} from '../../formats/opc/index.js';
import { DamagedPartError, type ZipArchive } from '../../formats/zip/index.js';

/**
 * What hardening needs of a package: `DocxPackage` (src/formats/sniff) has it, for the document itself
 * and for every Word document embedded in it.
 */
export interface HardenSource {
  readonly archive: ZipArchive;
  readonly contentTypes: ContentTypes;
  /** Entry names of every XML part, all of them checked by sniffing. */
  readonly xmlParts: readonly string[];
}

/** A part's text as a later step of the same plan sees it: rewritten, or as the package has it. */
export type PartReader = (name: string) => Buffer;

/** The relationship part of a part: `word/_rels/fontTable.xml.rels` for `word/fontTable.xml`. */
export function relationshipPartOf(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

/** The part a relationship part speaks for ('' for the package's own `_rels/.rels`). */
export function sourceOfRelationshipPart(rels: string): string {
  const m = /^(.*?)_rels\/([^/]*)\.rels$/i.exec(rels);
  return m ? `${m[1]}${m[2]}` : '';
}

/**
 * Text of an XML part, and how to write text back in the part's own encoding. Given the part's
 * name, the text is checked as `readXmlPart` checks it, so that a damaged part fails naming it.
 */
export function xmlText(
  bytes: Buffer,
  part?: string,
): { text: string; encode: (text: string) => Buffer } {
  const { encoding, start } = textEncodingOf(bytes);
  const head = bytes.subarray(0, start);
  const text = decodeXml(bytes);
  const bad = part === undefined ? undefined : badCharacterReference(text);
  if (bad !== undefined) throw new DamagedPartError(part, unnamedCharacter(bad));
  if (encoding === 'utf-8') {
    return { text, encode: (t) => Buffer.concat([head, Buffer.from(t, 'utf8')]) };
  }
  return {
    text,
    encode: (t) => {
      const le = Buffer.from(t, 'utf16le');
      return Buffer.concat([head, encoding === 'utf-16le' ? le : le.swap16()]);
    },
  };
}
