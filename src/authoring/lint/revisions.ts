import { shortText } from './excerpt.js';
import type { LintPackage } from './lint-package.js';
import { finding, type LintFinding } from './lint-rules.js';
import type { Revision } from './part-text.js';

const WORDS: Record<string, string> = {
  ins: 'inserted',
  del: 'deleted',
  moveFrom: 'moved away',
  moveTo: 'moved here',
};

/**
 * Tracked changes, one finding per paragraph that has any. LibreOffice prints them as Word
 * shows them with markup: inserted text underlined in colour, deleted text struck through but
 * still there to read, a bar in the margin.
 */
export function revisionFindings(lint: LintPackage): LintFinding[] {
  const found: LintFinding[] = [];
  for (const part of lint.parts) {
    const byParagraph = new Map<number | null, Revision[]>();
    for (const r of part.revisions)
      byParagraph.set(r.paragraph, [...(byParagraph.get(r.paragraph) ?? []), r]);
    for (const [index, revisions] of byParagraph) {
      const paragraph = part.paragraphs.find((p) => p.index === index);
      if (paragraph?.inFallback) continue;
      const changes = revisions
        .filter((r) => r.kind !== 'format' && r.text.trim())
        .map((r) => `${WORDS[r.kind] ?? r.kind} "${shortText(r.text)}"`);
      const formatOnly = changes.length === 0;
      const excerpt = formatOnly
        ? paragraph
          ? shortText(paragraph.text)
          : ''
        : shortText(revisions.map((r) => r.text).join(' '));
      found.push(
        finding(
          'tracked_changes',
          { part: part.label, paragraph: index, excerpt },
          `${formatOnly ? 'A tracked formatting or layout change' : `Tracked changes (${changes.join(', ')})`}: the PDF shows them as Word shows markup, inserted text underlined in colour, deleted text struck through but still there to read, and a bar in the margin.`,
        ),
      );
    }
  }
  return found;
}
