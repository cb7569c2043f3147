import type { DocxPackage } from '../../formats/sniff/index.js';

/** Where in a document a tag sits, as a template author thinks of it. */
export type PartKind =
  'body' | 'header' | 'footer' | 'footnotes' | 'endnotes' | 'comments' | 'properties' | 'other';

/** The order a reader meets parts in; listings of fields and problems follow it. */
export const PART_ORDER: readonly PartKind[] = [
  'body',
  'header',
  'footer',
  'footnotes',
  'endnotes',
  'comments',
  'properties',
  'other',
];

/** Names the kind of a part from its content type (part names vary: header21.xml, document2.xml). */
export function partKind(pkg: DocxPackage, partName: string): PartKind {
  if (partName.toLowerCase() === pkg.mainPart.toLowerCase()) return 'body';
  const ct = (pkg.contentTypes.of(partName) ?? '').toLowerCase();
  if (ct.endsWith('.header+xml')) return 'header';
  if (ct.endsWith('.footer+xml')) return 'footer';
  if (ct.endsWith('.footnotes+xml')) return 'footnotes';
  if (ct.endsWith('.endnotes+xml')) return 'endnotes';
  if (ct.endsWith('.comments+xml')) return 'comments';
  if (/(core|extended|custom)-properties\+xml$/.test(ct)) return 'properties';
  return 'other';
}
