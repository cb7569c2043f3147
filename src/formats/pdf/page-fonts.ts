import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFRawStream,
  PDFRef,
  type PDFContext,
  type PDFObject,
} from 'pdf-lib';
import { MAX_PAGE_TREE_DEPTH } from './page-tree.js';

/**
 * Dictionaries read for fonts in one PDF, at most: pages, resources, forms and fonts together.
 * A real document uses a few per page; a hostile one sharing one form a million times is read
 * once per object anyway, and one with millions of distinct ones stops here.
 */
export const MAX_FONT_SCAN_OBJECTS = 100_000;
/** Forms inside forms inside a page: deeper is no real document. */
const MAX_FORM_DEPTH = 8;

const RESOURCES = PDFName.of('Resources');
const PARENT = PDFName.of('Parent');
const FONT = PDFName.of('Font');
const XOBJECT = PDFName.of('XObject');
const SUBTYPE = PDFName.of('Subtype');
const FORM = PDFName.of('Form');
const BASE_FONT = PDFName.of('BaseFont');
const DESCENDANTS = PDFName.of('DescendantFonts');
const DESCRIPTOR = PDFName.of('FontDescriptor');
const FONT_FILES = ['FontFile', 'FontFile2', 'FontFile3'].map((n) => PDFName.of(n));

/**
 * The fonts a PDF embeds, by BaseFont name without the subset tag (`ABCDEF+`), sorted: every
 * font of every page's resources (inherited from the page tree as readers inherit them) and of
 * the forms those pages draw, a composite (Type0) font by its descendant. A font a PDF names
 * without embedding it is left out: readers draw it with whatever they have.
 */
export function embeddedFonts(context: PDFContext, pages: readonly PDFRef[]): string[] {
  return [...new FontScan(context).pages(pages)].sort();
}

class FontScan {
  private readonly seen = new Set<PDFObject>();
  private readonly found = new Set<string>();

  constructor(private readonly context: PDFContext) {}

  pages(pages: readonly PDFRef[]): Set<string> {
    for (const ref of pages) {
      const page = this.context.lookup(ref);
      if (page instanceof PDFDict) this.resources(inherited(this.context, page, RESOURCES), 0);
    }
    return this.found;
  }

  /** Whether an object is new and the budget has room: each is read once. */
  private first(object: PDFObject | undefined): object is PDFObject {
    if (!object || this.seen.has(object) || this.seen.size >= MAX_FONT_SCAN_OBJECTS) return false;
    this.seen.add(object);
    return true;
  }

  private resources(resources: PDFObject | undefined, depth: number): void {
    const dict = this.dict(resources);
    if (!dict || !this.first(dict)) return;
    for (const font of this.values(dict.get(FONT))) this.font(font);
    if (depth >= MAX_FORM_DEPTH) return;
    for (const x of this.values(dict.get(XOBJECT))) {
      const form = this.context.lookup(x);
      if (form instanceof PDFRawStream && form.dict.get(SUBTYPE) === FORM && this.first(form))
        this.resources(form.dict.get(RESOURCES), depth + 1);
    }
  }

  private font(value: PDFObject): void {
    const font = this.dict(value);
    if (!font || !this.first(font)) return;
    const descendants = this.context.lookup(font.get(DESCENDANTS));
    const described = descendants instanceof PDFArray ? this.dict(descendants.get(0)) : font;
    const name = font.get(BASE_FONT);
    if (!(name instanceof PDFName) || !described) return;
    const descriptor = this.dict(described.get(DESCRIPTOR));
    if (descriptor && FONT_FILES.some((f) => descriptor.get(f) !== undefined))
      this.found.add(name.decodeText().replace(/^[A-Z]{6}\+/, ''));
  }

  private values(value: PDFObject | undefined): PDFObject[] {
    const dict = this.dict(value);
    return dict ? dict.values() : [];
  }

  private dict(value: PDFObject | undefined): PDFDict | undefined {
    const found = value instanceof PDFRef ? this.context.lookup(value) : value;
    return found instanceof PDFDict ? found : undefined;
  }
}

/**
 * A page's attribute or its nearest ancestor's, as readers inherit Resources. Climbs at most as
 * deep as the page tree may be: a /Parent chain is not the checked /Kids tree and may loop.
 */
export function inherited(context: PDFContext, page: PDFDict, key: PDFName): PDFObject | undefined {
  let node: PDFObject | undefined = page;
  for (let depth = 0; depth <= MAX_PAGE_TREE_DEPTH && node instanceof PDFDict; depth++) {
    const value = node.get(key);
    if (value !== undefined) return value;
    node = context.lookup(node.get(PARENT));
  }
  return undefined;
}
