import { readXmlPart, unescapeXml } from '../../formats/opc/index.js';
import type { DocxPackage } from '../../formats/sniff/index.js';
import type { Delimiters } from './delimiters.js';

/** Answers already given, per package (kept as long as its sniffed package is). */
const answers = new WeakMap<DocxPackage, Map<string, boolean>>();

/**
 * Whether a .docx may hold anchors: text that reads like `{sign:`, `{initials`, `{name:` or
 * `{date:` in its word/ parts, runs joined. A document given without values is not filled (its
 * tags show as written), unless this says yes: its anchors must become markers all the same.
 * Cheap and generous: a yes only means the document is filled, which then reads each tag exactly.
 */
export function mayHoldAnchors(pkg: DocxPackage, d: Delimiters): boolean {
  const key = `${d.start}\u0000${d.end}`;
  let known = answers.get(pkg);
  const answer = known?.get(key);
  if (answer !== undefined) return answer;
  const start = escapeRegExp(d.start);
  const claims = new RegExp(
    `${start}\\s*(?:(?:sign|initials|name|date)\\s*:|(?:sign|initials)(?:[\\s\\d]|${escapeRegExp(d.end)}))`,
    'i',
  );
  const found = pkg.xmlParts.some(
    (name) =>
      name.startsWith('word/') &&
      claims.test(unescapeXml(readXmlPart(pkg.archive, name).replace(/<[^>]*>/g, ''))),
  );
  if (!known) answers.set(pkg, (known = new Map<string, boolean>()));
  known.set(key, found);
  return found;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
