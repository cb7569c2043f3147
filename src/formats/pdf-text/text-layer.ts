import type { PDFDocument } from 'pdf-lib';
import { layoutOf, type PageLayout } from './page-layout.js';
import { MAX_DOCUMENT_OPERATORS, pageGlyphs, type PageGlyphs } from './page-glyphs.js';
import { sourceOf, type PdfSource } from './pdf-source.js';
import type { PdfRect, TextMatch } from './text-match.js';

/** A page read once: its glyphs, operators and text. */
export interface ReadPage extends PageGlyphs {
  layout: PageLayout;
}

/** Where a span of a page's text lies: its glyphs [first, last] and their box. */
export interface GlyphSpan {
  first: number;
  last: number;
  rect: PdfRect;
  removable: boolean;
}

/**
 * A PDF's text layer, each page read when first asked for and kept: finding markers and checking
 * values on one document read its pages once.
 */
export class TextLayer {
  readonly source: PdfSource;
  private readonly read = new Map<number, ReadPage>();
  /** What is left of the document's operator budget (MAX_DOCUMENT_OPERATORS). */
  private readonly budget = { operators: MAX_DOCUMENT_OPERATORS };

  constructor(pdf: Uint8Array | PDFDocument) {
    this.source = sourceOf(pdf);
  }

  get pageCount(): number {
    return this.source.pages.length;
  }

  /** Page `index` (0-based), read. */
  page(index: number): ReadPage {
    let page = this.read.get(index);
    if (!page) {
      const glyphs = pageGlyphs(this.source, this.source.pages[index]!, this.budget);
      page = { ...glyphs, layout: layoutOf(glyphs.glyphs) };
      this.read.set(index, page);
    }
    return page;
  }

  /** Every match of a global pattern on every page, in page and content order. */
  find(pattern: RegExp): TextMatch[] {
    if (!pattern.global) throw new TypeError('findText needs a global pattern (with the g flag)');
    const out: TextMatch[] = [];
    for (let index = 0; index < this.pageCount; index++) {
      const page = this.page(index);
      for (const m of page.layout.text.matchAll(pattern)) {
        const span = spanOf(page, m.index, m[0].length);
        if (span)
          out.push({ page: index + 1, text: m[0], rect: span.rect, removable: span.removable });
      }
    }
    return out;
  }

  /** Each page's text for "does this value appear" checks (see {@link normalizeText}). */
  texts(): string[] {
    const out: string[] = [];
    for (let index = 0; index < this.pageCount; index++)
      out.push(normalizeText(this.page(index).layout.text));
    return out;
  }
}

/**
 * Layers read, by the bytes or document they were read from: the pipeline finds markers and then
 * checks values on the same PDF, and reading it twice cost 2.5 times one read (bench/pdf-text.ts).
 * Kept only as long as the caller keeps the PDF; bytes are taken as never changed in place.
 */
const layers = new WeakMap<Uint8Array | PDFDocument, TextLayer>();

/** The layer of a PDF, read once while the caller holds the PDF (see {@link layers}). */
export function textLayerOf(pdf: Uint8Array | PDFDocument): TextLayer {
  let layer = layers.get(pdf);
  if (!layer) {
    layer = new TextLayer(pdf);
    layers.set(pdf, layer);
  }
  return layer;
}

/**
 * Text as pageTexts gives it: soft hyphens dropped, a word hyphenated at a line's end joined
 * (`agree-\nment` is `agreement`), ligatures as their letters, white space collapsed to one space.
 * Values checked against pageTexts go through it too.
 */
export function normalizeText(text: string): string {
  // Each pass only where its characters occur: the letter classes cost a scan of every position.
  if (text.includes('\u00ad')) text = text.replace(/\u00ad/g, '');
  if (/[-\u2010]\n/.test(text)) text = text.replace(/(\p{L})[-\u2010]\n(?=\p{L})/gu, '$1');
  if (/[\ufb00-\ufb06]/.test(text))
    text = text.replace(/[\ufb00-\ufb06]/g, (c) => c.normalize('NFKC'));
  return text.replace(/\s+/g, ' ').trim();
}

/** The glyphs behind [at, at + length) of a page's text, or undefined for separators alone. */
export function spanOf(page: ReadPage, at: number, length: number): GlyphSpan | undefined {
  const { owner } = page.layout;
  let first = -1;
  let last = -1;
  for (let i = at; i < at + length; i++) {
    const g = owner[i]!;
    if (g < 0) continue;
    if (first < 0) first = g;
    last = g;
  }
  if (first < 0) return undefined;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  const g = page.glyphs;
  for (let i = first; i <= last; i++) {
    x0 = Math.min(x0, g.x0[i]!);
    y0 = Math.min(y0, g.y0[i]!);
    x1 = Math.max(x1, g.x1[i]!);
    y1 = Math.max(y1, g.y1[i]!);
  }
  return {
    first,
    last,
    rect: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 },
    removable: removable(page, first, last),
  };
}

/** Whether glyphs [first, last] are exactly the glyphs of some operators of the page's content. */
function removable(page: ReadPage, first: number, last: number): boolean {
  for (let i = first; i <= last; i++) {
    const index = page.glyphs.op[i]!;
    if (index < 0) return false; // inside a form, which other pages may draw too
    const op = page.ops[index]!;
    if (op.firstGlyph < first || op.glyphEnd - 1 > last) return false;
    // An operator that must leave the text matrix where it did, at a font size of 0, cannot.
    if (op.needsMove && op.advance !== 0 && op.fontSize * op.scale === 0) return false;
  }
  return true;
}
