/**
 * pdftotext's layout text made stable for a snapshot: LF line ends, no spaces at line ends (a
 * justified line's padding says nothing), no blank lines or page feeds at the very end. Page
 * feeds between pages stay, so that a difference can name its page.
 */
export function normalizeText(text: string): string {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/[ \t]+$/, ''));
  while (lines.length > 0 && /^[\f\s]*$/.test(lines[lines.length - 1]!)) lines.pop();
  return `${lines.join('\n')}\n`;
}

export interface TextDifference {
  /** Page of the first differing line, from 1 (counted by page feeds). */
  page: number;
  /** Its line number in the snapshot file, from 1. */
  line: number;
  expected: string | undefined;
  actual: string | undefined;
  /** Lines changed: of the snapshot's lines not in the text and the reverse, the more. */
  differing: number;
  /**
   * When the rest lines up again after a few lines: that many lines were inserted before
   * `expected` (positive) or removed before `actual` (negative); else 0, a line changed.
   */
  shift: number;
}

/** How far ahead to look for the snapshot's line after an insertion or a removal. */
const SHIFT_LOOKAHEAD = 10;

/** Where two normalised texts first differ, and by how many lines; undefined when equal. */
export function textDifference(expected: string, actual: string): TextDifference | undefined {
  if (expected === actual) return undefined;
  const a = expected.split('\n');
  const b = actual.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const feeds =
    b
      .slice(0, i + 1)
      .join('\n')
      .split('\f').length - 1;
  return {
    page: feeds + 1,
    line: i + 1,
    expected: a[i]?.replace(/\f/g, ''),
    actual: b[i]?.replace(/\f/g, ''),
    differing: Math.max(unmatched(a, b), unmatched(b, a)),
    shift: shiftAt(a, b, i),
  };
}

function shiftAt(a: string[], b: string[], i: number): number {
  for (let k = 1; k <= SHIFT_LOOKAHEAD; k++) {
    if (a[i] !== undefined && b[i + k] === a[i]) return k;
    if (b[i] !== undefined && a[i + k] === b[i]) return -k;
  }
  return 0;
}

/** Lines of `a` left over after each is matched with an equal line of `b`. */
function unmatched(a: string[], b: string[]): number {
  const counts = new Map<string, number>();
  for (const l of b) counts.set(l, (counts.get(l) ?? 0) + 1);
  let left = 0;
  for (const l of a) {
    const n = counts.get(l) ?? 0;
    if (n > 0) counts.set(l, n - 1);
    else left++;
  }
  return left;
}

/** The pages (from 1, split at page feeds) whose text differs between two normalised texts. */
export function differingPages(expected: string, actual: string): number[] {
  const a = expected.split('\f');
  const b = actual.split('\f');
  const pages: number[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) pages.push(i + 1);
  return pages;
}
