import type { Delimiters } from '../../document/fill/index.js';
import {
  readXmlPart,
  parseRelationships,
  resolvePartName,
  type Relationship,
} from '../../formats/opc/index.js';
import type { DocxPackage } from '../../formats/sniff/index.js';
import { scanPart } from './part-scan.js';
import type { PartText } from './part-text.js';

const WORD_CT = 'application/vnd.openxmlformats-officedocument.wordprocessingml.';
/** The parts with text that fill fills, in the order a reader meets them after the body. */
const TEXT_PART_KINDS = ['header', 'footer', 'footnotes', 'endnotes', 'comments'];

/** A relationship of a part, its target resolved to a part name unless it is external. */
export interface PartRelationship extends Relationship {
  /** The source part. */
  from: string;
  /** The part it points at (zip entry name), or the external target as written. */
  resolved: string;
}

/** A sniffed template, read once for every check. */
export class LintPackage {
  /** The parts fill fills: body first, then headers, footers, notes and comments. */
  readonly parts: PartText[];
  private readonly xmlCache = new Map<string, string>();
  private relationshipList: PartRelationship[] | undefined;

  constructor(
    readonly pkg: DocxPackage,
    readonly delimiters: Delimiters,
  ) {
    this.parts = textPartNames(pkg).map((file) =>
      scanPart(file, this.label(file), this.xml(file) ?? ''),
    );
  }

  /** A part's XML, when it is one of the package's checked XML parts. */
  xml(file: string): string | undefined {
    let text = this.xmlCache.get(file);
    if (text === undefined && this.pkg.xmlParts.includes(file)) {
      text = readXmlPart(this.pkg.archive, file);
      this.xmlCache.set(file, text);
    }
    return text;
  }

  /** How findings name a part: `body` for the main part, else its file name (`header1`). */
  label(file: string): string {
    if (file === this.pkg.mainPart) return 'body';
    const base = file.slice(file.lastIndexOf('/') + 1);
    const dot = base.lastIndexOf('.');
    return dot > 0 ? base.slice(0, dot) : base;
  }

  contentType(file: string): string {
    return (this.pkg.contentTypes.of(file) ?? '').toLowerCase();
  }

  /** Parts whose content type ends as given (`.chart+xml`). */
  partsOfType(suffix: string): string[] {
    return this.pkg.xmlParts.filter((f) => this.contentType(f).endsWith(suffix));
  }

  /** Every relationship of every part, read once. */
  relationships(): PartRelationship[] {
    this.relationshipList ??= this.readRelationships();
    return this.relationshipList;
  }

  private readRelationships(): PartRelationship[] {
    const found: PartRelationship[] = [];
    for (const relsFile of this.pkg.xmlParts) {
      const m = /^(.*?)_rels\/([^/]+)\.rels$/.exec(relsFile);
      if (!m) continue;
      const from = `${m[1]}${m[2]}`;
      for (const r of parseRelationships(this.xml(relsFile) ?? '')) {
        const resolved = r.external ? r.target : resolvePartName(from, r.target);
        found.push({ ...r, from, resolved });
      }
    }
    return found;
  }

  /** The settings part (w:settings), if the document has one. */
  settingsPart(): string | undefined {
    return this.partsOfType('.settings+xml')[0];
  }

  stylesPart(): string | undefined {
    return this.pkg.xmlParts.find((f) => this.contentType(f) === `${WORD_CT}styles+xml`);
  }
}

function textPartNames(pkg: DocxPackage): string[] {
  const byKind = TEXT_PART_KINDS.map((kind) =>
    pkg.xmlParts
      .filter((f) => (pkg.contentTypes.of(f) ?? '').toLowerCase() === `${WORD_CT}${kind}+xml`)
      .sort(byNumber),
  );
  return [pkg.mainPart, ...byKind.flat()];
}

/** header2.xml before header10.xml. */
function byNumber(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

/** The order findings are listed in: the file, the body, headers, footers, notes, the rest. */
export function partRank(label: string): number {
  if (label === 'package' || label === 'document.json') return 0;
  if (label === 'body') return 1;
  const kinds = ['header', 'footer', 'footnotes', 'endnotes', 'comments'];
  const kind = kinds.findIndex((k) => label.startsWith(k));
  return kind === -1 ? 2 + kinds.length : 2 + kind;
}
