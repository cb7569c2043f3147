import { fontconfigMatch, installedFonts } from './installed-fonts.js';
import { isMetricCompatible, isSymbolFont } from './metric-compatible.js';

export interface ResolvedFont {
  /** The family as asked. */
  family: string;
  /** Installed under that name: drawn as designed. */
  installed: boolean;
  /** What fontconfig draws it with when it is not installed (LibreOffice may choose otherwise). */
  replacement?: string;
  /** Installed, or replaced by a family with the same widths: the layout stays as in Word. */
  metricCompatible: boolean;
  /** A font of symbols (bullets, boxes) that LibreOffice draws with OpenSymbol. */
  symbol: boolean;
}

/**
 * Whether a family a document asks for is installed, and if not what replaces it and whether that
 * keeps its widths. The installed families are read once per process, each replacement once.
 */
export function resolveFont(family: string): ResolvedFont {
  const symbol = isSymbolFont(family);
  if (installedFonts().families.has(family.toLowerCase()))
    return { family, installed: true, metricCompatible: true, symbol };
  const replacement = fontconfigMatch(family);
  return {
    family,
    installed: false,
    replacement,
    metricCompatible: isMetricCompatible(family, replacement),
    symbol,
  };
}

/** A PDF's BaseFont without its subset tag (`ABCDEF+`). */
export function withoutSubsetTag(baseFont: string): string {
  return baseFont.replace(/^[A-Z]{6}\+/, '');
}

/**
 * The family of a font a PDF embeds, from its BaseFont: the subset tag removed, then the installed
 * font with that PostScript name (LiberationSans-Bold is Liberation Sans), else the name without
 * its style (`-Bold`, `,Bold`) matched against installed families with their spaces removed,
 * else that name as it is (a font from another machine).
 */
export function embeddedFamily(baseFont: string): string {
  const name = withoutSubsetTag(baseFont);
  const { postscript, families } = installedFonts();
  const known = postscript.get(name);
  if (known) return known;
  const stem = name.replace(/[-,].*$/, '');
  const squeezed = stem.toLowerCase();
  for (const [lower, spelled] of families)
    if (lower.replace(/\s+/g, '') === squeezed) return spelled;
  return stem;
}
