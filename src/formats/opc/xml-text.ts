import { DamagedPartError } from '../zip/index.js';
import { textEncodingOf } from './xml-encoding.js';

/**
 * Turns the bytes of an XML part into a string, in the encoding its byte order mark or its first
 * bytes show (Word writes UTF-8; other producers write UTF-16 now and then, with or without a
 * byte order mark). Parts in other encodings never get here: sniffing refuses them.
 */
export function decodeXml(bytes: Buffer): string {
  const { encoding, start } = textEncodingOf(bytes);
  const text = bytes.subarray(start);
  if (encoding === 'utf-8') return text.toString('utf8');
  return (encoding === 'utf-16le' ? text : swap16(text)).toString('utf16le');
}

function swap16(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2)));
  return copy.swap16();
}

const DOCTYPE = /<!doctype/i;

/**
 * Whether an XML part declares a DOCTYPE. Entities (and so XXE and billion-laughs) need one, so
 * refusing every DOCTYPE refuses them all. Matched case-insensitively, because lenient parsers
 * accept what strict ones would not.
 */
export function hasDoctype(bytes: Buffer): boolean {
  if (textEncodingOf(bytes).encoding !== 'utf-8') return DOCTYPE.test(decodeXml(bytes));
  // UTF-8: look for '<!' and test the next seven bytes without decoding.
  let at = bytes.indexOf('<!');
  while (at !== -1) {
    if (
      bytes
        .subarray(at, at + 9)
        .toString('latin1')
        .toLowerCase() === '<!doctype'
    )
      return true;
    at = bytes.indexOf('<!', at + 2);
  }
  return false;
}

/** A DOCTYPE that only names the root: no internal subset, no external identifier. */
const BARE_DOCTYPE = /^<!doctype\s+[^\s[\]<>'"]+\s*>/i;

/**
 * Whether a part declares a DOCTYPE that can define or fetch anything: one with an internal
 * subset (`[...]`, where entities are declared) or an external identifier (`SYSTEM`,
 * `PUBLIC`). A bare `<!DOCTYPE html>`, as HTML parts carry, defines nothing for any parser.
 */
export function hasDefiningDoctype(bytes: Buffer): boolean {
  if (!hasDoctype(bytes)) return false;
  const text = decodeXml(bytes);
  for (const found of text.matchAll(/<!doctype/gi)) {
    if (!BARE_DOCTYPE.test(text.slice(found.index, found.index + 1024))) return true;
  }
  return false;
}

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The highest code point Unicode has: a character reference past it names no character. */
const MAX_CODE_POINT = 0x10ffff;
const CHARACTER_REFERENCE = /&#(x[0-9a-fA-F]+|[0-9]+);/g;

/** The code point of a reference's digits (`x41`, `65`); Infinity when far past Unicode. */
function codePointOf(ref: string): number {
  const hex = ref.startsWith('x');
  // Leading zeros are allowed (`&#0065;`); past 8 significant digits every value is out of
  // range, and parseInt would only lose precision.
  const digits = (hex ? ref.slice(1) : ref).replace(/^0+(?=.)/, '');
  return digits.length > 8 ? Infinity : parseInt(digits, hex ? 16 : 10);
}

/**
 * The first character reference of a text that names no character (`&#xFFFFFF;`, past Unicode's
 * last code point), as written; undefined when every one names a character. XML parsers stop at
 * such a reference: the part is not well-formed.
 */
export function badCharacterReference(text: string): string | undefined {
  if (!text.includes('&#')) return undefined;
  for (const m of text.matchAll(CHARACTER_REFERENCE))
    if (codePointOf(m[1]!) > MAX_CODE_POINT) return m[0];
  return undefined;
}

/**
 * Resolves the five predefined entities and character references of an attribute value or a
 * text. A character reference that names no character is a damaged part: parts read through
 * `readXmlPart` never hold one, and anything else that meets one fails typed, not with a
 * RangeError.
 */
export function unescapeXml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (found, ref: string) => {
    if (!ref.startsWith('#')) return PREDEFINED[ref] ?? '';
    const codePoint = codePointOf(ref.slice(1));
    if (codePoint > MAX_CODE_POINT) throw new DamagedPartError(undefined, unnamedCharacter(found));
    return String.fromCodePoint(codePoint);
  });
}

/** What is wrong with a part that holds a character reference naming no character. */
export function unnamedCharacter(reference: string): string {
  return `holds the character reference ${reference}, which names no character (past U+10FFFF): the XML is not well-formed`;
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&apos;',
  );
}

const ATTRIBUTE = /([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** A start tag's attributes by qualified name (`w:val`, `r:id`), values unescaped. */
export function tagAttributes(attrs: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const a of attrs.matchAll(ATTRIBUTE)) found.set(a[1]!, unescapeXml(a[2] ?? a[3] ?? ''));
  return found;
}

/** The local part of a qualified name: `val` of `w:val`. */
export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/** An attribute by local name, whatever its prefix (`w:val` or a strict part's own prefix). */
export function attributeByLocalName(attrs: string, local: string): string | undefined {
  for (const [name, value] of tagAttributes(attrs)) if (localName(name) === local) return value;
  return undefined;
}

/** A start tag's attributes by local name (the last wins when two prefixes share one). */
export function attributesByLocalName(attrs: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of tagAttributes(attrs)) out[localName(name)] = value;
  return out;
}

/**
 * The attributes of every element with the given local name (any prefix). Enough for the flat,
 * entity-free parts it reads ([Content_Types].xml, relationship parts), which have been checked
 * for DOCTYPE first.
 */
export function elementsNamed(xml: string, localName: string): Record<string, string>[] {
  const pattern = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${localName}\\b([^>]*)>`, 'g');
  const found: Record<string, string>[] = [];
  for (const match of xml.matchAll(pattern))
    found.push(Object.fromEntries(tagAttributes(match[1] ?? '')));
  return found;
}
