/** Characters of context shown on each side of what a finding is about. */
const CONTEXT = 20;
/** Longest stretch shown whole; longer ones are cut with an ellipsis. */
const MAX_SPAN = 60;

/**
 * A short excerpt of `text` around `[from, to)`: the stretch itself and about 20 characters on
 * each side, cut at a word where it can be, spaces collapsed, `…` where text was left out.
 */
export function excerptOf(text: string, from: number, to: number): string {
  const start = Math.max(0, Math.min(from, text.length));
  const end = Math.max(start, Math.min(to, text.length));
  let span = text.slice(start, end);
  if (span.length > MAX_SPAN) span = `${span.slice(0, MAX_SPAN - 1)}…`;
  let before = text.slice(Math.max(0, start - CONTEXT), start);
  let after = text.slice(end, end + CONTEXT);
  const cutBefore = start - CONTEXT > 0;
  const cutAfter = end + CONTEXT < text.length;
  if (cutBefore) before = fromWord(before);
  if (cutAfter) after = toWord(after);
  // Ordinary white space only: a non-breaking space may be the very thing a finding is about.
  const body = `${before}${span}${after}`.replace(/[\t\n\r ]+/g, ' ').trim();
  return `${cutBefore ? '…' : ''}${body}${cutAfter ? '…' : ''}`;
}

/** A shortened text on its own (a comment, an inserted passage). */
export function shortText(text: string): string {
  const flat = text.replace(/[\t\n\r ]+/g, ' ').trim();
  return flat.length > MAX_SPAN ? `${flat.slice(0, MAX_SPAN - 1)}…` : flat;
}

/** Drops a word cut in half at the start, when a whole word follows. */
function fromWord(text: string): string {
  const space = text.search(/\s/);
  return space === -1 ? text : text.slice(space + 1);
}

function toWord(text: string): string {
  const space = text.search(/\s\S*$/);
  return space === -1 ? text : text.slice(0, space);
}
