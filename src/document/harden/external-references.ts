import {
  badCharacterReference,
  extensionOf,
  unescapeXml,
  unnamedCharacter,
} from '../../formats/opc/index.js';
import { DamagedPartError } from '../../formats/zip/index.js';
import { openDocx, type DocxPackage, type SniffLimits } from '../../formats/sniff/index.js';
import { writeZip, type ZipItem } from '../../formats/zip/index.js';

/** A relationship that pointed outside the package, and was cut before conversion. */
export interface NeutralizedReference {
  part: string;
  id: string;
  type: string;
  target: string;
}

/** Hyperlinks only become links in the PDF; LibreOffice never fetches them while converting. */
const HARMLESS_TYPES = new Set([
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink',
  'http://purl.oclc.org/ooxml/officeDocument/relationships/hyperlink',
]);

/** Where a cut relationship points: nowhere LibreOffice can load anything from. */
export const INERT_TARGET = 'about:blank';

const RELATIONSHIP = /<(?:[A-Za-z_][\w.-]*:)?Relationship\b[^>]*>/g;
const attribute = (element: string, name: string): string | undefined => {
  const m = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(element);
  return m ? unescapeXml(m[1] ?? m[2] ?? '') : undefined;
};

/**
 * Points every external relationship except hyperlinks (linked images, attached templates,
 * subdocuments, OLE links, frames, data sources) at an inert target. Defence in depth beneath the
 * hardened profile and the network namespace: LibreOffice never proxies loopback addresses, so
 * with the profile alone a linked image on 127.0.0.1 was probed (a WebDAV OPTIONS request).
 * Returns the document unchanged (same bytes) when there is nothing to cut.
 */
export function neutralizeExternalReferences(
  docx: Uint8Array,
  limits?: SniffLimits,
): { docx: Uint8Array; neutralized: NeutralizedReference[] } {
  const { docx: rewritten, neutralized } = neutralizePackage(openDocx(docx, limits));
  return { docx: rewritten ?? docx, neutralized };
}

/** As {@link neutralizeExternalReferences}, for a parsed package; no bytes when nothing changes. */
export function neutralizePackage(pkg: DocxPackage): {
  docx?: Buffer;
  neutralized: NeutralizedReference[];
} {
  const { changed, neutralized } = planNeutralization(pkg);
  if (changed.size === 0) return { neutralized };
  const items: ZipItem[] = pkg.archive.entries.map((entry) => {
    const data = changed.get(entry.name);
    return data ? { name: entry.name, data } : { name: entry.name, from: pkg.archive, entry };
  });
  return { docx: writeZip(items), neutralized };
}

/**
 * The external references of a package and the relationship parts rewritten without them. Reads
 * only relationship parts, which the package has inflated already when sniffing checked them.
 */
export function planNeutralization(pkg: DocxPackage): {
  changed: Map<string, Buffer>;
  neutralized: NeutralizedReference[];
} {
  const neutralized: NeutralizedReference[] = [];
  const changed = new Map<string, Buffer>();
  for (const part of pkg.xmlParts) {
    if (extensionOf(part) !== 'rels') continue;
    const xml = pkg.archive.read(part).toString('utf8');
    if (!/TargetMode\s*=\s*["']External["']/i.test(xml)) continue;
    const bad = badCharacterReference(xml);
    if (bad !== undefined) throw new DamagedPartError(part, unnamedCharacter(bad));
    const rewritten = xml.replace(RELATIONSHIP, (element) => {
      const mode = attribute(element, 'TargetMode');
      const type = attribute(element, 'Type') ?? '';
      if (mode?.toLowerCase() !== 'external' || HARMLESS_TYPES.has(type)) return element;
      neutralized.push({
        part,
        id: attribute(element, 'Id') ?? '',
        type,
        target: attribute(element, 'Target') ?? '',
      });
      return element.replace(/\bTarget\s*=\s*(?:"[^"]*"|'[^']*')/, `Target="${INERT_TARGET}"`);
    });
    if (rewritten !== xml) changed.set(part, Buffer.from(rewritten, 'utf8'));
  }
  return { changed, neutralized };
}
