import { attributesByLocalName, readXmlPart } from '../opc/index.js';
import { fontPartKind, TEXT_PART_ORDER, type FontPartKind, type FontSource } from './font-parts.js';

/**
 * The text a font is asked for: `ascii` and `hAnsi` are Latin text (every Danish and English
 * document), `eastAsia` and `cs` (complex scripts: Arabic, Hebrew, Thai) only matter when the
 * document has text in those scripts.
 */
export type FontSlot = 'ascii' | 'hAnsi' | 'eastAsia' | 'cs';

/** Where a font is asked for: the part, and in a text part the paragraph (1-based). */
export interface FontUse {
  /** Zip entry name of the part (word/document.xml, word/header1.xml, word/styles.xml). */
  part: string;
  kind: FontPartKind;
  /** The paragraph of a text part whose run asks for it, counted from 1 in that part. */
  paragraph?: number;
  /** The style that asks for it (styles part). */
  style?: string;
}

export interface DocumentFont {
  /** The family as the document spells it. */
  family: string;
  slots: FontSlot[];
  /**
   * Asked for by something on the page: a run, the document's defaults, a style a paragraph or
   * run uses (or a default style), a list the text uses. False: only declared (the font table,
   * a style nothing uses), which Word writes for fonts no text has.
   */
  used: boolean;
  /** Where it is first used, or declared when it is not used. */
  first: FontUse;
}

/**
 * Families read from one document at most: more is no real document, and each one costs a
 * lookup. Further families are left out of the answer.
 */
export const MAX_DOCUMENT_FONTS = 256;
/** Longer family names are cut: no font is named with more (fontconfig's own names are short). */
const MAX_FAMILY_CHARS = 128;

const SLOTS: readonly FontSlot[] = ['ascii', 'hAnsi', 'eastAsia', 'cs'];
/** Each slot's theme attribute; Word's spelling of the last one is all lower case. */
const THEME_ATTRIBUTE: Record<FontSlot, string> = {
  ascii: 'asciiTheme',
  hAnsi: 'hAnsiTheme',
  eastAsia: 'eastAsiaTheme',
  cs: 'cstheme',
};

interface ThemeFonts {
  major?: string;
  minor?: string;
}

const cache = new WeakMap<FontSource, readonly DocumentFont[]>();

/**
 * The font families a .docx asks for, each with where it is first used: run properties in every
 * part with text (body, headers, footers, notes, comments), the document defaults and the styles
 * (with the theme's major and minor Latin fonts they point to), list levels, and the font table.
 * A regular-expression scan of parts sniffing already inflated and checked; kept per package, so
 * a template the sniff cache holds is read once.
 */
export function documentFonts(pkg: FontSource): readonly DocumentFont[] {
  let found = cache.get(pkg);
  if (!found) {
    found = new FontScan(pkg).run();
    cache.set(pkg, found);
  }
  return found;
}

/** The families used for Latin text: the ones whose replacement changes every page's layout. */
export function latinFontsUsed(fonts: readonly DocumentFont[]): DocumentFont[] {
  return fonts.filter((f) => f.used && f.slots.some((s) => s === 'ascii' || s === 'hAnsi'));
}

const ELEMENT = (names: string) =>
  new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?(${names})(?=[\\s/>])([^>]*)>`, 'g');
/**
 * Elements with a body, by local name (any prefix). Each end tag is looked for once from its
 * start tag, and the scan stops at the first element left open, so hostile parts cost linear time.
 */
function elementsWithBody(
  xml: string,
  name: string,
): { attrs: Record<string, string>; body: string }[] {
  const start = new RegExp(`<([A-Za-z_][\\w.-]*:)?${name}(?=[\\s/>])([^>]*)>`, 'g');
  const out: { attrs: Record<string, string>; body: string }[] = [];
  for (let m = start.exec(xml); m; m = start.exec(xml)) {
    if (m[2]!.endsWith('/')) continue;
    const end = xml.indexOf(`</${m[1] ?? ''}${name}>`, start.lastIndex);
    if (end < 0) break;
    out.push({ attrs: attributes(m[2]!), body: xml.slice(start.lastIndex, end) });
    start.lastIndex = end;
  }
  return out;
}

const attributes = attributesByLocalName;

class FontScan {
  private readonly fonts = new Map<string, DocumentFont>();
  private readonly usedStyles = new Set<string>();
  private readonly usedNumbers = new Set<string>();
  private theme: ThemeFonts = {};
  private readonly parts = new Map<FontPartKind, string[]>();

  constructor(private readonly pkg: FontSource) {
    for (const name of pkg.xmlParts) {
      const kind = fontPartKind(pkg, name);
      if (kind) this.parts.set(kind, [...(this.parts.get(kind) ?? []), name]);
    }
  }

  run(): DocumentFont[] {
    const theme = this.parts.get('theme')?.[0];
    if (theme) this.theme = readTheme(this.text(theme));
    // In the order a reader meets them, so that "first used" is the first place an author looks.
    for (const kind of TEXT_PART_ORDER)
      for (const name of this.parts.get(kind) ?? []) this.scanText(name, kind);
    for (const name of this.parts.get('styles') ?? []) this.scanStyles(name);
    for (const name of this.parts.get('numbering') ?? []) this.scanNumbering(name);
    for (const name of this.parts.get('font-table') ?? []) this.scanFontTable(name);
    return [...this.fonts.values()];
  }

  private text(name: string): string {
    return readXmlPart(this.pkg.archive, name);
  }

  /** Runs' fonts, and the styles and lists paragraphs use, paragraph by paragraph. */
  private scanText(part: string, kind: FontPartKind): void {
    let paragraph = 0;
    for (const m of this.text(part).matchAll(ELEMENT('p|rFonts|pStyle|rStyle|tblStyle|numId'))) {
      const [, name, attrs] = m;
      if (name === 'p') paragraph++;
      else if (name === 'rFonts')
        this.addRunFonts(attributes(attrs!), { part, kind, paragraph }, true);
      else if (name === 'numId') this.usedNumbers.add(attributes(attrs!).val ?? '');
      else this.usedStyles.add(attributes(attrs!).val ?? '');
    }
  }

  /** The defaults, and each style's fonts: used when text uses the style or one based on it. */
  private scanStyles(part: string): void {
    const xml = this.text(part);
    const defaults = elementsWithBody(xml, 'docDefaults')[0];
    if (defaults) this.addFontsIn(defaults.body, { part, kind: 'styles' }, true);
    const styles = elementsWithBody(xml, 'style').map(({ attrs, body }) => {
      const basedOn = /<(?:[\w.-]+:)?basedOn\b([^>]*)>/.exec(body);
      return {
        id: attrs.styleId ?? '',
        isDefault: attrs.default === '1' || attrs.default === 'true',
        basedOn: basedOn ? attributes(basedOn[1]!).val : undefined,
        body,
      };
    });
    for (const s of styles) if (s.isDefault) this.usedStyles.add(s.id);
    const byId = new Map(styles.map((s) => [s.id, s]));
    // A used style's ancestors are used too; bounded by the number of styles against cycles.
    for (const id of [...this.usedStyles]) {
      let at = byId.get(id);
      for (let hops = 0; at?.basedOn && hops < styles.length; hops++) {
        this.usedStyles.add(at.basedOn);
        at = byId.get(at.basedOn);
      }
    }
    for (const s of styles) {
      const used = this.usedStyles.has(s.id);
      if (used)
        for (const n of s.body.matchAll(ELEMENT('numId')))
          this.usedNumbers.add(attributes(n[2]!).val ?? '');
      this.addFontsIn(s.body, { part, kind: 'styles', style: s.id }, used);
    }
  }

  /** List levels' fonts (bullets): used when text or a used style points at the list. */
  private scanNumbering(part: string): void {
    const xml = this.text(part);
    const usedAbstract = new Set<string>();
    for (const { attrs, body } of elementsWithBody(xml, 'num')) {
      const abstract = /<(?:[\w.-]+:)?abstractNumId\b([^>]*)>/.exec(body);
      if (this.usedNumbers.has(attrs.numId ?? '') && abstract)
        usedAbstract.add(attributes(abstract[1]!).val ?? '');
    }
    for (const { attrs, body } of elementsWithBody(xml, 'abstractNum')) {
      const used = usedAbstract.has(attrs.abstractNumId ?? '');
      this.addFontsIn(body, { part, kind: 'numbering' }, used);
    }
  }

  private scanFontTable(part: string): void {
    for (const m of this.text(part).matchAll(ELEMENT('font'))) {
      const family = attributes(m[2]!).name;
      if (family) this.add(family, [], { part, kind: 'font-table' }, false);
    }
  }

  private addFontsIn(xml: string, where: FontUse, used: boolean): void {
    for (const m of xml.matchAll(ELEMENT('rFonts')))
      this.addRunFonts(attributes(m[2]!), where, used);
  }

  /** One w:rFonts: a slot's theme attribute wins over its family, as in Word. */
  private addRunFonts(attrs: Record<string, string>, where: FontUse, used: boolean): void {
    for (const slot of SLOTS) {
      const theme = attrs[THEME_ATTRIBUTE[slot]];
      const family = theme !== undefined ? this.themeFont(theme) : attrs[slot];
      if (family) this.add(family, [slot], where, used);
    }
  }

  /** The theme's Latin fonts; the theme's East Asian and complex-script fonts are not read. */
  private themeFont(name: string): string | undefined {
    const m = /^(major|minor)(Ascii|HAnsi)$/.exec(name);
    return m ? this.theme[m[1] as 'major' | 'minor'] : undefined;
  }

  private add(name: string, slots: FontSlot[], where: FontUse, used: boolean): void {
    const family = name.trim().slice(0, MAX_FAMILY_CHARS);
    if (!family) return;
    const key = family.toLowerCase();
    const known = this.fonts.get(key);
    if (!known) {
      if (this.fonts.size >= MAX_DOCUMENT_FONTS) return;
      this.fonts.set(key, { family, slots: [...slots], used, first: where });
      return;
    }
    for (const s of slots) if (!known.slots.includes(s)) known.slots.push(s);
    if (used && !known.used) {
      known.used = true;
      known.first = where;
    }
  }
}

function readTheme(xml: string): ThemeFonts {
  const out: ThemeFonts = {};
  for (const which of ['major', 'minor'] as const) {
    const font = elementsWithBody(xml, `${which}Font`)[0];
    const latin = font && /<(?:[\w.-]+:)?latin\b([^>]*)>/.exec(font.body);
    const typeface = latin ? attributes(latin[1]!).typeface?.trim() : undefined;
    if (typeface) out[which] = typeface;
  }
  return out;
}
