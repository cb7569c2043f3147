import type { Delimiters } from '../../document/fill/index.js';
import type { Paragraph, PartText } from './part-text.js';

/** How a tag is used: as docxtemplater tells them apart by the character after the delimiter. */
export type TagKind = 'value' | 'open' | 'inverted' | 'close' | 'raw';

/** A tag that is whole within one paragraph, as written. */
export interface Tag {
  part: PartText;
  paragraph: Paragraph;
  /** Where it starts and ends in the paragraph's text, delimiters included. */
  at: number;
  end: number;
  /** As written, delimiters included: `{#lines}`. */
  text: string;
  kind: TagKind;
  /** The field it names, as fill matches it (surrounding spaces trimmed). */
  name: string;
}

/**
 * The tags of a part, paragraph by paragraph in document order. A tag that runs into another
 * paragraph or holds a start delimiter is no tag here: compiling the template reports those.
 */
export function tagsOf(part: PartText, delimiters: Delimiters): Tag[] {
  const tags: Tag[] = [];
  for (const paragraph of part.paragraphs) tags.push(...tagsIn(part, paragraph, delimiters));
  return tags;
}

function tagsIn(part: PartText, paragraph: Paragraph, delimiters: Delimiters): Tag[] {
  return tagSpans(paragraph.text, delimiters).map(({ at, end, inner }) => ({
    part,
    paragraph,
    at,
    end,
    text: paragraph.text.slice(at, end),
    ...kindOf(inner),
  }));
}

/** Where whole tags are in a text: start and end delimiters, no start delimiter between. */
export function tagSpans(
  text: string,
  { start, end }: Delimiters,
): { at: number; end: number; inner: string }[] {
  const found: { at: number; end: number; inner: string }[] = [];
  let at = text.indexOf(start);
  while (at !== -1) {
    const close = text.indexOf(end, at + start.length);
    if (close === -1) break;
    const inner = text.slice(at + start.length, close);
    const next = close + end.length;
    if (!inner.includes(start)) {
      found.push({ at, end: next, inner });
      at = text.indexOf(start, next);
    } else at = text.indexOf(start, at + start.length);
  }
  return found;
}

function kindOf(inner: string): { kind: TagKind; name: string } {
  const first = inner.charAt(0);
  // `{-w:p name}` is a section that repeats the given element.
  const dash = /^-(\S+)\s(.+)$/s.exec(inner);
  if (dash) return { kind: 'open', name: dash[2]!.trim() };
  if (first === '#') return { kind: 'open', name: inner.slice(1).trim() };
  if (first === '^') return { kind: 'inverted', name: inner.slice(1).trim() };
  if (first === '/') return { kind: 'close', name: inner.slice(1).trim() };
  if (first === '@') return { kind: 'raw', name: inner.slice(1).trim() };
  return { kind: 'value', name: inner.trim() };
}
