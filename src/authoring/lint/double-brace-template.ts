import type { Delimiters } from '../../document/fill/index.js';
import { excerptOf } from './excerpt.js';
import type { LintPackage } from './lint-package.js';
import { finding, type LintFinding } from './lint-rules.js';

/** A tag written with double braces, sections and raw tags too: `{{name}}`, `{{#lines}}`. */
const DOUBLE = /(?<![{$])\{\{\s*[#/^@]?[\p{L}_][^{}\n]{0,80}?\s*\}\}(?!\})/gu;
/** A value tag written with single braces, not part of a double-brace one. */
const SINGLE = /(?<![{$])\{\s*[#/^@]?[\p{L}_][^{}\n]{0,80}?\s*\}(?!\})/gu;

/**
 * A `{ }` template written with `{{ }}` throughout (a template made for another tool, or for a
 * folder whose document.json sets the delimiters, linted alone) has one cause for every broken
 * tag and section lint would report: the delimiters. Answers that one finding, at the first
 * double-brace tag; undefined when the template also has single-brace tags, where each
 * double-brace tag is a slip of its own.
 */
export function doubleBraceTemplate(lint: LintPackage): LintFinding | undefined {
  if (!isSingleBrace(lint.delimiters)) return undefined;
  let first: { where: Where; tag: string } | undefined;
  let doubles = 0;
  let singles = 0;
  for (const part of lint.parts)
    for (const paragraph of part.paragraphs) {
      if (paragraph.inFallback) continue;
      singles += [...paragraph.text.matchAll(SINGLE)].length;
      for (const m of paragraph.text.matchAll(DOUBLE)) {
        doubles++;
        first ??= {
          where: {
            part: part.label,
            paragraph: paragraph.index,
            excerpt: excerptOf(paragraph.text, m.index, m.index + m[0].length),
          },
          tag: m[0],
        };
      }
    }
  if (!first || doubles < 2 || singles > 0) return undefined;
  return finding(
    'double_brace_template',
    first.where,
    `The template writes its tags with double braces throughout (${doubles} tags, the first "${first.tag}"), but it is read with single ones ({name}), so none of them is a tag. The broken tags and sections that follow from this one cause are not listed.`,
  );
}

type Where = Pick<LintFinding, 'part' | 'paragraph' | 'excerpt'>;

function isSingleBrace(d: Delimiters): boolean {
  return d.start === '{' && d.end === '}';
}
