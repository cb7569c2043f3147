/**
 * PDF names as readers see them. Since PDF 1.2 a name may spell any byte as `#xx` in either hex
 * case (`/Encr#79pt`, `/E#6ecrypt` and `/Encrypt` are one name), and poppler and pdf.js decode
 * both cases. Every key docpipe decides on is compared after this decoding.
 */

const HASH = 0x23;

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/**
 * The name a raw name token (without its `/`) stands for: `#xx` decoded in either hex case. A
 * `#` not followed by two hex digits stays as it is, as poppler and pdf.js keep it.
 */
export function decodePdfName(raw: string): string {
  if (!raw.includes('#')) return raw;
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === HASH && i + 2 < raw.length) {
      const high = hexValue(raw.charCodeAt(i + 1));
      const low = hexValue(raw.charCodeAt(i + 2));
      if (high >= 0 && low >= 0) {
        out += String.fromCharCode(high * 16 + low);
        i += 2;
        continue;
      }
    }
    out += raw[i];
  }
  return out;
}

/** PDF white-space: NUL, TAB, LF, FF, CR and SPACE. */
export function isPdfWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
}

/** PDF delimiters: `( ) < > [ ] { } / %`. */
export function isPdfDelimiter(c: number): boolean {
  return (
    c === 0x28 ||
    c === 0x29 ||
    c === 0x3c ||
    c === 0x3e ||
    c === 0x5b ||
    c === 0x5d ||
    c === 0x7b ||
    c === 0x7d ||
    c === 0x2f ||
    c === 0x25
  );
}

/** A byte that continues a name token: neither white-space nor a delimiter. */
export function isNameChar(c: number): boolean {
  return !isPdfWhitespace(c) && !isPdfDelimiter(c);
}

/** Every name in a stretch of PDF text (a dictionary's source), decoded. */
export function namesIn(text: string): string[] {
  const names: string[] = [];
  for (let at = text.indexOf('/'); at !== -1; at = text.indexOf('/', at + 1)) {
    let end = at + 1;
    while (end < text.length && isNameChar(text.charCodeAt(end))) end++;
    names.push(decodePdfName(text.slice(at + 1, end)));
    at = end - 1;
  }
  return names;
}
