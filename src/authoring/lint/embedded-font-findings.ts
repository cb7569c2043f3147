import { DocpipeError } from '../../base/errors/index.js';
import { resolveFont } from '../../formats/fonts/index.js';
import {
  embeddedFamilies,
  hardenPackage,
  mayNeedHardening,
  partsNamingEmbeddedFonts,
  planEmbeddedFontRemoval,
  type EmbeddedFont,
} from '../../document/harden/index.js';
import type { SniffLimits } from '../../formats/sniff/index.js';
import { ZipError } from '../../formats/zip/index.js';
import type { LintPackage } from './lint-package.js';
import { finding, type LintFinding } from './lint-rules.js';

/** An embedded document's part in harden's names: `word/afchunk.docx!/word/fontTable.xml`. */
const NESTED = '!/';

export interface EmbeddedFontReport {
  findings: LintFinding[];
  /** Every family reported, lower case: font_not_installed says nothing more about them. */
  families: Set<string>;
}

/**
 * Fonts the template carries inside it (in its font table, or in a Word document it embeds).
 * A render removes them before conversion (src/document/harden): a warm office process would keep them for
 * later customers' documents. One finding per font table, with what draws the text instead.
 */
export function embeddedFontFindings(
  lint: LintPackage,
  limits: SniffLimits,
  resolve: boolean,
): EmbeddedFontReport {
  const byPart = new Map<string, EmbeddedFont[]>();
  for (const font of embeddedFonts(lint, limits))
    byPart.set(font.part, [...(byPart.get(font.part) ?? []), font]);
  const findings: LintFinding[] = [];
  const families = new Set<string>();
  for (const [part, fonts] of byPart) {
    const names = embeddedFamilies(fonts);
    for (const name of names) families.add(name.toLowerCase());
    findings.push(
      finding(
        'embedded_fonts',
        { part: partLabel(lint, part), paragraph: null, excerpt: names.map(shown).join(', ') },
        explanation(part, names, resolve),
      ),
    );
  }
  return { findings, families };
}

/**
 * The embedded fonts a render removes, found by the code that removes them. A Word document
 * embedded so that a render refuses it (damaged, macro-enabled, too deep) cannot be read here
 * either: then the template's own font tables are still reported.
 */
function embeddedFonts(lint: LintPackage, limits: SniffLimits): EmbeddedFont[] {
  if (!mayNeedHardening(lint.pkg)) return [];
  try {
    return hardenPackage(lint.pkg, limits).embeddedFonts;
  } catch (err) {
    // A damaged part refuses the template, in lint as in a render; only a refused embedded
    // document leaves the template's own font tables to report.
    if (!(err instanceof DocpipeError) || err instanceof ZipError) throw err;
    const read = (name: string) => lint.pkg.archive.read(name);
    return planEmbeddedFontRemoval(lint.pkg, read, partsNamingEmbeddedFonts(lint.pkg)).fonts;
  }
}

/** `fontTable`, or `afchunk.docx!/fontTable` for an embedded document's font table. */
function partLabel(lint: LintPackage, part: string): string {
  const path = part.split(NESTED);
  const last = path.pop()!;
  const label = lint.label(last);
  // An embedded document's main part is no `body` of the template.
  const own = path.length > 0 && label === 'body' ? fileLabel(last) : label;
  return [...path.map(fileName), own].join(NESTED);
}

function fileName(part: string): string {
  return part.slice(part.lastIndexOf('/') + 1);
}

function fileLabel(part: string): string {
  const base = fileName(part);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

const shown = (family: string): string => (family === '' ? '(a font with no name)' : family);

function explanation(part: string, families: string[], resolve: boolean): string {
  const nested = part.lastIndexOf(NESTED);
  const owner =
    nested < 0
      ? 'The template embeds'
      : `The embedded document ${fileName(part.slice(0, nested))} embeds`;
  const list = families.map((f) => `"${shown(f)}"`).join(', ');
  const drawn = resolve ? `: ${families.map(drawnWith).join('; ')}` : ' (docs/fonts.md lists them)';
  return `${owner} the font${families.length > 1 ? 's' : ''} ${list}. docpipe removes embedded fonts before conversion (an office process converts many customers' documents and would keep them), so the text is drawn with installed fonts${drawn}.`;
}

/** What draws a family's text, in the words font_not_installed uses. */
function drawnWith(family: string): string {
  if (family === '') return 'a font with no name is never used';
  const resolved = resolveFont(family);
  if (resolved.installed) return `"${family}" is installed`;
  if (resolved.symbol) return `"${family}" with OpenSymbol`;
  const by = resolved.replacement ? `"${resolved.replacement}"` : 'another font';
  return resolved.metricCompatible
    ? `"${family}" with ${by}, which has the same widths`
    : `"${family}" with ${by}, which has other widths, so lines and pages break otherwise than in Word`;
}
