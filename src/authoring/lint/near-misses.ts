import type { Delimiters } from '../../document/fill/index.js';
import { excerptOf } from './excerpt.js';
import type { LintPackage } from './lint-package.js';
import { finding, type LintFinding } from './lint-rules.js';
import type { Paragraph, PartText } from './part-text.js';
import { tagsOf } from './tags.js';

/** What a field name may look like inside a near miss: a letter or _ first, nothing of braces. */
const NAME = String.raw`[\p{L}_][^{}\n]{0,80}?`;
const DOUBLE = new RegExp(String.raw`(?<!\$)\{\{\s*${NAME}\s*\}\}`, 'gu');
const SINGLE = new RegExp(String.raw`(?<![{$])\{\s*${NAME}\s*\}(?!\})`, 'gu');
const DOLLAR = new RegExp(String.raw`\$\{\{?\s*${NAME}\s*\}\}?`, 'gu');
/** A word of two letters or more first: `[a]` and `[3]` number list items and clauses. */
const SQUARE = /\[\s*(\p{L}[\p{L}\p{N}_.'’-]+(?:[ _][\p{L}\p{N}_.'’-]+){0,3})\s*\]/gu;
const SMART_QUOTES = /[\u2018\u2019\u201A\u201B\u201C\u201D\u201E\u201F\u00AB\u00BB]/u;
/** Spaces that look like a space and are not one, and characters that do not show at all. */
const ODD_SPACES = /[\u00A0\u2007\u202F\u200B-\u200D\u2060\uFEFF]/u;

/**
 * Text that looks like a tag to a person but is not one to docpipe: the other brace style,
 * `${name}`, `[name]`, and tags holding typographic quotes or non-breaking spaces.
 */
export function nearMissFindings(lint: LintPackage): LintFinding[] {
  const found: LintFinding[] = [];
  for (const part of lint.parts) {
    for (const paragraph of part.paragraphs) {
      if (paragraph.inFallback) continue;
      found.push(...braceMisses(part, paragraph, lint.delimiters));
      found.push(...squareMisses(part, paragraph, lint.delimiters));
    }
    for (const tag of tagsOf(part, lint.delimiters)) {
      if (tag.paragraph.inFallback) continue;
      const where = {
        part: part.label,
        paragraph: tag.paragraph.index,
        excerpt: excerptOf(tag.paragraph.text, tag.at, tag.end),
      };
      if (SMART_QUOTES.test(tag.text))
        found.push(
          finding(
            'smart_quotes_in_tag',
            where,
            `The tag "${tag.text}" holds typographic quotes (Word's AutoFormat turns " into “ ”): a value's tag name would have to hold the very same characters to fill it.`,
          ),
        );
      const odd = ODD_SPACES.exec(tag.name);
      if (odd)
        found.push(
          finding(
            'nbsp_in_tag',
            where,
            `The tag "${tag.text}" holds ${oddName(odd[0])} where a value's tag name has an ordinary space or nothing, so no value fills it.`,
          ),
        );
    }
  }
  return found;
}

function braceMisses(part: PartText, paragraph: Paragraph, delimiters: Delimiters): LintFinding[] {
  const found: LintFinding[] = [];
  const text = paragraph.text;
  const at = (m: RegExpMatchArray) => ({
    part: part.label,
    paragraph: paragraph.index,
    excerpt: excerptOf(text, m.index!, m.index! + m[0].length),
  });
  const single = delimiters.start === '{' && delimiters.end === '}';
  const double = delimiters.start === '{{' && delimiters.end === '}}';
  if (single)
    for (const m of text.matchAll(DOUBLE))
      found.push(
        finding(
          'double_braces_in_single_brace_template',
          at(m),
          `"${m[0]}" is written with double braces, but this template's tags use single ones ({name}): docpipe reads it as a broken tag.`,
        ),
      );
  if (double)
    for (const m of text.matchAll(SINGLE))
      found.push(
        finding(
          'single_braces_in_double_brace_template',
          at(m),
          `"${m[0]}" is written with single braces, but this template's tags use double ones ({{name}}): docpipe leaves it in the document as written, braces and all.`,
        ),
      );
  for (const m of text.matchAll(DOLLAR)) {
    const isTag = single || (double && m[0].startsWith('${{'));
    found.push(
      finding(
        'dollar_brace_tag',
        at(m),
        isTag
          ? `"${m[0]}": the "$" is not part of the tag, so it stays in front of the value ("$Alice"), as in a template of another tool.`
          : `"${m[0]}" is a tag of another tool; this template's tags are written ${delimiters.start}name${delimiters.end}, so it stays in the document as written.`,
        isTag ? {} : { severity: 'error' },
      ),
    );
  }
  return found;
}

function squareMisses(part: PartText, paragraph: Paragraph, delimiters: Delimiters): LintFinding[] {
  if (delimiters.start.startsWith('[')) return [];
  return [...paragraph.text.matchAll(SQUARE)].map((m) =>
    finding(
      'square_bracket_tag',
      {
        part: part.label,
        paragraph: paragraph.index,
        excerpt: excerptOf(paragraph.text, m.index, m.index + m[0].length),
      },
      `"${m[0]}" looks like a placeholder in square brackets; docpipe fills only tags written ${delimiters.start}name${delimiters.end}, so it stays in the document as written.`,
    ),
  );
}

function oddName(char: string): string {
  const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  const names: Record<string, string> = {
    'U+00A0': 'a non-breaking space',
    'U+2007': 'a figure space',
    'U+202F': 'a narrow non-breaking space',
    'U+200B': 'a zero-width space',
    'U+200C': 'a zero-width non-joiner',
    'U+200D': 'a zero-width joiner',
    'U+2060': 'a word joiner',
    'U+FEFF': 'a zero-width no-break space',
  };
  return `${names[code] ?? 'an invisible character'} (${code})`;
}
