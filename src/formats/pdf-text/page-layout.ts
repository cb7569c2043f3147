import type { Glyph } from './page-glyphs.js';

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

export function layoutOf(glyphs: readonly Glyph[]): PageLayout {
  const parts: string[] = [];
  const owners: number[] = [];
  let prev: Glyph | undefined;
  let dx = 1;
  let dy = 0;
  const emit = (text: string, owner: number) => {
    parts.push(text);
    for (let k = 0; k < text.length; k++) owners.push(owner);
  };
  for (let i = 0; i < glyphs.length; i++) {
    const g = glyphs[i]!;
    if (prev && g.text !== '') {
      const vx = prev.ex - prev.ox;
      const vy = prev.ey - prev.oy;
      const len = Math.hypot(vx, vy);
      if (len > 1e-9) {
        dx = vx / len;
        dy = vy / len;
      }
      const mx = g.ox - prev.ex;
      const my = g.oy - prev.ey;
      const along = mx * dx + my * dy;
      const across = dx * my - dy * mx;
      const size = Math.max(prev.size, g.size, 1e-6);
      const last = parts.length > 0 ? parts[parts.length - 1]! : '';
      const spaced = /\s$/.test(last) || /^\s/.test(g.text);
      if (Math.abs(across) > NEW_LINE * size || along < -size) emit('\n', -1);
      else if (along > WORD_GAP * size && !spaced) emit(' ', -1);
    }
    if (g.text !== '') {
      emit(g.text, i);
      prev = g;
    }
  }
  return { text: parts.join(''), owner: Int32Array.from(owners) };
}
