import { readXmlPart, unescapeXml } from '../../formats/opc/index.js';
import { openDocx, type SniffLimits } from '../../formats/sniff/index.js';
import { PART_ORDER, partKind, type PartKind } from '../fields/index.js';

/**
 * The visible text of a .docx, part by part: paragraphs end in a newline, `<w:br/>` is a newline
 * and `<w:tab/>` a tab. For checking filled templates against expected text.
 */
export function documentText(
  docx: Uint8Array,
  limits?: SniffLimits,
): { part: PartKind; file: string; text: string }[] {
  const pkg = openDocx(docx, limits);
  const out: { part: PartKind; file: string; text: string }[] = [];
  for (const file of pkg.xmlParts) {
    const part = partKind(pkg, file);
    if (part === 'other' || part === 'properties') continue;
    out.push({ part, file, text: paragraphText(readXmlPart(pkg.archive, file)) });
  }
  return out.sort((a, b) => PART_ORDER.indexOf(a.part) - PART_ORDER.indexOf(b.part));
}

const TOKEN = /<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:br\b[^>]*\/>|<w:tab\/>|<\/w:p>/g;

function paragraphText(xml: string): string {
  let text = '';
  for (const m of xml.matchAll(TOKEN)) {
    if (m[1] !== undefined) text += unescapeXml(m[1]);
    else if (m[0].startsWith('<w:br')) text += '\n';
    else if (m[0] === '<w:tab/>') text += '\t';
    else text += '\n';
  }
  return text;
}
