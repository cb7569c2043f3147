import { unescapeXml } from '../../formats/opc/index.js';
import { excerptOf } from './excerpt.js';
import type { LintPackage } from './lint-package.js';
import { finding, type LintFinding, type LintId } from './lint-rules.js';
import { tagSpans } from './tags.js';
import { xmlTokens } from './xml-tokens.js';

const CHART_TYPES = ['.drawingml.chart+xml', '.chartex+xml'];
const SMARTART_DATA = '.drawingml.diagramdata+xml';
const SMARTART_DRAWING = '.drawingml.diagramdrawing+xml';
/** Text elements of charts and SmartArt: runs (a:t), and a chart's cached cell values (c:v). */
const GRAPHIC_TEXT = new Set(['a:t', 'c:v', 'cx:v', 'cx:pt']);

/**
 * Tags where docpipe never fills them and LibreOffice prints them as written: in charts and
 * SmartArt (parts of their own, which fill does not template), and in VML WordArt, whose text
 * is an attribute. Text boxes (wps and VML) are filled and print filled (measured with
 * LibreOffice 7.4: test/integration/lint-cli.test.ts), so they are not reported.
 */
export function drawingFindings(lint: LintPackage): LintFinding[] {
  const found: LintFinding[] = [];
  for (const file of CHART_TYPES.flatMap((t) => lint.partsOfType(t)))
    found.push(...graphicTags(lint, file, 'tag_in_chart', 'a chart'));
  // SmartArt keeps its text twice: in its data, and in the drawing Word made of it.
  const smartArt = lint.partsOfType(SMARTART_DATA);
  for (const file of smartArt.length ? smartArt : lint.partsOfType(SMARTART_DRAWING))
    found.push(...graphicTags(lint, file, 'tag_in_smartart', 'a SmartArt graphic'));
  for (const part of lint.parts)
    for (const path of part.textPaths) {
      if (path.inFallback) continue;
      for (const span of tagSpans(path.text, lint.delimiters)) {
        const tag = path.text.slice(span.at, span.end);
        found.push(
          finding(
            'tag_in_text_box',
            {
              part: part.label,
              paragraph: path.paragraph,
              excerpt: excerptOf(path.text, span.at, span.end),
            },
            `"${tag}" is in WordArt that keeps its text in the shape itself (VML): docpipe does not fill tags there, so the PDF shows "${tag}" as written.`,
          ),
        );
      }
    }
  return found;
}

function graphicTags(lint: LintPackage, file: string, id: LintId, what: string): LintFinding[] {
  const found: LintFinding[] = [];
  let inText = false;
  for (const token of xmlTokens(lint.xml(file) ?? '')) {
    if (token.kind === 'open') inText = GRAPHIC_TEXT.has(token.name);
    else if (token.kind === 'close') inText = false;
    else if (token.kind === 'text' && inText) {
      const text = unescapeXml(token.raw);
      for (const span of tagSpans(text, lint.delimiters)) {
        const tag = text.slice(span.at, span.end);
        found.push(
          finding(
            id,
            {
              part: lint.label(file),
              paragraph: null,
              excerpt: excerptOf(text, span.at, span.end),
            },
            `"${tag}" is in ${what}: docpipe fills tags in the document's text, not in ${what === 'a chart' ? 'charts' : 'SmartArt'}, so the PDF shows "${tag}" as written.`,
          ),
        );
      }
    }
  }
  return found;
}
