import type { FailureDetail } from '../../base/errors/index.js';
import type { DocxPackage } from '../../formats/sniff/index.js';
import { MAX_ANCHORS, anchorField, malformedMessage } from '../anchors/index.js';
import { partKind } from '../fields/index.js';
import type { UnplacedAnchor } from './anchor-module.js';
import type { Delimiters } from './delimiters.js';
import { PartParagraphs } from './part-paragraphs.js';

/** An anchor the template holds but fill cannot place, in words, before any field path. */
export interface AnchorProblem {
  /** As its field path names it: `sign:1`. */
  anchor: string;
  message: string;
}

/**
 * Each unplaced anchor's problem, saying where it is (`in body paragraph 3 (word/document.xml)`)
 * and what to do.
 */
export function anchorProblems(
  unplaced: UnplacedAnchor[],
  pkg: DocxPackage,
  original: (file: string) => string | undefined,
  d: Delimiters,
): AnchorProblem[] {
  const texts = new Map<string, PartParagraphs>();
  const where = ({ file, part }: UnplacedAnchor): string => {
    let map = texts.get(file);
    if (!map) texts.set(file, (map = new PartParagraphs(original(file) ?? '')));
    const spot = part.offset === undefined ? undefined : map.locate(part.offset);
    const paragraph = spot?.paragraph.index ? ` paragraph ${spot.paragraph.index}` : '';
    return ` in ${partKind(pkg, file)}${paragraph} (${file})`;
  };
  return unplaced.map((u) => {
    const tag = `"${d.start}${u.part.value}${d.end}"`;
    const at = where(u);
    const { reading } = u.part;
    switch (u.why.kind) {
      case 'malformed':
        return {
          anchor: u.anchor,
          message:
            reading.status === 'malformed'
              ? `${malformedMessage(u.part.value, reading, d).replace(/^("[^"]*")/, `$1${at}`)}`
              : `${tag}${at} is not an anchor`,
        };
      case 'section':
        return {
          anchor: u.anchor,
          message: `${tag}${at} is inside the section "${u.why.section}": an anchor is one place for one signer, and a section may repeat it or leave it out; move it out of the section`,
        };
      case 'not-text':
        return {
          anchor: u.anchor,
          message: `${tag}${at} is not in the document's text (a document property or a drawing), where no signer can sign; put it in the body, a table, a header or a footer`,
        };
      case 'too-many':
        return {
          anchor: u.anchor,
          message: `${tag}${at} is past the ${MAX_ANCHORS}th anchor: a document holds at most ${MAX_ANCHORS}`,
        };
    }
  });
}

/** The problems as failure details at `documents[0].anchors.sign:1` (`anchors.sign:1` alone). */
export function anchorProblemDetails(problems: AnchorProblem[], field: string): FailureDetail[] {
  return problems.map((p) => ({ field: anchorField(field, p.anchor), message: p.message }));
}
