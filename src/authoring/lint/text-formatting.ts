import { excerptOf, shortText } from './excerpt.js';
import type { LintPackage } from './lint-package.js';
import { finding, type LintFinding, type LintId } from './lint-rules.js';
import type { Paragraph, PartText, TextSegment } from './part-text.js';
import { StyleSheet, type EffectiveRunProps } from './run-style.js';

/** Under 6 pt (12 half-points) text is fine print no signer can be expected to read. */
const TINY_HALF_POINTS = 12;
/** Each of red, green and blue at least this: white or so near it that it does not show. */
const NEAR_WHITE = 0xf0;

/**
 * Text a signer does not see as the author does: hidden (left out of the PDF), white on the
 * white page, or tiny. One finding per paragraph and kind.
 */
export function formattingFindings(lint: LintPackage): LintFinding[] {
  const styles = new StyleSheet(lint.xml(lint.stylesPart() ?? ''));
  const coloredPage = hasPageColor(lint.xml(lint.pkg.mainPart) ?? '');
  const found: LintFinding[] = [];
  for (const part of lint.parts) {
    for (const paragraph of part.paragraphs) {
      if (paragraph.inFallback) continue;
      const judged = paragraph.segments
        .filter((s) => s.text.trim())
        .map((s) => ({ segment: s, props: styles.resolve(s.run, paragraph.style) }));
      const hidden = judged.filter((j) => j.props.vanish);
      const shown = judged.filter((j) => !j.props.vanish);
      const white = shown.filter(
        (j) => isNearWhite(j.props) && !j.segment.run.shaded && !paragraph.shaded,
      );
      const tiny = shown.filter((j) => j.props.size < TINY_HALF_POINTS);
      if (hidden.length) found.push(report(part, paragraph, 'hidden_text', hidden));
      if (white.length && !paragraph.inTextBox && !coloredPage)
        found.push(report(part, paragraph, 'white_text', white));
      if (tiny.length) found.push(report(part, paragraph, 'tiny_text', tiny));
    }
  }
  return found;
}

function report(
  part: PartText,
  paragraph: Paragraph,
  id: LintId,
  judged: { segment: TextSegment; props: EffectiveRunProps }[],
): LintFinding {
  const first = judged[0]!.segment;
  const last = judged[judged.length - 1]!.segment;
  const text = `"${shortText(judged.map((j) => j.segment.text).join(''))}"`;
  const where = {
    part: part.label,
    paragraph: paragraph.index,
    excerpt: excerptOf(paragraph.text, first.at, last.at + last.text.length),
  };
  if (id === 'hidden_text')
    return finding(
      id,
      where,
      `${text} is formatted as hidden: Word shows it only with formatting marks on and the PDF leaves it out, but it stays in the filled .docx (and tags in it are still filled).`,
    );
  if (id === 'white_text')
    return finding(
      id,
      where,
      `${text} is white (or nearly) on a white page: invisible in the PDF, yet there for anyone who selects, copies or searches the text.`,
    );
  const points = Math.min(...judged.map((j) => j.props.size)) / 2;
  return finding(
    id,
    where,
    `${text} is ${points} pt: too small for a signer to read, though it binds them like the rest.`,
  );
}

function isNearWhite(props: EffectiveRunProps): boolean {
  const m = /^([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(props.color);
  return m !== null && m.slice(1).every((c) => parseInt(c, 16) >= NEAR_WHITE);
}

/** A page colour other than white: white text may then be meant to show. */
function hasPageColor(xml: string): boolean {
  const color = /<w:background\b[^>]*\bw:color="([^"]*)"/.exec(xml)?.[1]?.toUpperCase();
  return color !== undefined && color !== 'FFFFFF' && color !== 'AUTO';
}
