/**
 * Operators that put something on a page: showing text, painting a path (stroke, fill or both),
 * painting a shading, drawing an XObject (image or form) and an inline image. Everything else
 * (state, colour, clipping, `n` ending a path unpainted, marked content) leaves the page as it
 * was. Text in rendering mode 3 (invisible, as over a scan) still counts: the page has text.
 */
const DRAWING = new Set([
  'Tj',
  'TJ',
  "'",
  '"',
  'S',
  's',
  'f',
  'F',
  'f*',
  'B',
  'B*',
  'b',
  'b*',
  'sh',
  'Do',
  'BI',
]);

const WHITE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITER = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
const isRegular = (b: number) => !WHITE.has(b) && !DELIMITER.has(b);

/**
 * Whether a page's content (its streams decoded and joined) draws anything. Reads operators the
 * way a PDF reader's lexer does (strings, names, arrays, dictionaries and comments skipped), and
 * stops at the first drawing operator: a page with text is known after its first few bytes.
 */
export function drawsSomething(content: Uint8Array): boolean {
  const n = content.length;
  let i = 0;
  while (i < n) {
    const b = content[i]!;
    if (WHITE.has(b)) i++;
    else if (b === 0x25) i = lineEnd(content, i);
    else if (b === 0x28) i = literalStringEnd(content, i);
    else if (b === 0x3c && content[i + 1] !== 0x3c) i = hexStringEnd(content, i);
    else if (b === 0x2f) i = regularEnd(content, i + 1);
    else if (!isRegular(b)) i++;
    else {
      const end = regularEnd(content, i);
      // Numbers and keywords are tokens too, but none is two characters or fewer and drawing.
      if (end - i <= 2 && DRAWING.has(text(content, i, end))) return true;
      i = end;
    }
  }
  return false;
}

function text(content: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...content.subarray(start, end));
}

function regularEnd(content: Uint8Array, i: number): number {
  while (i < content.length && isRegular(content[i]!)) i++;
  return i;
}

function lineEnd(content: Uint8Array, i: number): number {
  while (i < content.length && content[i] !== 0x0a && content[i] !== 0x0d) i++;
  return i;
}

/** Past a literal string: balanced parentheses, backslash escapes. */
function literalStringEnd(content: Uint8Array, i: number): number {
  let depth = 0;
  for (; i < content.length; i++) {
    const b = content[i]!;
    if (b === 0x5c) i++;
    else if (b === 0x28) depth++;
    else if (b === 0x29 && --depth === 0) return i + 1;
  }
  return i;
}

function hexStringEnd(content: Uint8Array, i: number): number {
  const end = content.indexOf(0x3e, i);
  return end < 0 ? content.length : end + 1;
}
