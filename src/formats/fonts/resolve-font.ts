import { BoundedLru } from '../../base/cache/index.js';
import { fontconfigMatch, installedFonts, type InstalledFonts } from './installed-fonts.js';
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
 * font with that PostScript name (LiberationSans-Bold is Liberation Sans), else with that name
 * once hyphens are dropped (LibreOffice writes P052-Roman as P052Roman), else the installed family
 * whose name without spaces starts it, longest first (NimbusRomanRegular is Nimbus Roman), else
 * the name without its style (`-Bold`, `,Bold`): a font from another machine.
 */
export function embeddedFamily(baseFont: string): string {
  const name = withoutSubsetTag(baseFont);
  const fonts = installedFonts();
  const read = familiesRead.get(fonts) ?? new BoundedLru<string>(FAMILIES_KEPT);
  familiesRead.set(fonts, read);
  let family = read.get(name);
  if (family === undefined) {
    family = familyOf(name, fonts);
    read.set(name, family, name.length + family.length);
  }
  return family;
}

/** BaseFont names to families, per reading of the installed fonts: a render's fonts recur. */
const familiesRead = new WeakMap<InstalledFonts, BoundedLru<string>>();
const FAMILIES_KEPT = { maxEntries: 1024, maxBytes: 1024 * 256 };

function familyOf(name: string, fonts: InstalledFonts): string {
  const { postscript, families } = fonts;
  const known = postscript.get(name) ?? squeezedPostscript(fonts).get(squeeze(name));
  if (known) return known;
  const squeezed = squeeze(name);
  let best: string | undefined;
  for (const [lower, spelled] of families) {
    const family = squeeze(lower);
    if (squeezed.startsWith(family) && family.length > squeeze(best ?? '').length) best = spelled;
  }
  return best ?? name.replace(/[-,].*$/, '');
}

const squeeze = (name: string) => name.toLowerCase().replace(/[\s-]+/g, '');

const squeezedOf = new WeakMap<InstalledFonts, Map<string, string>>();
function squeezedPostscript(fonts: InstalledFonts): Map<string, string> {
  let squeezed = squeezedOf.get(fonts);
  if (!squeezed) {
    squeezed = new Map();
    for (const [ps, family] of fonts.postscript)
      if (!squeezed.has(squeeze(ps))) squeezed.set(squeeze(ps), family);
    squeezedOf.set(fonts, squeezed);
  }
  return squeezed;
}
