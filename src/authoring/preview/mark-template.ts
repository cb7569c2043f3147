import { DocpipeError } from '../../base/errors/index.js';
import {
  anchorField,
  placedAnchor,
  readAnchor,
  type PlacedAnchor,
} from '../../document/anchors/index.js';
import { compileTemplate, DEFAULT_DELIMITERS, type Delimiters } from '../../document/fill/index.js';
import { filesInOrder } from '../../document/fields/index.js';
import { readXmlPart } from '../../formats/opc/index.js';
import { DEFAULT_SNIFF_LIMITS, openDocx, type SniffLimits } from '../../formats/sniff/index.js';
import { writeZip, type ZipItem } from '../../formats/zip/index.js';
import { markTagsInPart } from './highlight-part.js';
import { XmlTreeError } from './xml-tree.js';

export interface MarkOptions {
  /** @defaultValue `{ }` */
  delimiters?: Delimiters;
  /** @defaultValue DEFAULT_SNIFF_LIMITS */
  limits?: SniffLimits;
  /**
   * Path of the document, named by a failure, as render names it: unreadable bytes name the
   * document, a broken template the template. @defaultValue 'document' and 'template'
   */
  field?: string;
}

/** A part whose tags were not all marked, and why. */
export interface UnmarkedTags {
  file: string;
  count: number;
  why: string;
}

export interface MarkedTemplate {
  /** The template with its tags shaded; the very bytes given when it has none. */
  docx: Buffer;
  /** Tags found in all parts. */
  tags: number;
  unmarked: UnmarkedTags[];
  /**
   * The anchors replaced by markers (as fill replaces them) rather than shaded, so that the
   * preview can find them in the PDF and draw their places.
   */
  anchors: PlacedAnchor[];
}

/**
 * The template as an author wants to look at it before filling it: every tag left in place as
 * its text and shaded by kind (values, sections, inverted sections), in the body, headers,
 * footers, footnotes, endnotes, comments and text boxes alike. Both branches of a section show,
 * since nothing is filled. A template that is not a .docx (`unsupported-file-type`) or that fill
 * would refuse as broken (`document-production-failed`, every problem listed) fails as `render`
 * fails, so a preview never shows what could not be rendered.
 */
export function markTemplate(bytes: Uint8Array, options: MarkOptions = {}): MarkedTemplate {
  const delimiters = options.delimiters ?? DEFAULT_DELIMITERS;
  const pkg = openDocx(bytes, options.limits ?? DEFAULT_SNIFF_LIMITS, options.field || 'document');
  const template = compileTemplate(pkg, delimiters, options.field || 'template');
  // An anchor fill would refuse is refused here too, as render refuses it.
  if (template.anchorProblems.length > 0)
    throw new DocpipeError(
      'document-production-failed',
      template.anchorProblems.map((p) => ({
        field: anchorField(options.field ?? '', p.anchor),
        message: p.message,
      })),
    );
  const anchors: PlacedAnchor[] = [];
  const anchorOf = (inner: string) => {
    const read = readAnchor(inner);
    if (read.status !== 'anchor') return undefined;
    const placed = placedAnchor(read.kind, read.recipient, anchors.length + 1);
    anchors.push(placed);
    return placed;
  };
  const changed = new Map<string, Buffer>();
  const unmarked: UnmarkedTags[] = [];
  let tags = 0;
  // The parts docxtemplater fills are the parts whose tags a preview shows; in fill's order, so
  // that anchors are numbered as fill numbers them.
  for (const file of filesInOrder(template.compiled, pkg)) {
    const xml = readXmlPart(pkg.archive, file);
    let marked;
    try {
      marked = markTagsInPart(xml, delimiters, anchorOf);
    } catch (err) {
      if (!(err instanceof XmlTreeError)) throw err;
      unmarked.push({ file, count: 0, why: `not well-formed XML (${err.message})` });
      continue;
    }
    tags += marked.tags;
    if (marked.unmarked > 0)
      unmarked.push({
        file,
        count: marked.unmarked,
        why: 'in an equation or a drawing shape, whose text has no run to shade',
      });
    if (marked.xml !== xml) changed.set(file, Buffer.from(asUtf8Declared(marked.xml), 'utf8'));
  }
  if (changed.size === 0) return { docx: Buffer.from(bytes), tags, unmarked, anchors };
  const items: ZipItem[] = pkg.archive.entries.map((entry) => {
    const data = changed.get(entry.name);
    return data ? { name: entry.name, data } : { name: entry.name, from: pkg.archive, entry };
  });
  return { docx: writeZip(items), tags, unmarked, anchors };
}

/** A part read as UTF-16 is written as UTF-8, and its declaration must now say so. */
function asUtf8Declared(xml: string): string {
  return xml.replace(/^(<\?xml[^>]*encoding\s*=\s*["'])utf-?16(?:le|be)?(["'])/i, '$1UTF-8$2');
}
