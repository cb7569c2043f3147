import type { Delimiters } from '../../document/fill/index.js';

/**
 * How a tag is shown in a preview: a value it will be replaced by, or a section marker
 * (`{#flag}`, a loop `{#lines}`, `{-w:p flag}`, and their `{/flag}`), or an inverted section
 * marker (`{^flag}` and its `{/flag}`), so that the branch shown when a flag is false stands out
 * from the one shown when it is true.
 */
export type TagMark = 'value' | 'section' | 'inverted';

export interface TagSpan {
  /** Offsets into the part's text, delimiters included. */
  start: number;
  end: number;
  mark: TagMark;
  /** What is between the delimiters, as written. */
  inner: string;
}

/**
 * Finds every tag in a part's text (the text of its runs in document order, as docxtemplater
 * reads it) and how to mark it. Tags are told apart by the character after the start delimiter,
 * exactly as docxtemplater does: it does not trim, so `{ #flag}` is a value, not a section.
 * An end delimiter without a start, or a start without an end, is left unmarked: the template
 * compiled, so only text docxtemplater does not read as a tag can look like that.
 */
export function findTagSpans(text: string, delimiters: Delimiters): TagSpan[] {
  const spans: TagSpan[] = [];
  const open: TagMark[] = [];
  let at = 0;
  while (at < text.length) {
    const start = text.indexOf(delimiters.start, at);
    if (start === -1) break;
    const close = text.indexOf(delimiters.end, start + delimiters.start.length);
    if (close === -1) break;
    const end = close + delimiters.end.length;
    const first = text.charAt(start + delimiters.start.length);
    const inner = text.slice(start + delimiters.start.length, close);
    spans.push({ start, end, mark: markOf(first, open), inner });
    at = end;
  }
  return spans;
}

function markOf(first: string, open: TagMark[]): TagMark {
  if (first === '#' || first === '-') {
    open.push('section');
    return 'section';
  }
  if (first === '^') {
    open.push('inverted');
    return 'inverted';
  }
  // The end of a section takes its start's mark, so both ends of a branch look alike.
  if (first === '/') return open.pop() ?? 'section';
  return 'value';
}
