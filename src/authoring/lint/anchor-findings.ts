import {
  nearMissAnchor,
  readAnchor,
  malformedMessage,
  writtenTag,
  type AnchorReading,
} from '../../document/anchors/index.js';
import type { Delimiters } from '../../document/fill/index.js';
import { excerptOf } from './excerpt.js';
import type { LintPackage } from './lint-package.js';
import { finding, type LintFinding } from './lint-rules.js';
import { tagsOf, type Tag } from './tags.js';

/** What a value tag is as an anchor (`{sign:1}`, `{sign:0}`), read from its content as written. */
export function anchorReading(tag: Tag, d: Delimiters): AnchorReading {
  if (tag.kind !== 'value') return { status: 'other' };
  return readAnchor(tag.text.slice(d.start.length, tag.text.length - d.end.length));
}

/**
 * Anchors that fill would refuse or that look misspelt: a malformed anchor (`{sign:0}`,
 * `{sign:}`, `{sign:1 }`), a tag that reads like a misspelt one (`{sgn:1}`, `{signature:1}`),
 * and an anchor inside a section (which may repeat it or leave it out). A well-formed anchor is
 * no finding anywhere else (it needs no value and no declaration); in a header or footer it is
 * fine, and yields a place on every page.
 */
export function anchorFindings(lint: LintPackage): LintFinding[] {
  const d = lint.delimiters;
  const found: LintFinding[] = [];
  for (const part of lint.parts) {
    const open: string[] = [];
    for (const tag of tagsOf(part, d)) {
      if (tag.paragraph.inFallback) continue;
      if (tag.kind === 'close') {
        const at = open.lastIndexOf(tag.name);
        if (at !== -1) open.length = at;
        continue;
      }
      if (tag.kind === 'open' || tag.kind === 'inverted') open.push(tag.name);
      const where = {
        part: part.label,
        paragraph: tag.paragraph.index,
        excerpt: excerptOf(tag.paragraph.text, tag.at, tag.end),
      };
      const inner = tag.text.slice(d.start.length, tag.text.length - d.end.length);
      const reading = anchorReading(tag, d);
      if (reading.status === 'malformed') {
        found.push(finding('malformed_anchor', where, `${malformedMessage(inner, reading, d)}.`));
      } else if (reading.status === 'anchor' && open.length > 0) {
        found.push(
          finding(
            'anchor_in_section',
            where,
            `The anchor "${tag.text}" is inside the section "${open.at(-1)}": a section may repeat it or leave it out, and an anchor is one place for one signer, so fill refuses it.`,
          ),
        );
      } else if (reading.status === 'other' && tag.kind === 'value') {
        const meant = nearMissAnchor(inner);
        if (meant)
          found.push(
            finding(
              'misspelt_anchor',
              where,
              `The tag "${tag.text}" looks like the anchor ${writtenTag(meant, d)} misspelt: as written it is a value's name, which needs a value and marks no place to sign.`,
            ),
          );
      }
    }
  }
  return found;
}
