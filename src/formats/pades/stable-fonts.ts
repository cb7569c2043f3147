import { createHash } from 'node:crypto';
import type { PDF } from '@libpdf/core';

/**
 * Writes the document's embedded fonts as subsets, with subset tags that depend on the glyphs
 * used only. @libpdf/core draws each tag from Math.random and embeds fonts whole unless told to
 * subset; so this runs before the library saves, with Math.random replaced, for the duration of
 * this synchronous call only, by a stream derived from the fonts' names and glyph sets. The same
 * text drawn gives the same tags, hence the same bytes (sealing is idempotent), and different
 * subsets of one font get different tags, as PDF readers expect. Calling it again does nothing.
 */
export function finalizeFontsStably(pdf: PDF): void {
  if (pdf.fonts.isFinalized) return;
  const seed = createHash('sha256');
  for (const font of pdf.fonts.getAll())
    seed.update(`${font.baseFontName}:${font.getUsedGlyphIds().join(',')};`);
  const stream = randomStream(seed.digest());
  const random = Math.random;
  Math.random = stream;
  try {
    pdf.fonts.finalize(true);
  } finally {
    Math.random = random;
  }
}

/** Numbers in [0, 1) from a hash chain: SHA-256 of the seed and a counter, 4 bytes a number. */
function randomStream(seed: Buffer): () => number {
  let block = Buffer.alloc(0);
  let offset = 0;
  let counter = 0;
  return () => {
    if (offset + 4 > block.length) {
      block = createHash('sha256').update(seed).update(String(counter++)).digest();
      offset = 0;
    }
    const value = block.readUInt32BE(offset) / 2 ** 32;
    offset += 4;
    return value;
  };
}
