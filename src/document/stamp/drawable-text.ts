import type { EmbeddedFont } from '@libpdf/core';

/**
 * Control characters (C0, C1, DEL) and the bidirectional formatting characters (LRE..RLO,
 * LRI..PDI, LRM, RLM, ALM): a name or user agent must not reorder or hide what is drawn beside it.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * Text from a user made safe to draw: one line, its invisible controls replaced by spaces
 * (collapsed), and each character the font cannot draw replaced by `?`. It is drawn as glyphs,
 * never read as markup or operators.
 */
export function drawableText(text: string, font: EmbeddedFont): string {
  const flat = text.normalize('NFC').replace(INVISIBLE, ' ').replace(/\s+/gu, ' ').trim();
  let out = '';
  for (const char of flat) out += font.canEncode(char) ? char : '?';
  return out;
}
