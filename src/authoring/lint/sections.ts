import { excerptOf, shortText } from './excerpt.js';
import type { LintPackage } from './lint-package.js';
import { finding, type LintFinding } from './lint-rules.js';
import type { PartText } from './part-text.js';
import { tagsOf, type Tag } from './tags.js';

/**
 * Sections that docxtemplater accepts but that will not render as the author means:
 *
 * - across table cells, a section repeats or removes whole rows (docxtemplater widens it to the
 *   rows), so any text in those rows outside the section goes with it;
 * - across paragraphs, a section that is not alone in the paragraphs it opens and closes in
 *   joins the text before it to the text after it when it is left out (and joins the end of
 *   one repetition to the start of the next).
 *
 * Broken sections (unclosed, mismatched) are docxtemplater's findings; they are skipped here.
 */
export function sectionFindings(lint: LintPackage): LintFinding[] {
  const found: LintFinding[] = [];
  for (const part of lint.parts) {
    for (const [open, close] of sectionPairs(tagsOf(part, lint.delimiters))) {
      if (open.paragraph === close.paragraph || open.paragraph.inFallback) continue;
      if (open.paragraph.inTextBox !== close.paragraph.inTextBox) continue;
      const issue =
        open.paragraph.cell !== close.paragraph.cell
          ? acrossCells(part, open, close)
          : acrossParagraphs(part, open, close);
      if (issue) found.push(issue);
    }
  }
  return found;
}

/** Opening and closing tags paired as docxtemplater pairs them; stops at the first mismatch. */
function sectionPairs(tags: Tag[]): [Tag, Tag][] {
  const pairs: [Tag, Tag][] = [];
  const open: Tag[] = [];
  for (const tag of tags) {
    if (tag.kind === 'open' || tag.kind === 'inverted') open.push(tag);
    else if (tag.kind === 'close') {
      const start = open.pop();
      if (!start || start.name !== tag.name) break;
      pairs.push([start, tag]);
    }
  }
  return pairs;
}

function acrossCells(part: PartText, open: Tag, close: Tag): LintFinding | undefined {
  const first = part.rows.find((r) => r.id === open.paragraph.row);
  const last = part.rows.find((r) => r.id === close.paragraph.row);
  // One end outside any table: docxtemplater refuses it (loop_position_invalid).
  if (!first || !last || first.start > last.start) return undefined;
  const outside: string[] = [];
  for (const p of part.paragraphs) {
    if (p.inFallback || p.start < first.start || p.start > last.end) continue;
    if (p.index < open.paragraph.index || p.index > close.paragraph.index) outside.push(p.text);
    else if (p === open.paragraph) outside.push(p.text.slice(0, open.at));
    else if (p === close.paragraph) outside.push(p.text.slice(close.end));
  }
  const text = outside.map((t) => t.trim()).filter(Boolean);
  if (text.length === 0) return undefined;
  const rows = first === last ? 'the whole table row' : 'whole table rows';
  return finding(
    'section_crosses_cells',
    {
      part: part.label,
      paragraph: open.paragraph.index,
      excerpt: excerptOf(open.paragraph.text, open.at, open.end),
    },
    `The section ${open.text} opens in one table cell and closes in another (${close.text} in ¶${close.paragraph.index}), so docpipe repeats or removes ${rows}, and with them "${shortText(text.join(' … '))}", which is outside the section.`,
  );
}

function acrossParagraphs(part: PartText, open: Tag, close: Tag): LintFinding | undefined {
  const alone = (t: Tag) => t.paragraph.text === t.text;
  // Each tag alone in its paragraph: docxtemplater repeats or removes whole paragraphs.
  if (alone(open) && alone(close)) return undefined;
  const before = open.paragraph.text.slice(0, open.at).trim();
  const after = close.paragraph.text.slice(close.end).trim();
  const joined =
    before || after
      ? `"${shortText(before)}" and "${shortText(after)}" run together into one paragraph`
      : 'the two paragraphs become one';
  return finding(
    'section_crosses_paragraphs',
    {
      part: part.label,
      paragraph: open.paragraph.index,
      excerpt: excerptOf(open.paragraph.text, open.at, open.end),
    },
    `The section ${open.text} closes in another paragraph (${close.text} in ¶${close.paragraph.index}) but shares its paragraphs with other text: when the section is left out, ${joined}, and a repeated section joins the end of each repetition to the start of the next.`,
  );
}
