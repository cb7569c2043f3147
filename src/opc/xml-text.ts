/**
 * Turns the bytes of an XML part into a string, honouring a UTF-8 or UTF-16 byte order mark
 * (Word writes UTF-8; other producers write UTF-16 now and then).
 */
export function decodeXml(bytes: Buffer): string {
  if (bytes.length >= 2) {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
    if (bytes[0] === 0xfe && bytes[1] === 0xff)
      return swap16(bytes.subarray(2)).toString('utf16le');
    // UTF-16 without a BOM still starts with '<' and a zero byte.
    if (bytes[0] === 0x3c && bytes[1] === 0x00) return bytes.toString('utf16le');
    if (bytes[0] === 0x00 && bytes[1] === 0x3c) return swap16(bytes).toString('utf16le');
  }
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return bytes.subarray(3).toString('utf8');
  }
  return bytes.toString('utf8');
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
  // Fast path for UTF-8: look for '<!' and test the next seven bytes without decoding.
  const utf16 =
    bytes.length >= 2 &&
    ((bytes[0] === 0xff && bytes[1] === 0xfe) ||
      (bytes[0] === 0xfe && bytes[1] === 0xff) ||
      bytes[0] === 0x00 ||
      bytes[1] === 0x00);
  if (utf16) return DOCTYPE.test(decodeXml(bytes));
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

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Resolves the five predefined entities and character references of an attribute value. */
export function unescapeXml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    return PREDEFINED[ref] ?? '';
  });
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&apos;',
  );
}

const ATTRIBUTE = /([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/**
 * The attributes of every element with the given local name (any prefix). Enough for the flat,
 * entity-free parts it reads ([Content_Types].xml, relationship parts), which have been checked
 * for DOCTYPE first.
 */
export function elementsNamed(xml: string, localName: string): Record<string, string>[] {
  const pattern = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${localName}\\b([^>]*)>`, 'g');
  const found: Record<string, string>[] = [];
  for (const match of xml.matchAll(pattern)) {
    const attrs: Record<string, string> = {};
    for (const a of (match[1] ?? '').matchAll(ATTRIBUTE)) {
      attrs[a[1]!] = unescapeXml(a[2] ?? a[3] ?? '');
    }
    found.push(attrs);
  }
  return found;
}
