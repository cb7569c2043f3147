import { measureText, type EmbeddedFont } from '@libpdf/core';

/**
 * Lines of at most `width` points: broken at spaces, and a word longer than a line (a hash, a
 * user agent without spaces) broken between characters.
 */
export function wrapText(text: string, font: EmbeddedFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  const fits = (s: string) => measureText(s, font, size) <= width;
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    let rest = word;
    while (!fits(rest)) {
      let cut = 1;
      const chars = [...rest];
      while (cut < chars.length && fits(chars.slice(0, cut + 1).join(''))) cut++;
      lines.push(chars.slice(0, cut).join(''));
      rest = chars.slice(cut).join('');
    }
    line = rest;
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

/** The largest size from `max` down to `min` (in steps of 0.5 pt) at which `text` fits `width`. */
export function fittingSize(
  text: string,
  font: EmbeddedFont,
  width: number,
  max: number,
  min: number,
): number {
  let size = max;
  while (size > min && measureText(text, font, size) > width) size = Math.max(min, size - 0.5);
  return size;
}
