import type { ContentTypes } from '../opc/index.js';
import type { ZipArchive } from '../zip/index.js';

/**
 * What reading a document's fonts needs of a package: `DocxPackage` (src/formats/sniff) has it. Named
 * here rather than imported, so that fonts depends on the zip and opc layers only.
 */
export interface FontSource {
  readonly archive: ZipArchive;
  readonly contentTypes: ContentTypes;
  /** Zip entry name of the main document part. */
  readonly mainPart: string;
  /** Entry names of every XML part, all of them checked by sniffing. */
  readonly xmlParts: readonly string[];
}

/** Where a font is asked for, as a template author thinks of the part. */
export type FontPartKind =
  | 'body'
  | 'header'
  | 'footer'
  | 'footnotes'
  | 'endnotes'
  | 'comments'
  | 'styles'
  | 'numbering'
  | 'theme'
  | 'font-table';

/** The parts whose text reaches the page (the ones fill fills), by their content type. */
const TEXT_PARTS: readonly [string, FontPartKind][] = [
  ['.header+xml', 'header'],
  ['.footer+xml', 'footer'],
  ['.footnotes+xml', 'footnotes'],
  ['.endnotes+xml', 'endnotes'],
  ['.comments+xml', 'comments'],
];

/** The parts that define fonts for others to use. */
const DEFINING_PARTS: readonly [string, FontPartKind][] = [
  ['.styles+xml', 'styles'],
  ['.numbering+xml', 'numbering'],
  ['.theme+xml', 'theme'],
  ['.fonttable+xml', 'font-table'],
];

/** The kind of a part that can ask for fonts, or undefined for one that cannot. */
export function fontPartKind(pkg: FontSource, partName: string): FontPartKind | undefined {
  if (partName.toLowerCase() === pkg.mainPart.toLowerCase()) return 'body';
  const ct = (pkg.contentTypes.of(partName) ?? '').toLowerCase();
  for (const [suffix, kind] of [...TEXT_PARTS, ...DEFINING_PARTS])
    if (ct.endsWith(suffix)) return kind;
  return undefined;
}

/** The parts that hold text a reader sees, in the order a reader meets them. */
export const TEXT_PART_ORDER: readonly FontPartKind[] = ['body', ...TEXT_PARTS.map(([, k]) => k)];
