import type { ParagraphSpot } from './part-paragraphs.js';
import type { Delimiters } from './delimiters.js';

/** Longest stretch of a paragraph a message quotes as the tag. */
const MAX_TAG = 40;

/** A stretch of a paragraph's text: `[from, to)`. */
export interface Span {
  from: number;
  to: number;
}

/**
 * The stretch of its paragraph a delimiter problem is about, at most 40 characters and never
 * past the paragraph's end: the unclosed tag up to the first space (`{client_name`), the
 * unopened one back to one (`name}`), the doubled one with all its delimiters (`{{currency}}`).
 * Another tag starting at the spot is taken whole; otherwise undefined.
 */
export function tagSpan(id: string, spot: ParagraphSpot, d: Delimiters): Span | undefined {
  const text = spot.paragraph.text;
  switch (id) {
    case 'unclosed_tag':
      return { from: spot.at, to: wordEnd(text, spot.at + d.start.length, d.start) };
    case 'unopened_tag': {
      const to = spot.at + d.end.length;
      return { from: wordStart(text, spot.at, d.end), to };
    }
    case 'duplicate_open_tag': {
      const from = backOver(text, spot.at, d.start);
      return { from, to: closedAt(text, from, d) };
    }
    case 'duplicate_close_tag': {
      const at = backOver(text, spot.at, d.end);
      const open = text.lastIndexOf(d.start, at);
      const from =
        open === -1 || at - open > MAX_TAG
          ? wordStart(text, at, d.end)
          : backOver(text, open, d.start);
      return { from, to: overAll(text, at, d.end) };
    }
    default:
      return text.startsWith(d.start, spot.at)
        ? { from: spot.at, to: closedAt(text, spot.at, d) }
        : undefined;
  }
}

/**
 * `{{currency}}` in a `{ }` template reads as a tag opened and closed twice; the author most
 * likely wrote it for `{{ }}` delimiters. Says so, with where to set them.
 */
export function delimiterHint(shown: string, { start, end }: Delimiters): string | undefined {
  const inner = shown.slice(2 * start.length, shown.length - 2 * end.length);
  const doubled =
    shown.startsWith(start + start) &&
    shown.endsWith(end + end) &&
    inner.trim() !== '' &&
    !inner.includes(start) &&
    !inner.includes(end);
  if (!doubled) return undefined;
  const pair = `${start}${start} ${end}${end}`;
  return `"${shown}" looks like a tag for "${pair}" delimiters: if the template uses them, set "delimiters": "${pair}" in its document.json or pass --delimiters "${pair}"`;
}

/** Where a tag starting at `from` ends: after its end delimiters, or cut. */
function closedAt(text: string, from: number, d: Delimiters): number {
  const close = text.indexOf(d.end, overAll(text, from, d.start));
  if (close === -1 || close + d.end.length - from > MAX_TAG)
    return wordEnd(text, overAll(text, from, d.start), d.start);
  return overAll(text, close, d.end);
}

/** Past every repeat of `delimiter` at `at`. */
function overAll(text: string, at: number, delimiter: string): number {
  let i = at;
  while (text.startsWith(delimiter, i)) i += delimiter.length;
  return i;
}

/** Back to the first of the repeats of `delimiter` that end at or run through `at`. */
function backOver(text: string, at: number, delimiter: string): number {
  let i = at;
  while (i >= delimiter.length && text.startsWith(delimiter, i - delimiter.length))
    i -= delimiter.length;
  return i;
}

/** The end of the word from `from`: a space, the next `stop` delimiter, the paragraph's end. */
function wordEnd(text: string, from: number, stop: string): number {
  const limit = Math.min(text.length, from + MAX_TAG);
  let i = from;
  while (i < limit && !/\s/.test(text[i]!) && !text.startsWith(stop, i)) i++;
  return i;
}

/** The start of the word ending at `to`: after a space, an earlier `stop`, the paragraph's start. */
function wordStart(text: string, to: number, stop: string): number {
  const limit = Math.max(0, to - MAX_TAG);
  let i = to;
  while (i > limit && !/\s/.test(text[i - 1]!) && !text.startsWith(stop, i - stop.length)) i--;
  return i;
}
