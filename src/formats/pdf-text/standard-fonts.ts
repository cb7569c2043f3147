import { Font, type IFontNames } from '@pdf-lib/standard-fonts';

/** What a font without its own metrics borrows from one of the standard 14 (their AFM files). */
export interface StandardMetrics {
  /** Width of a glyph by name, in 1/1000 of the font size. */
  width(glyphName: string): number | undefined;
  /** Ascender and descender, in 1/1000 of the font size. */
  ascent: number;
  descent: number;
  /** Symbol and ZapfDingbats: their codes are their own, not text. */
  symbolic: boolean;
}

/** Names PDF producers use for the standard 14 (PDF 32000-1, 9.6.2.2 and readers' alias lists). */
const ALIASES: Record<string, IFontNames> = {
  Arial: 'Helvetica',
  ArialMT: 'Helvetica',
  'Arial,Bold': 'Helvetica-Bold',
  'Arial-BoldMT': 'Helvetica-Bold',
  'Arial,Italic': 'Helvetica-Oblique',
  'Arial-ItalicMT': 'Helvetica-Oblique',
  'Arial,BoldItalic': 'Helvetica-BoldOblique',
  'Arial-BoldItalicMT': 'Helvetica-BoldOblique',
  'Helvetica,Bold': 'Helvetica-Bold',
  'Helvetica,Italic': 'Helvetica-Oblique',
  'Helvetica,BoldItalic': 'Helvetica-BoldOblique',
  TimesNewRoman: 'Times-Roman',
  TimesNewRomanPSMT: 'Times-Roman',
  'TimesNewRoman,Bold': 'Times-Bold',
  'TimesNewRomanPS-BoldMT': 'Times-Bold',
  'TimesNewRoman,Italic': 'Times-Italic',
  'TimesNewRomanPS-ItalicMT': 'Times-Italic',
  'TimesNewRoman,BoldItalic': 'Times-BoldItalic',
  'TimesNewRomanPS-BoldItalicMT': 'Times-BoldItalic',
  CourierNew: 'Courier',
  CourierNewPSMT: 'Courier',
  'CourierNew,Bold': 'Courier-Bold',
  'CourierNewPS-BoldMT': 'Courier-Bold',
  'CourierNew,Italic': 'Courier-Oblique',
  'CourierNewPS-ItalicMT': 'Courier-Oblique',
  'CourierNew,BoldItalic': 'Courier-BoldOblique',
  'CourierNewPS-BoldItalicMT': 'Courier-BoldOblique',
};

const STANDARD = new Set<string>([
  'Courier',
  'Courier-Bold',
  'Courier-Oblique',
  'Courier-BoldOblique',
  'Helvetica',
  'Helvetica-Bold',
  'Helvetica-Oblique',
  'Helvetica-BoldOblique',
  'Times-Roman',
  'Times-Bold',
  'Times-Italic',
  'Times-BoldItalic',
  'Symbol',
  'ZapfDingbats',
]);

const loaded = new Map<string, StandardMetrics>();

/** The standard font a BaseFont names (subset tag dropped), or undefined. */
export function standardMetrics(baseFont: string): StandardMetrics | undefined {
  const bare = baseFont.replace(/^[A-Z]{6}\+/, '');
  const name = STANDARD.has(bare) ? (bare as IFontNames) : ALIASES[bare];
  if (!name) return undefined;
  let metrics = loaded.get(name);
  if (!metrics) {
    // Loading decompresses one AFM (about 1 ms): done once per process and font.
    const font = Font.load(name);
    const bbox = font.FontBBox;
    metrics = {
      width: (glyph) => font.getWidthOfGlyph(glyph) ?? undefined,
      ascent: typeof font.Ascender === 'number' ? font.Ascender : bbox[3],
      descent: typeof font.Descender === 'number' ? font.Descender : bbox[1],
      symbolic: name === 'Symbol' || name === 'ZapfDingbats',
    };
    loaded.set(name, metrics);
  }
  return metrics;
}
