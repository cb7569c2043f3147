import {
  PDFArray,
  PDFBool,
  PDFCatalog,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFPageLeaf,
  PDFPageTree,
  PDFRef,
  PDFString,
  type PDFContext,
  type PDFObject,
} from 'pdf-lib';

/**
 * A fast reader of the plain objects the text layer looks up (page tree, resources, fonts and
 * their widths, font descriptors), giving exactly the objects pdf-lib's PDFObjectParser gives,
 * or undefined for anything it leaves to that parser: streams, names with `#` escapes, numbers
 * pdf-lib warns about, nesting deeper than MAX_DEPTH, and whatever pdf-lib would refuse. pdf-lib
 * reads through a byte stream object, builds every number's text (numberToString) and decodes
 * every name with a regular expression: for a few dozen small objects that was most of the cost
 * of reading a page's text.
 */
export function readObject(
  bytes: Uint8Array,
  at: number,
  context: PDFContext,
): PDFObject | undefined {
  const reader = new Reader(bytes, at, context);
  try {
    return reader.object(0);
  } catch (err) {
    if (err === LEAVE) return undefined;
    throw err;
  }
}

/**
 * Where an indirect object's value starts after its `N G obj` header at `offset`, or -1: the
 * header must end within 48 bytes, JavaScript white space (`\s`) between its parts, as the
 * pattern `^\s*\d+\s+\d+\s+obj` over those bytes read as Latin-1 would take it.
 */
export function afterObjectHeader(bytes: Uint8Array, offset: number): number {
  const end = Math.min(bytes.length, offset + 48);
  let i = offset;
  while (i < end && isJsSpace(bytes[i]!)) i++;
  for (let part = 0; part < 2; part++) {
    const digits = i;
    while (i < end && isDigit(bytes[i]!)) i++;
    if (i === digits) return -1;
    const space = i;
    while (i < end && isJsSpace(bytes[i]!)) i++;
    if (i === space) return -1;
  }
  if (i + 3 > end || bytes[i] !== 0x6f || bytes[i + 1] !== 0x62 || bytes[i + 2] !== 0x6a) return -1;
  return i + 3;
}

/** Thrown inside the reader to hand the object to pdf-lib's parser (made once: no stack). */
class Leave extends Error {}
const LEAVE = new Leave('left to pdf-lib');
/** Deeper nesting goes to pdf-lib's parser, which decides as it always did. */
const MAX_DEPTH = 64;

/** pdf-lib's classes: 1 white space, 2 delimiter, 3 digit, 4 sign or period (numeric). */
const CLASS = new Uint8Array(256);
for (const b of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) CLASS[b] = 1;
for (const b of [0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]) CLASS[b] = 2;
for (let b = 0x30; b <= 0x39; b++) CLASS[b] = 3;
for (const b of [0x2b, 0x2d, 0x2e]) CLASS[b] = 4;

const TYPE = PDFName.of('Type');
const CATALOG = PDFName.of('Catalog');
const PAGES = PDFName.of('Pages');
const PAGE = PDFName.of('Page');

/**
 * Numbers and names met before: a PDFNumber cannot change once made, and pdf-lib keeps one
 * PDFName per name anyway. Bounded, so that a hostile file cannot grow them without end.
 */
const MAX_CACHED = 8192;
const numbers = new Map<number, PDFNumber>();
const names = new Map<string, PDFName>();

function numberOf(value: number): PDFNumber {
  let n = numbers.get(value);
  if (n === undefined || Object.is(value, -0)) {
    n = PDFNumber.of(value);
    if (numbers.size < MAX_CACHED && !Object.is(value, -0)) numbers.set(value, n);
  }
  return n;
}

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39;
}

function isJsSpace(b: number): boolean {
  return (b >= 0x09 && b <= 0x0d) || b === 0x20 || b === 0xa0;
}

function latin1(data: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i++) s += String.fromCharCode(data[i]!);
  return s;
}

class Reader {
  constructor(
    private readonly data: Uint8Array,
    private at: number,
    private readonly context: PDFContext,
  ) {}

  object(depth: number): PDFObject {
    if (depth > MAX_DEPTH) throw LEAVE;
    this.skip();
    const { data } = this;
    const b = data[this.at];
    if (b === undefined) throw LEAVE;
    if (this.keyword('true')) return PDFBool.True;
    if (this.keyword('false')) return PDFBool.False;
    if (this.keyword('null')) return PDFNull;
    if (b === 0x3c && data[this.at + 1] === 0x3c) return this.dict(depth);
    if (b === 0x3c) return this.hexString();
    if (b === 0x28) return this.string();
    if (b === 0x2f) return this.name();
    if (b === 0x5b) return this.array(depth);
    if (CLASS[b]! >= 3) return this.numberOrRef();
    throw LEAVE;
  }

  /** pdf-lib's skipWhitespaceAndComments. */
  private skip(): void {
    const { data } = this;
    const n = data.length;
    for (;;) {
      while (this.at < n && CLASS[data[this.at]!] === 1) this.at++;
      if (this.at >= n || data[this.at] !== 0x25) return;
      while (this.at < n && data[this.at] !== 0x0a && data[this.at] !== 0x0d) this.at++;
    }
  }

  /** pdf-lib's matchKeyword: the bytes of `word` here, whatever follows them. */
  private keyword(word: string): boolean {
    const { data } = this;
    for (let i = 0; i < word.length; i++)
      if (data[this.at + i] !== word.charCodeAt(i)) return false;
    this.at += word.length;
    return true;
  }

  private dict(depth: number): PDFDict {
    const { data } = this;
    this.at += 2;
    this.skip();
    const map = new Map<PDFName, PDFObject>();
    while (this.at < data.length && data[this.at] !== 0x3e && data[this.at + 1] !== 0x3e) {
      if (data[this.at] !== 0x2f) throw LEAVE;
      const key = this.name();
      map.set(key, this.object(depth + 1));
      this.skip();
    }
    this.skip();
    if (data[this.at] !== 0x3e || data[this.at + 1] !== 0x3e) throw LEAVE;
    this.at += 2;
    // A stream: pdf-lib's parser finds its end (by /Length or a search) as the PDF check does.
    const after = this.at;
    this.skip();
    if (this.keyword('stream')) throw LEAVE;
    this.at = after;
    const type = map.get(TYPE);
    if (type === CATALOG) return PDFCatalog.fromMapWithContext(map, this.context);
    if (type === PAGES) return PDFPageTree.fromMapWithContext(map, this.context);
    if (type === PAGE) return PDFPageLeaf.fromMapWithContext(map, this.context);
    return PDFDict.fromMapWithContext(map, this.context);
  }

  private array(depth: number): PDFArray {
    const { data } = this;
    this.at++;
    this.skip();
    const array = PDFArray.withContext(this.context);
    while (data[this.at] !== 0x5d) {
      array.push(this.object(depth + 1));
      this.skip();
    }
    this.at++;
    return array;
  }

  /** A name without `#` escapes (those go to pdf-lib's parser and the PDF check's decoding). */
  private name(): PDFName {
    const { data } = this;
    const from = ++this.at;
    while (this.at < data.length && CLASS[data[this.at]!] !== 1 && CLASS[data[this.at]!] !== 2) {
      if (data[this.at] === 0x23) throw LEAVE;
      this.at++;
    }
    const raw = latin1(data, from, this.at);
    let name = names.get(raw);
    if (name === undefined) {
      name = PDFName.of(raw);
      if (names.size < MAX_CACHED) names.set(raw, name);
    }
    return name;
  }

  /** As pdf-lib's parseHexString: the text between `<` and `>` as written. */
  private hexString(): PDFHexString {
    const { data } = this;
    const from = ++this.at;
    while (this.at < data.length && data[this.at] !== 0x3e) this.at++;
    if (this.at >= data.length) throw LEAVE;
    return PDFHexString.of(latin1(data, from, this.at++));
  }

  /** As pdf-lib's parseString: the text between balanced parentheses, escapes as written. */
  private string(): PDFString {
    const { data } = this;
    const from = this.at;
    let depth = 0;
    let escaped = false;
    while (this.at < data.length) {
      const b = data[this.at++]!;
      if (!escaped) {
        if (b === 0x28) depth++;
        if (b === 0x29) depth--;
      }
      escaped = b === 0x5c ? !escaped : false;
      if (depth === 0) return PDFString.of(latin1(data, from + 1, this.at - 1));
    }
    throw LEAVE;
  }

  private numberOrRef(): PDFObject {
    const first = this.rawNumber();
    this.skip();
    const lookahead = this.at;
    if (CLASS[this.data[this.at]!] === 3) {
      const second = this.rawNumber();
      this.skip();
      if (this.data[this.at] === 0x52) {
        this.at++;
        return PDFRef.of(first, second);
      }
    }
    this.at = lookahead;
    return numberOf(first);
  }

  /** As pdf-lib's parseRawNumber: sign, digits and a period up to the first period, digits. */
  private rawNumber(): number {
    const { data } = this;
    const from = this.at;
    let plain = true;
    while (this.at < data.length && CLASS[data[this.at]!]! >= 3) {
      const b = data[this.at++]!;
      if (b === 0x2e) {
        plain = false;
        break;
      }
      if (b !== 0x2d || this.at - 1 !== from) plain &&= b >= 0x30;
    }
    while (this.at < data.length && CLASS[data[this.at]!] === 3) this.at++;
    const length = this.at - from;
    const negative = data[from] === 0x2d;
    // An integer of up to 15 digits is exact when summed; anything else is Number's to read.
    if (plain && length - (negative ? 1 : 0) > 0 && length <= 15) {
      let value = 0;
      for (let i = negative ? from + 1 : from; i < this.at; i++)
        value = value * 10 + data[i]! - 0x30;
      return negative ? -value : value;
    }
    const value = Number(latin1(data, from, this.at));
    if (length === 0 || !Number.isFinite(value) || value > Number.MAX_SAFE_INTEGER) throw LEAVE;
    return value;
  }
}
