import { embeddedFamily, resolveFont } from '../fonts/index.js';
import { DocpipeError, type FailureDetail } from '../errors/index.js';
import type { RenderNotice } from './render-types.js';

/** What a render's PDF shows of its fonts and pages: its embedded families and its notices. */
export interface FidelityReport {
  fonts: string[];
  notices: RenderNotice[];
}

/**
 * The notices of a render, from what the document asked for and what the PDF embeds: the PDF
 * is the truth. A family the document uses for Latin text that is not installed is reported
 * when the font fontconfig replaces it with is in the PDF (so its text was drawn with that);
 * symbol fonts are not, since LibreOffice draws their characters with OpenSymbol. Every empty
 * page is reported.
 */
export function fidelityReport(
  asked: readonly string[],
  baseFonts: readonly string[],
  emptyPages: readonly number[],
): FidelityReport {
  const fonts = [...new Set(baseFonts.map(embeddedFamily))].sort();
  const embedded = new Set(fonts.map((f) => f.toLowerCase()));
  const notices: RenderNotice[] = [];
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

function substitutionMessage(font: string, replacement: string, compatible: boolean): string {
  return compatible
    ? `font "${font}" is not installed; LibreOffice used ${replacement}, which is metric-compatible (same widths: lines and pages break as in Word)`
    : `font "${font}" is not installed; LibreOffice used ${replacement}, which is not metric-compatible: install the font or choose another`;
}

/**
 * Strict fidelity's refusal of a render, or undefined when it passes: every font replaced by one
 * of other widths and every empty page, each a detail of the document's field.
 */
export function fidelityRefusal(
  notices: readonly RenderNotice[],
  field: string,
): DocpipeError | undefined {
  const details: FailureDetail[] = notices
    .filter((n) => n.code === 'empty-page' || !n.metricCompatible)
    .map((n) => ({ field, message: n.message }));
  return details.length > 0 ? new DocpipeError('document-production-failed', details) : undefined;
}
