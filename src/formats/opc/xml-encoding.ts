/** The encodings docpipe reads XML parts in: the ones OOXML allows. */
export type XmlEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/**
 * What the first bytes of a part say about it, read as an XML parser detects encodings (XML 1.0
 * appendix F, as libxml2 does it): a byte order mark, or the pattern `<` or white space makes in
 * each encoding, and then the encoding the XML declaration names.
 * - `xml`: XML docpipe reads; `start` is where the text begins, past a byte order mark.
 * - `unreadable`: XML in an encoding docpipe does not read (UTF-32, EBCDIC, or a declared
 *   ISO-8859-1); another parser would read it, so it cannot be skipped as if it were not XML.
 * - `not-xml`: cannot begin an XML document in any encoding (an image, a font).
 * - `undecided`: only white space so far; more bytes are needed.
 */
export type XmlSniff =
  | { kind: 'xml'; encoding: XmlEncoding; start: number }
  | { kind: 'unreadable'; why: string }
  | { kind: 'not-xml' }
  | { kind: 'undecided' };

/** `<` and the four XML white space characters: what an XML document may begin with. */
const OPENERS = new Set([0x3c, 0x20, 0x09, 0x0a, 0x0d]);
/** `<?xm` in EBCDIC, the one EBCDIC pattern parsers detect. */
const EBCDIC = Buffer.from([0x4c, 0x6f, 0xa7, 0x94]);

const ACCEPTED_DECLARATIONS: Record<XmlEncoding, readonly string[]> = {
  'utf-8': ['utf-8', 'utf8'],
  'utf-16le': ['utf-16', 'utf-16le', 'utf16', 'utf16le'],
  'utf-16be': ['utf-16', 'utf-16be', 'utf16', 'utf16be'],
};

/**
 * Sniffs a part from its first bytes; `complete` says whether `head` is the whole part (then a
 * part of only white space is not XML rather than undecided).
 */
export function sniffXml(head: Buffer, complete: boolean): XmlSniff {
  const unit = encodingByPattern(head);
  if (unit.kind === 'undecided' && complete) return { kind: 'not-xml' };
  if (unit.kind !== 'xml') return unit;
  const first = firstNonSpace(head, unit.encoding, unit.start);
  if (first === undefined) return complete ? { kind: 'not-xml' } : { kind: 'undecided' };
  if (first.char !== 0x3c) return { kind: 'not-xml' };
  const declared = declaredEncoding(head, unit.encoding, first.at);
  if (
    declared !== undefined &&
    !ACCEPTED_DECLARATIONS[unit.encoding].includes(declared.toLowerCase())
  ) {
    const named = JSON.stringify(declared);
    return {
      kind: 'unreadable',
      why:
        unit.encoding === 'utf-8'
          ? `declares the encoding ${named}`
          : `is written in ${unit.encoding.toUpperCase()} but declares the encoding ${named}`,
    };
  }
  return unit;
}

/**
 * The encoding a part's text is decoded in, and where it begins: by byte order mark or byte
 * pattern, UTF-8 when neither says otherwise.
 */
export function textEncodingOf(bytes: Buffer): { encoding: XmlEncoding; start: number } {
  const found = encodingByPattern(bytes);
  return found.kind === 'xml' ? found : { encoding: 'utf-8', start: 0 };
}

function encodingByPattern(b: Buffer): XmlSniff {
  const [b0 = -1, b1 = -1, b2 = -1, b3 = -1] = b;
  if (b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) return utf32('UTF-32LE');
  if (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff) return utf32('UTF-32BE');
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf)
    return { kind: 'xml', encoding: 'utf-8', start: 3 };
  if (b0 === 0xff && b1 === 0xfe) return { kind: 'xml', encoding: 'utf-16le', start: 2 };
  if (b0 === 0xfe && b1 === 0xff) return { kind: 'xml', encoding: 'utf-16be', start: 2 };
  if (b.subarray(0, 4).equals(EBCDIC)) return { kind: 'unreadable', why: 'is written in EBCDIC' };
  if (b0 === 0 && b1 === 0 && (b2 === 0 || b3 === 0) && (OPENERS.has(b3) || OPENERS.has(b2)))
    return utf32(b2 === 0 ? 'UTF-32BE' : 'UCS-4 (2143 order)');
  if (OPENERS.has(b0) && b1 === 0 && b2 === 0 && b3 === 0) return utf32('UTF-32LE');
  if (b0 === 0 && OPENERS.has(b1) && b2 === 0 && b3 === 0) return utf32('UCS-4 (3412 order)');
  if (b0 === 0 && OPENERS.has(b1)) return { kind: 'xml', encoding: 'utf-16be', start: 0 };
  if (OPENERS.has(b0) && b1 === 0) return { kind: 'xml', encoding: 'utf-16le', start: 0 };
  if (OPENERS.has(b0)) return { kind: 'xml', encoding: 'utf-8', start: 0 };
  return b.length === 0 ? { kind: 'undecided' } : { kind: 'not-xml' };
}

function utf32(name: string): XmlSniff {
  return { kind: 'unreadable', why: `is written in ${name}` };
}

/** The first character that is not XML white space, with its byte offset. */
function firstNonSpace(
  b: Buffer,
  encoding: XmlEncoding,
  start: number,
): { char: number; at: number } | undefined {
  const width = encoding === 'utf-8' ? 1 : 2;
  for (let at = start; at + width <= b.length; at += width) {
    const char =
      encoding === 'utf-8'
        ? b[at]!
        : encoding === 'utf-16le'
          ? b.readUInt16LE(at)
          : b.readUInt16BE(at);
    if (char !== 0x20 && char !== 0x09 && char !== 0x0a && char !== 0x0d) return { char, at };
  }
  return undefined;
}

/** How much of a part the XML declaration may take, in characters. */
const DECLARATION_CHARS = 256;

/** The encoding named by an XML declaration at `at`, if there is one. */
function declaredEncoding(b: Buffer, encoding: XmlEncoding, at: number): string | undefined {
  const width = encoding === 'utf-8' ? 1 : 2;
  let bytes = b.subarray(at, at + DECLARATION_CHARS * width);
  if (encoding === 'utf-16be') bytes = Buffer.from(bytes.subarray(0, bytes.length & ~1)).swap16();
  const text = bytes.toString(encoding === 'utf-8' ? 'latin1' : 'utf16le');
  const declaration = /^<\?xml\s[^?]*\?>/.exec(text)?.[0];
  return declaration ? /\sencoding\s*=\s*["']([^"']*)["']/.exec(declaration)?.[1] : undefined;
}
