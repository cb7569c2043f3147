import { fontconfig } from './installed-fonts.js';

/**
 * The characters some installed font has a glyph for: the union of every font's charset, as
 * sorted, merged ranges. LibreOffice draws a character its run's font lacks with another font
 * that has it (fontconfig's fallback), so a character is drawn as long as any installed font has
 * it; one that no font has is drawn as `.notdef`, an empty box a reader cannot read (checked
 * against LibreOffice: 中 and 김 without a CJK font come out as boxes, 😀 is drawn with DejaVu Sans).
 */
export interface FontCoverage {
  /** Whether some installed font draws the code point. */
  has(codePoint: number): boolean;
}

let coverage: FontCoverage | undefined;

/**
 * Read from fc-list once per process (per thread) and kept: about 30 ms and 200 KB of output for
 * 400 fonts, once.
 */
export function installedCoverage(): FontCoverage {
  coverage ??= coverageOf(fontconfig('fc-list', ['-f', '%{charset}\n']));
  return coverage;
}

/** Forgets the coverage read, for tests that install or remove fonts. */
export function forgetFontCoverage(): void {
  coverage = undefined;
}

/**
 * The coverage of fc-list's charsets, one font per line, each a list of hex code points and
 * ranges (`20-7e a0-17f 192`).
 */
export function coverageOf(charsets: string): FontCoverage {
  const ranges: [number, number][] = [];
  for (const token of charsets.split(/\s+/)) {
    const m = /^([0-9a-f]+)(?:-([0-9a-f]+))?$/i.exec(token);
    if (!m) continue;
    const from = parseInt(m[1]!, 16);
    const to = m[2] === undefined ? from : parseInt(m[2], 16);
    if (to >= from) ranges.push([from, to]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const starts: number[] = [];
  const ends: number[] = [];
  for (const [from, to] of ranges) {
    const last = ends.length - 1;
    if (last >= 0 && from <= ends[last]! + 1) ends[last] = Math.max(ends[last]!, to);
    else {
      starts.push(from);
      ends.push(to);
    }
  }
  const s = Uint32Array.from(starts);
  const e = Uint32Array.from(ends);
  return {
    has(codePoint: number): boolean {
      // The last range starting at or before the code point.
      let lo = 0;
      let hi = s.length - 1;
      let at = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        if (s[mid]! <= codePoint) {
          at = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      return at >= 0 && codePoint <= e[at]!;
    },
  };
}

/**
 * Characters a reader never sees as a glyph of their own: white space, controls, format
 * characters (joiners, bidi marks, the soft hyphen) and the default-ignorable ones (variation
 * selectors). A font need not have them; LibreOffice draws nothing for them.
 */
const INVISIBLE = /[\p{White_Space}\p{Cc}\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}]/u;

/**
 * The characters of `text` that no installed font draws, each once, in the order they first
 * appear. Empty when every visible character has a glyph somewhere.
 */
export function charactersNotDrawn(
  text: string,
  fonts: FontCoverage = installedCoverage(),
): string[] {
  const missing = new Set<string>();
  for (const char of text) {
    // ASCII letters, digits and punctuation: every text font has them; skip the lookup.
    const code = char.codePointAt(0)!;
    if (code < 0x7f && code >= 0x20) continue;
    if (missing.has(char) || INVISIBLE.test(char)) continue;
    if (!fonts.has(code)) missing.add(char);
  }
  return [...missing];
}
