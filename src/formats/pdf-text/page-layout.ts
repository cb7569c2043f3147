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
  // The text's UTF-16 units are gathered in an array and decoded once: a string built glyph by
  // glyph (or an array of them joined) cost more than placing the glyphs.
  let owner = new Int32Array(glyphs.length * 2 + 16);
  let units = new Uint16Array(owner.length);
  let length = 0;
  let prev = -1;
  let dx = 1;
  let dy = 0;
  let endsInSpace = true;
  const { text, ox, oy, ex, ey, size } = glyphs;
  for (let i = 0; i < glyphs.length; i++) {
    const t = text[i]!;
    if (t.length === 0) continue;
    if (length + t.length + 2 > owner.length) {
      const n = owner.length * 2 + t.length;
      const grownOwner = new Int32Array(n);
      grownOwner.set(owner);
      owner = grownOwner;
      const grownUnits = new Uint16Array(n);
      grownUnits.set(units);
      units = grownUnits;
    }
    const first = t.charCodeAt(0);
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
      let separator = 0;
      if (Math.abs(across) > NEW_LINE * em || along < -em) separator = 0x0a;
      else if (along > WORD_GAP * em && !endsInSpace && !isSpace(first)) separator = 0x20;
      if (separator !== 0) {
        units[length] = separator;
        owner[length++] = -1;
      }
    }
    units[length] = first;
    owner[length++] = i;
    for (let k = 1; k < t.length; k++) {
      units[length] = t.charCodeAt(k);
      owner[length++] = i;
    }
    endsInSpace = isSpace(t.charCodeAt(t.length - 1));
    prev = i;
  }
  return { text: decodeUnits(units, length), owner: owner.subarray(0, length) };
}

function decodeUnits(units: Uint16Array, length: number): string {
  // In chunks: a call takes only so many arguments. Lone surrogates stay as they are. `apply`,
  // not a spread: spreading a typed array walks its iterator, eight times slower.
  let out = '';
  for (let at = 0; at < length; at += DECODE_CHUNK) {
    const chunk = units.subarray(at, Math.min(length, at + DECODE_CHUNK));
    out += String.fromCharCode.apply(null, chunk as unknown as number[]);
  }
  return out;
}

const DECODE_CHUNK = 8192;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0xa0 || c === 0x3000;
}
