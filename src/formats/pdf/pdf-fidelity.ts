import type { PDFDocument, PDFRef } from 'pdf-lib';
import { emptyPages } from './empty-pages.js';
import { embeddedFonts } from './page-fonts.js';

/** What a render's reader is told of its PDF: its pages, fonts and empty pages. */
export interface PdfFidelity {
  pages: number;
  /** BaseFont names of the fonts it embeds, without subset tags, sorted. */
  fonts: string[];
  /** Pages that draw nothing, numbered from 1. */
  emptyPages: number[];
}

/** Reads a checked PDF's embedded fonts and empty pages from the parse the check made. */
export function readFidelity(doc: PDFDocument, pages: PDFRef[]): Omit<PdfFidelity, 'pages'> {
  return {
    fonts: embeddedFonts(doc.context, pages),
    emptyPages: emptyPages(doc.context, pages),
  };
}
