import type { GlyphList } from './glyph-list.js';

/**
 * A page's text as one string, glyphs in content order, with a newline where the baseline moves
 * and a space where a gap without a space glyph parts two glyphs; `owner[i]` is the glyph the
 * i-th UTF-16 unit comes from, -1 for those separators.
 */
export interface PageLayout {
  text: string;
  owner: Int32Array;
}

/** A move across the baseline of more than this (in font sizes) starts a new line. */
const NEW_LINE = 0.5;
/** A gap along the baseline of more than this (in font sizes) parts two words (poppler: 0.1). */
const WORD_GAP = 0.15;

export function layoutOf(glyphs: GlyphList): PageLayout {
  const parts: string[] = [];
  let owner = new Int32Array(glyphs.length * 2 + 16);
  let length = 0;
  let prev = -1;
  let dx = 1;
  let dy = 0;
  let endsInSpace = true;
  const { text, ox, oy, ex, ey, size } = glyphs;
  for (let i = 0; i < glyphs.length; i++) {
    const t = text[i]!;
    if (t === '') continue;
    if (prev >= 0) {
      const vx = ex[prev]! - ox[prev]!;
      const vy = ey[prev]! - oy[prev]!;
      if (vx !== 0 || vy !== 0) {
        // Math.hypot is slow, and along an axis it is exactly the other coordinate's size.
        const len = vy === 0 ? Math.abs(vx) : vx === 0 ? Math.abs(vy) : Math.hypot(vx, vy);
        dx = vx / len;
        dy = vy / len;
      }
      const mx = ox[i]! - ex[prev]!;
      const my = oy[i]! - ey[prev]!;
      const along = mx * dx + my * dy;
      const across = dx * my - dy * mx;
      const em = Math.max(size[prev]!, size[i]!, 1e-6);
      let separator = '';
      if (Math.abs(across) > NEW_LINE * em || along < -em) separator = '\n';
      else if (along > WORD_GAP * em && !endsInSpace && !isSpace(t.charCodeAt(0))) separator = ' ';
      if (separator !== '') {
        parts.push(separator);
        owner[length++] = -1;
      }
    }
    parts.push(t);
    if (length + t.length + 1 > owner.length) {
      const grown = new Int32Array(owner.length * 2 + t.length);
      grown.set(owner);
      owner = grown;
    }
    for (let k = 0; k < t.length; k++) owner[length++] = i;
    endsInSpace = isSpace(t.charCodeAt(t.length - 1));
    prev = i;
  }
  return { text: parts.join(''), owner: owner.subarray(0, length) };
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0xa0 || c === 0x3000;
}
