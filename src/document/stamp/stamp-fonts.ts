import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EmbeddedFont, PDF } from '@libpdf/core';

/**
 * Liberation Sans draws what people's names hold in Latin scripts (Danish, Swedish, German,
 * Polish, Czech, ...); Debian's fonts-liberation2 (scripts/setup.sh, the Dockerfile) installs it.
 */
export const STAMP_FONT_DIR = '/usr/share/fonts/truetype/liberation2';

const FILES = {
  regular: 'LiberationSans-Regular.ttf',
  bold: 'LiberationSans-Bold.ttf',
  italic: 'LiberationSans-Italic.ttf',
} as const;

export type FontStyle = keyof typeof FILES;

/** The font files, read once per process: they are the same for every document. */
const files = new Map<FontStyle, Uint8Array>();
/** Each document embeds each style once, however many stamps and pages draw with it. */
const embedded = new WeakMap<PDF, Map<FontStyle, EmbeddedFont>>();

/** The document's embedded font of `style` (subset when the document is saved). */
export function stampFont(pdf: PDF, style: FontStyle): EmbeddedFont {
  let fonts = embedded.get(pdf);
  if (!fonts) embedded.set(pdf, (fonts = new Map<FontStyle, EmbeddedFont>()));
  let font = fonts.get(style);
  if (!font) {
    let data = files.get(style);
    if (!data) files.set(style, (data = readFileSync(join(STAMP_FONT_DIR, FILES[style]))));
    font = pdf.embedFont(data);
    fonts.set(style, font);
  }
  return font;
}
