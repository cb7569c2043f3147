import type { PDFDocument } from 'pdf-lib';
import { textLayerOf } from './text-layer.js';
import type { TextMatch } from './text-match.js';

/**
 * Every match of a global pattern on every page of a PDF's text layer, in page and content
 * order. The text searched is the page's glyphs in content order with a newline where the
 * baseline moves and a space where a gap parts two glyphs without a space glyph between.
 */
export function findText(pdf: Uint8Array | PDFDocument, pattern: RegExp): TextMatch[] {
  return textLayerOf(pdf).find(pattern);
}

/**
 * Each page's text in content order, white space collapsed, soft hyphens and hyphenation at line
 * ends joined: for "does this value appear in the PDF" checks (normalize the value with
 * normalizeText first).
 */
export function pageTexts(pdf: Uint8Array | PDFDocument): string[] {
  return textLayerOf(pdf).texts();
}
