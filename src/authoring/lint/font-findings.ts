import {
  documentFonts,
  latinFontsUsed,
  resolveFont,
  type DocumentFont,
} from '../../formats/fonts/index.js';
import { shortText } from './excerpt.js';
import type { LintPackage } from './lint-package.js';
import { finding, type LintFinding } from './lint-rules.js';

/**
 * Fonts the text is set in that are not installed and whose replacement has other widths, so
 * lines and pages break otherwise than in Word. A font replaced by a metric-compatible one
 * (Calibri by Carlito) keeps the layout and is not reported; nor is a symbol font, which
 * LibreOffice draws with OpenSymbol whatever is installed. Nor is a family in `reported` (lower
 * case): embedded_fonts already says what draws it.
 */
export function fontFindings(
  lint: LintPackage,
  reported: ReadonlySet<string> = new Set(),
): LintFinding[] {
  const found: LintFinding[] = [];
  for (const font of latinFontsUsed(documentFonts(lint.pkg))) {
    if (reported.has(font.family.toLowerCase())) continue;
    const resolved = resolveFont(font.family);
    if (resolved.installed || resolved.metricCompatible || resolved.symbol) continue;
    const by = resolved.replacement ? `"${resolved.replacement}"` : 'another font';
    found.push(
      finding(
        'font_not_installed',
        where(lint, font),
        `The font "${font.family}" is not installed: LibreOffice draws it with ${by}, which has other widths, so lines and pages break otherwise than in Word (a strict render refuses it).`,
      ),
    );
  }
  return found;
}

function where(
  lint: LintPackage,
  font: DocumentFont,
): { part: string; paragraph: number | null; excerpt: string } {
  const use = font.first;
  const label = lint.label(use.part);
  const paragraph = lint.parts
    .find((p) => p.file === use.part)
    ?.paragraphs.find((p) => p.index === use.paragraph);
  if (paragraph)
    return {
      part: label,
      paragraph: paragraph.index,
      excerpt: shortText(paragraph.text) || font.family,
    };
  const excerpt = use.style
    ? `style ${use.style}`
    : use.kind === 'styles'
      ? 'document defaults'
      : font.family;
  return { part: label, paragraph: use.paragraph ?? null, excerpt };
}
