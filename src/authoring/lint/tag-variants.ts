import { excerptOf } from './excerpt.js';
import type { LintPackage } from './lint-package.js';
import { finding, type LintFinding } from './lint-rules.js';
import { tagsOf, type Tag } from './tags.js';
import { anchorReading } from './anchor-findings.js';

/** Every kind of space, visible or not: two names that differ only in these are one to a reader. */
const SPACES = /[\s\u00A0\u2007\u202F\u200B-\u200D\u2060\uFEFF]+/gu;

/**
 * Field names that differ only in case or spaces (`{Client_Name}` and `{client_name}`,
 * `{client name}` and `{clientname}`): fill matches names exactly, so they are two fields and a
 * value fills one of them. Each less used spelling is reported where it first appears, naming
 * the most used one.
 */
export function tagVariantFindings(lint: LintPackage): LintFinding[] {
  const byKey = new Map<string, Map<string, Tag[]>>();
  for (const part of lint.parts) {
    for (const tag of tagsOf(part, lint.delimiters)) {
      if (tag.kind === 'close' || tag.paragraph.inFallback) continue;
      if (tag.name === '' || tag.name === '.') continue;
      // Anchors have one spelling; a variant of one is a malformed anchor (anchor-findings.ts).
      if (anchorReading(tag, lint.delimiters).status !== 'other') continue;
      const key = tag.name.toLowerCase().replace(SPACES, '');
      const spellings = byKey.get(key) ?? new Map<string, Tag[]>();
      byKey.set(key, spellings);
      spellings.set(tag.name, [...(spellings.get(tag.name) ?? []), tag]);
    }
  }
  const found: LintFinding[] = [];
  for (const spellings of byKey.values()) {
    if (spellings.size < 2) continue;
    // The most used spelling is taken as meant; on a tie, the first met.
    const ranked = [...spellings.entries()].sort((a, b) => b[1].length - a[1].length);
    const [main, mainTags] = ranked[0]!;
    for (const [name, tags] of ranked.slice(1)) {
      const tag = tags[0]!;
      found.push(
        finding(
          'tags_differ_in_case_or_spaces',
          {
            part: tag.part.label,
            paragraph: tag.paragraph.index,
            excerpt: excerptOf(tag.paragraph.text, tag.at, tag.end),
          },
          `The field "${name}" differs from "${main}" (${mainTags.length === 1 ? 'once' : `${mainTags.length} times`} elsewhere) only in case or spaces: docpipe matches names exactly, so they are two fields and a value named one way leaves the other empty.`,
        ),
      );
    }
  }
  return found;
}
