import {
  attributeByLocalName as attribute,
  CONTENT_TYPES_PART,
  extensionOf,
  localName,
  parseRelationships,
  resolvePartName,
  tagAttributes,
  textEncodingOf,
} from '../../formats/opc/index.js';
import {
  relationshipPartOf,
  sourceOfRelationshipPart,
  xmlText,
  type HardenSource,
  type PartReader,
} from './package-parts.js';

export type EmbeddedFontStyle = 'regular' | 'bold' | 'italic' | 'bold-italic';

/** A font a document carried inside it (`w:embedRegular` and its kin), removed before conversion. */
export interface EmbeddedFont {
  /** The family its font table entry names (`w:font w:name`); '' when it names none. */
  family: string;
  style: EmbeddedFontStyle;
  /** The part that embedded it (the font table). */
  part: string;
  /** The font's own part, removed with it; absent when its relationship led nowhere inside. */
  fontPart?: string;
}

/** What removing a package's embedded fonts changes: parts rewritten, parts dropped. */
export interface FontRemovalPlan {
  changed: Map<string, Buffer>;
  removed: Set<string>;
  fonts: EmbeddedFont[];
}

const STYLES: Record<string, EmbeddedFontStyle> = {
  Regular: 'regular',
  Bold: 'bold',
  Italic: 'italic',
  BoldItalic: 'bold-italic',
};

const EMBED_BYTES = Buffer.from('embed', 'latin1');
const EMBED_KINDS = ['Regular', 'Bold', 'Italic'].map((k) => Buffer.from(k, 'latin1'));

/**
 * Whether the bytes of an XML part name an embedded-font element: a byte search (the word
 * `embed` is in every picture's `r:embed`; only `embedRegular`, `embedBold...` and
 * `embedItalic` count), cheap enough to run over every part of every template.
 */
export function namesEmbeddedFont(bytes: Buffer): boolean {
  if (textEncodingOf(bytes).encoding !== 'utf-8')
    return /embed(?:Regular|Bold|Italic)/.test(xmlText(bytes).text);
  for (let at = bytes.indexOf(EMBED_BYTES); at >= 0; at = bytes.indexOf(EMBED_BYTES, at + 5)) {
    const after = at + EMBED_BYTES.length;
    if (EMBED_KINDS.some((k) => bytes.subarray(after, after + k.length).equals(k))) return true;
  }
  return false;
}

/**
 * The XML parts that may embed fonts. Any part, not only the one named fontTable: LibreOffice
 * reads as the font table whatever part the main part's fontTable relationship points at.
 */
export function partsNamingEmbeddedFonts(pkg: HardenSource): string[] {
  return pkg.xmlParts.filter(
    (part) =>
      extensionOf(part) !== 'rels' &&
      part !== CONTENT_TYPES_PART &&
      namesEmbeddedFont(pkg.archive.read(part)),
  );
}

/**
 * Removes every embedded font of the given parts: the `w:embed*` elements, the relationships
 * they named (LibreOffice follows the `r:id` whatever the relationship's type, so the type is
 * not trusted), the font parts nothing else points at, and their content-type overrides. The
 * text is then drawn with installed fonts, as for any font the machine lacks.
 */
export function planEmbeddedFontRemoval(
  pkg: HardenSource,
  read: PartReader,
  parts: readonly string[],
): FontRemovalPlan {
  const changed = new Map<string, Buffer>();
  const current: PartReader = (name) => changed.get(name) ?? read(name);
  const fonts: EmbeddedFont[] = [];
  const cutTargets = new Set<string>();
  for (const part of parts) {
    const { text, encode } = xmlText(current(part), part);
    const { stripped, embeds } = stripEmbedElements(text);
    if (embeds.length === 0) continue;
    changed.set(part, encode(stripped));
    const rels = pkg.archive.entry(relationshipPartOf(part))?.name;
    const ids = new Set(embeds.flatMap((e) => e.ids).filter((id) => !stillNamed(stripped, id)));
    const targets = new Map<string, string>();
    if (rels && ids.size > 0) {
      const cut = cutRelationships(xmlText(current(rels), rels), ids, part);
      if (cut.count > 0) changed.set(rels, cut.bytes);
      for (const [id, target] of cut.internalTargets) {
        targets.set(id, target);
        cutTargets.add(target);
      }
    }
    for (const e of embeds) {
      const fontPart = e.ids.map((id) => targets.get(id)).find((t) => t !== undefined);
      fonts.push({
        family: e.family,
        style: e.style,
        part,
        ...(fontPart ? { fontPart: pkg.archive.entry(fontPart)?.name ?? fontPart } : {}),
      });
    }
  }
  const removed = unreferencedParts(pkg, current, cutTargets);
  if (removed.size > 0) {
    const ct = pkg.archive.entry(CONTENT_TYPES_PART)?.name;
    if (ct) changed.set(ct, withoutOverrides(xmlText(current(ct), ct), removed));
  }
  return { changed, removed, fonts };
}

/** Each family once, in the order the document embeds them: what a render's notice names. */
export function embeddedFamilies(fonts: readonly EmbeddedFont[]): string[] {
  return [...new Set(fonts.map((f) => f.family))];
}

interface EmbedElement {
  family: string;
  style: EmbeddedFontStyle;
  /** Every `id` attribute it has (any prefix): the relationship LibreOffice would follow. */
  ids: string[];
}

const EMBED_ELEMENT =
  /<([A-Za-z_][\w.-]*:)?embed(Regular|Bold|Italic|BoldItalic)(?=[\s/>])([^>]*)>/g;
const FONT_ELEMENT = /<(?:[A-Za-z_][\w.-]*:)?font(?=[\s/>])([^>]*)>/g;

/** A part's text without its embedded-font elements, and what they were. */
export function stripEmbedElements(text: string): { stripped: string; embeds: EmbedElement[] } {
  const families = [...text.matchAll(FONT_ELEMENT)].map((m) => ({
    at: m.index,
    name: attribute(m[1]!, 'name') ?? '',
  }));
  const embeds: EmbedElement[] = [];
  let out = '';
  let from = 0;
  let font = -1;
  for (const m of text.matchAll(EMBED_ELEMENT)) {
    // Both in document order: the font entry an element sits in is the last one begun before it.
    while (font + 1 < families.length && families[font + 1]!.at < m.index) font++;
    if (m.index < from) continue;
    const [whole, prefix = '', kind, attrs] = m;
    let end = m.index + whole.length;
    // An element with content: cut through its end tag (Word writes them empty).
    if (!attrs!.endsWith('/')) {
      const close = `</${prefix}embed${kind}>`;
      const at = text.indexOf(close, end);
      if (at >= 0) end = at + close.length;
    }
    const family = families[font]?.name ?? '';
    const ids = [...tagAttributes(attrs!)].filter(([n]) => localName(n) === 'id').map(([, v]) => v);
    embeds.push({ family, style: STYLES[kind!]!, ids });
    out += text.slice(from, m.index);
    from = end;
  }
  return { stripped: embeds.length > 0 ? out + text.slice(from) : text, embeds };
}

/** Whether something left in the part still names the relationship: then it stays. */
function stillNamed(text: string, id: string): boolean {
  const quoted = (q: string) => `${q}${id}${q}`;
  return text.includes(quoted('"')) || text.includes(quoted("'"));
}

const RELATIONSHIP_ELEMENT =
  /<([A-Za-z_][\w.-]*:)?Relationship\b([^>]*?)(?:\/>|>(?:\s*<\/\1Relationship\s*>)?)/g;

/** A relationship part without the given relationships, and where the internal ones pointed. */
function cutRelationships(
  rels: ReturnType<typeof xmlText>,
  ids: ReadonlySet<string>,
  source: string,
): { bytes: Buffer; count: number; internalTargets: Map<string, string> } {
  const internalTargets = new Map<string, string>();
  let count = 0;
  const rewritten = rels.text.replace(RELATIONSHIP_ELEMENT, (element, _p, attrs: string) => {
    const id = attribute(attrs, 'Id');
    if (id === undefined || !ids.has(id)) return element;
    count++;
    const target = attribute(attrs, 'Target');
    const external = attribute(attrs, 'TargetMode')?.toLowerCase() === 'external';
    if (target && !external) internalTargets.set(id, resolvePartName(source, target));
    return '';
  });
  return { bytes: rels.encode(rewritten), count, internalTargets };
}

/**
 * Of the given parts, those no relationship left in the package points at (a font part is
 * dropped; a part some picture also uses is kept), with their own relationship parts.
 */
function unreferencedParts(
  pkg: HardenSource,
  read: PartReader,
  candidates: ReadonlySet<string>,
): Set<string> {
  const removed = new Set<string>();
  if (candidates.size === 0) return removed;
  const referenced = new Set<string>();
  for (const rels of pkg.xmlParts) {
    if (extensionOf(rels) !== 'rels') continue;
    const source = sourceOfRelationshipPart(rels);
    for (const r of parseRelationships(xmlText(read(rels), rels).text))
      if (!r.external) referenced.add(resolvePartName(source, r.target).toLowerCase());
  }
  for (const target of candidates) {
    const entry = pkg.archive.entry(target);
    if (!entry || referenced.has(entry.name.toLowerCase())) continue;
    removed.add(entry.name);
    const ownRels = pkg.archive.entry(relationshipPartOf(entry.name));
    if (ownRels) removed.add(ownRels.name);
  }
  return removed;
}

const OVERRIDE_ELEMENT =
  /<([A-Za-z_][\w.-]*:)?Override\b([^>]*?)(?:\/>|>(?:\s*<\/\1Override\s*>)?)/g;

/** `[Content_Types].xml` without the overrides of removed parts. */
function withoutOverrides(types: ReturnType<typeof xmlText>, removed: ReadonlySet<string>): Buffer {
  const gone = new Set([...removed].map((p) => p.toLowerCase()));
  const rewritten = types.text.replace(OVERRIDE_ELEMENT, (element, _p, attrs: string) => {
    const name = (attribute(attrs, 'PartName') ?? '').replace(/^\//, '').toLowerCase();
    return gone.has(name) ? '' : element;
  });
  return types.encode(rewritten);
}
