import { decodeXml, parseRelationships, resolvePartName, type ContentTypes } from '../opc/index.js';
import type { ZipArchive } from '../zip/index.js';
import { unsupported, type UnsupportedSniff } from './sniff-result.js';

/** Parts the main document shows and fill fills: each found by its content type. */
const FILLED_KINDS = new Set(['header', 'footer', 'footnotes', 'endnotes', 'comments']);
const RELATIONSHIP_BASES = [
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships/',
  'http://purl.oclc.org/ooxml/officeDocument/relationships/',
];
const CONTENT_TYPE_BASE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.';

/**
 * Refuses a package whose main document uses a part as a header (footer, notes, comments) that
 * its content type does not call one. LibreOffice follows the relationship and shows the part
 * whatever its name or type; fill finds such parts by content type, so it would leave that
 * header's fields unfilled, and Word refuses the package. Such a file reads differently in each.
 */
export function misdeclaredPart(
  archive: ZipArchive,
  contentTypes: ContentTypes,
  mainPart: string,
): UnsupportedSniff | undefined {
  const slash = mainPart.lastIndexOf('/');
  const relsName = `${mainPart.slice(0, slash + 1)}_rels/${mainPart.slice(slash + 1)}.rels`;
  // Already read and checked among the XML parts, so this read is from the archive's cache.
  if (!archive.has(relsName)) return undefined;
  for (const r of parseRelationships(decodeXml(archive.read(relsName)))) {
    const kind = filledKind(r.type);
    if (r.external || kind === undefined) continue;
    const part = resolvePartName(mainPart, r.target);
    if (!archive.has(part)) continue;
    const declared = contentTypes.of(part);
    const expected = `${CONTENT_TYPE_BASE}${kind}+xml`;
    if (declared?.toLowerCase() === expected) continue;
    return unsupported(
      'damaged',
      `part ${part} is the document's ${kind} but its content type is ${declared ? `"${declared}"` : 'not declared'}, not ${expected}: Word refuses such a package, and its fields would not be filled`,
    );
  }
  return undefined;
}

function filledKind(type: string): string | undefined {
  const base = RELATIONSHIP_BASES.find((b) => type.startsWith(b));
  const kind = base === undefined ? undefined : type.slice(base.length);
  return kind !== undefined && FILLED_KINDS.has(kind) ? kind : undefined;
}
