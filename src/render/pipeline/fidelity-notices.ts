import { embeddedFamily, resolveFont } from '../../formats/fonts/index.js';
import { DocpipeError, type FailureDetail } from '../../base/errors/index.js';
import type { RenderNotice } from './render-types.js';

/** What a render's PDF shows of its fonts and pages: its embedded families and its notices. */
export interface FidelityReport {
  fonts: string[];
  notices: RenderNotice[];
}

/**
 * The notices of a render, from what the document asked for and what the PDF embeds: the PDF
 * is the truth. Fonts the document itself embedded were removed before conversion, and are
 * reported first, since they explain the replacements that follow. A family the document uses
 * for Latin text that is not installed is reported when the font fontconfig replaces it with is
 * in the PDF (so its text was drawn with that); symbol fonts are not, since LibreOffice draws
 * their characters with OpenSymbol. Every empty page is reported.
 */
export function fidelityReport(
  asked: readonly string[],
  baseFonts: readonly string[],
  emptyPages: readonly number[],
  ignored: readonly string[] = [],
): FidelityReport {
  const fonts = [...new Set(baseFonts.map(embeddedFamily))].sort();
  const embedded = new Set(fonts.map((f) => f.toLowerCase()));
  const notices: RenderNotice[] = [];
  if (ignored.length > 0) notices.push(embeddedFontsIgnored(ignored));
  for (const family of asked) {
    const font = resolveFont(family);
    if (font.installed || font.symbol || !font.replacement) continue;
    if (!embedded.has(font.replacement.toLowerCase())) continue;
    notices.push({
      code: 'font-substituted',
      message: substitutionMessage(family, font.replacement, font.metricCompatible),
      font: family,
      replacement: font.replacement,
      metricCompatible: font.metricCompatible,
    });
  }
  for (const page of emptyPages)
    notices.push({
      code: 'empty-page',
      message: `page ${page} is empty (it draws no text, image or line): remove the page break or section break that makes it`,
      page,
    });
  return { fonts, notices };
}

function embeddedFontsIgnored(families: readonly string[]): RenderNotice {
  const named = families.map((f) => (f ? `"${f}"` : 'an unnamed font')).join(', ');
  return {
    code: 'embedded-fonts-ignored',
    message: `the document embeds ${families.length === 1 ? 'the font' : 'the fonts'} ${named}; embedded fonts are never used (an office process converts many customers' documents, and a font loaded for one would be used for the next), so the text was drawn with installed fonts: install the font where docpipe runs if you hold a licence for it`,
    fonts: [...families],
  };
}

function substitutionMessage(font: string, replacement: string, compatible: boolean): string {
  return compatible
    ? `font "${font}" is not installed; LibreOffice used ${replacement}, which is metric-compatible (same widths: lines and pages break as in Word)`
    : `font "${font}" is not installed; LibreOffice used ${replacement}, which is not metric-compatible: install the font or choose another`;
}

/**
 * Strict fidelity's refusal of a render, or undefined when it passes: every font replaced by one
 * of other widths and every empty page, each a detail of the document's field, and every value
 * not shown, a detail of the value's field.
 */
export function fidelityRefusal(
  notices: readonly RenderNotice[],
  field: string,
): DocpipeError | undefined {
  const details: FailureDetail[] = notices
    .filter(
      (n) =>
        n.code === 'empty-page' ||
        n.code === 'value-not-shown' ||
        n.code === 'characters-not-drawn' ||
        (n.code === 'font-substituted' && !n.metricCompatible),
    )
    .map((n) => ({ field: 'field' in n ? n.field : field, message: n.message }));
  return details.length > 0 ? new DocpipeError('document-production-failed', details) : undefined;
}

/**
 * The notices worth a reader's attention: all but a metric-compatible substitution (Calibri drawn
 * with Carlito, Arial with Liberation Sans), which is what every Linux render does and breaks
 * lines as Word does. Left out of check's table, preview's stderr and a case's answer so that the
 * rest stands out; `docpipe render`, the convert endpoint and `--json` keep every notice.
 */
export function noteworthyNotices<N extends RenderNotice>(notices: readonly N[]): N[] {
  return notices.filter((n) => !(n.code === 'font-substituted' && n.metricCompatible));
}
