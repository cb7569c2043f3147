/**
 * How one library document looks: its fonts, its language and its house colour. Each document
 * picks the fonts a Word author at that kind of company would: Calibri and Cambria (Office's
 * defaults), Arial, Times New Roman. Only these four: each maps to an installed
 * metric-compatible font (Carlito, Caladea, Liberation Sans, Liberation Serif), so the PDF keeps
 * Word's line breaks.
 */
export type WordFont = 'Calibri' | 'Cambria' | 'Arial' | 'Times New Roman';

export type Language = 'da' | 'en';

export interface Look {
  lang: Language;
  /** The language tag Word stores on the text (spelling, hyphenation, quotes): da-DK, en-GB. */
  wordLanguage: 'da-DK' | 'en-GB' | 'en-US';
  body: WordFont;
  headings: WordFont;
  /** Body text size in points. */
  size: number;
  /** Hex colour of titles and headings. */
  accent: string;
  /** Numbering of Heading 1: `%1.` (1. Parties) or `§ %1` (§ 1 Parterne); none for forms. */
  clauses: '%1.' | '§ %1' | 'none';
  /** Body text justified, as Danish contracts usually are, or left-aligned. */
  justify: boolean;
  /** The document's tag delimiters, as its document.json declares them. */
  delimiters: readonly [string, string];
}

/** A4 in twentieths of a point, with 2.5 cm side margins. */
export const PAGE = {
  width: 11906,
  height: 16838,
  top: 1701,
  bottom: 1418,
  side: 1418,
  header: 709,
  footer: 567,
} as const;

/** The width between the margins, which tables and right-aligned tab stops use. */
export const TEXT_WIDTH = PAGE.width - 2 * PAGE.side;
