import { unescapeXml } from '../../formats/opc/index.js';
import {
  compileTemplate,
  TemplateBrokenError,
  type TemplateProblem,
} from '../../document/fill/index.js';
import { excerptOf, shortText } from './excerpt.js';
import type { LintPackage } from './lint-package.js';
import { finding, LINT_RULES, type LintFinding, type LintId } from './lint-rules.js';
import type { Paragraph, PartText } from './part-text.js';
import { firstXmlFault } from './xml-tokens.js';

/** A docxtemplater offset found in a paragraph. */
interface Spot {
  paragraph: Paragraph;
  at: number;
}

const UNREADABLE_XML = 'The template holds XML that cannot be read: it is damaged.';

/**
 * Every problem docxtemplater finds compiling the template exactly as fill compiles it (same
 * delimiters and options), each located in its part and paragraph. Empty when it compiles.
 */
export function templateFindings(lint: LintPackage): LintFinding[] {
  try {
    compileTemplate(lint.pkg, lint.delimiters, 'template');
    return [];
  } catch (err) {
    // Fill's problems already leave out Word's fallback copy of a text box, and XML
    // docxtemplater cannot read (malformed_xml) comes as one of them.
    if (err instanceof TemplateBrokenError)
      return err.problems.map((problem) => problemFinding(lint, problem));
    throw err;
  }
}

/** One of docxtemplater's problems as a finding, located in its part and paragraph. */
export function problemFinding(lint: LintPackage, problem: TemplateProblem): LintFinding {
  if (problem.id === 'file_has_invalid_xml')
    return xmlFinding(lint, problem.id, `${problem.explanation}.`);
  // Fill reports it as a broken template too (a stray end tag), naming no part.
  if (problem.id === 'malformed_xml') return xmlFinding(lint, problem.id, UNREADABLE_XML);
  const part = lint.parts.find((p) => p.file === problem.file);
  const spots = part ? problem.offsets.map((o) => locate(part, o)) : [];
  const spot = spots[0];
  const id: LintId = problem.id in LINT_RULES ? (problem.id as LintId) : 'template_error';
  const label = part?.label ?? (problem.file ? lint.label(problem.file) : 'package');
  if (!spot) {
    return finding(
      id,
      { part: label, paragraph: null, excerpt: problem.excerpt },
      explain(lint, problem, undefined, ''),
    );
  }
  const [from, to] = spanOf(lint, problem, spot);
  const text = spot.paragraph.text.slice(from, to);
  const where = {
    part: label,
    paragraph: spot.paragraph.index,
    excerpt: excerptOf(spot.paragraph.text, from, to),
  };
  return finding(id, where, explain(lint, problem, spots[1], text));
}

/**
 * docxtemplater does not say which part holds XML it cannot read; the first text part that is
 * not well formed, at the paragraph where it stops being so, is the one.
 */
function xmlFinding(lint: LintPackage, id: LintId, explanation: string): LintFinding {
  for (const part of lint.parts) {
    const fault = firstXmlFault(lint.xml(part.file) ?? '');
    if (fault === undefined) continue;
    const paragraph = [...part.paragraphs].reverse().find((p) => p.start <= fault);
    const where = {
      part: part.label,
      paragraph: paragraph?.index ?? null,
      excerpt: paragraph ? shortText(paragraph.text) : '',
    };
    return finding(id, where, explanation);
  }
  return finding(id, { part: 'package', paragraph: null, excerpt: '' }, explanation);
}

/** The paragraph and position a docxtemplater offset (in escaped text) points at. */
export function locate(part: PartText, offset: number): Spot | undefined {
  for (const paragraph of part.paragraphs) {
    for (const s of paragraph.segments) {
      if (offset < s.rawStart || offset >= s.rawStart + s.raw.length) continue;
      const within = unescapeXml(s.raw.slice(0, offset - s.rawStart)).length;
      return { paragraph, at: s.at + within };
    }
  }
  return undefined;
}

/** The stretch of the paragraph a problem is about: the tag, or the delimiter out of place. */
function spanOf(
  lint: LintPackage,
  problem: TemplateProblem,
  { paragraph, at }: Spot,
): [number, number] {
  const { start, end } = lint.delimiters;
  const text = paragraph.text;
  const tagEnd = (from: number) => {
    const close = text.indexOf(end, from);
    return close === -1 ? text.length : close + end.length;
  };
  switch (problem.id) {
    case 'unclosed_tag':
      return [at, Math.min(text.length, at + start.length + problem.tag.length)];
    case 'unopened_tag':
      return [at, at + end.length];
    case 'duplicate_open_tag':
      return [at, tagEnd(at + 2 * start.length)];
    case 'duplicate_close_tag': {
      const open = text.lastIndexOf(start, at);
      return [open === -1 ? at : open, at + 2 * end.length];
    }
    default:
      return text.startsWith(start, at) ? [at, tagEnd(at + start.length)] : [at, at];
  }
}

function explain(
  lint: LintPackage,
  problem: TemplateProblem,
  other: Spot | undefined,
  text: string,
): string {
  const { start, end } = lint.delimiters;
  const tag = text ? `"${shortText(text)}"` : `"${problem.tag}"`;
  switch (problem.id) {
    case 'unclosed_tag':
      return `The tag ${tag} is not closed: "${end}" is missing after it, so docpipe cannot fill it.`;
    case 'unopened_tag':
      return `This "${end}" closes a tag that was never opened with "${start}".`;
    case 'duplicate_open_tag':
      return `The tag ${tag} opens with "${start}" twice.`;
    case 'duplicate_close_tag':
      return `The tag ${tag} closes with "${end}" twice.`;
    case 'unclosed_loop':
      return `The section ${tag} is never closed: no ${start}/${problem.tag}${end} follows it.`;
    case 'unopened_loop':
      return `${tag} closes a section that was never opened with ${start}#${problem.tag}${end}.`;
    case 'closing_tag_does_not_match_opening_tag':
      return `The section ${tag} is closed by ${closer(other, end)}: each section must be closed by its own name.`;
    case 'unbalanced_loop_tags':
      return `Sections overlap across table cells (${problem.explanation.replace(/^Unbalanced loop tags /, '')}): a table row cannot belong to one section and end in another.`;
    case 'loop_position_invalid':
      return `The section ${tag} opens inside a table and closes outside it (or the reverse): a section in a table repeats rows, so both ends must be in the table.`;
    case 'raw_xml_tag_should_be_only_text_in_paragraph':
      return `The raw tag ${tag} shares its paragraph with other text; a raw tag replaces its whole paragraph, and the other text would be lost.`;
    case 'raw_tag_outerxml_invalid':
      return `The raw tag ${tag} is not inside a paragraph: a raw tag replaces the paragraph it is in.`;
    case 'empty_tag':
      return `The tag ${tag} is empty: it names no field.`;
    default:
      return problem.explanation;
  }
}

function closer(spot: Spot | undefined, end: string): string {
  if (!spot) return 'another tag';
  const text = spot.paragraph.text;
  const close = text.indexOf(end, spot.at);
  const tag = text.slice(spot.at, close === -1 ? undefined : close + end.length);
  return `"${shortText(tag)}" (¶${spot.paragraph.index})`;
}
