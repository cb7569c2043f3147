import { PdfTextError } from './pdf-text-error.js';

/** A name operand (`/F1`), apart from the strings and keywords it could be confused with. */
export class NameToken {
  constructor(readonly value: string) {}
}

/** A dictionary operand (`<< ... >>`): its keys and values in order, as pairs. */
export class DictToken {
  constructor(readonly entries: Operand[]) {}

  get(key: string): Operand | undefined {
    for (let i = 0; i + 1 < this.entries.length; i += 2) {
      const k = this.entries[i];
      if (k instanceof NameToken && k.value === key) return this.entries[i + 1];
    }
    return undefined;
  }
}

/** An operand of a content stream or CMap: strings are their bytes. */
export type Operand = number | boolean | null | Uint8Array | NameToken | DictToken | Operand[];

/** Arrays and dictionaries nested deeper than this are no page's, only a stack-blowing attempt. */
const MAX_NESTING = 64;

const Char = {
  Percent: 0x25,
  LParen: 0x28,
  RParen: 0x29,
  Slash: 0x2f,
  Less: 0x3c,
  Greater: 0x3e,
  LBracket: 0x5b,
  RBracket: 0x5d,
  LBrace: 0x7b,
  RBrace: 0x7d,
  Backslash: 0x5c,
} as const;

/** 1 whitespace, 2 delimiter, 0 regular (PDF 32000-1, 7.2.2). */
const CLASS = new Uint8Array(256);
for (const b of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) CLASS[b] = 1;
for (const b of [0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]) CLASS[b] = 2;

/**
 * Operators and literals by their bytes (packed big-endian, regular bytes are never 0): a
 * keyword is one of these constants, not a string built byte by byte, and comparing it with the
 * interpreter's cases is comparing references.
 */
const KEY_BYTES = 5;
const KEYWORDS = new Map<number, string>();
for (const k of (
  'b B b* B* BDC BI BMC BT BX c cm CS cs d d0 d1 Do DP EI EMC ET EX f F f* G g gs h i ID j J K ' +
  'k l m M MP n q Q re RG rg ri s S SC sc SCN scn sh T* Tc Td TD Tf Tj TJ TL Tm Tr Ts Tw Tz v w ' +
  `W W* y ' " true false null`
).split(' ')) {
  let key = 0;
  for (let i = 0; i < k.length; i++) key = key * 256 + k.charCodeAt(i);
  KEYWORDS.set(key, k);
}

/**
 * One-byte strings, shared: most strings of a PDF of a subset font show one or two glyphs
 * (`[<01>2<02>-2<03>]TJ`), and a typed array each was most of what the lexer allocated.
 */
const ONE_BYTE = Array.from({ length: 256 }, (_, b) => Uint8Array.of(b));

const HEX = new Int8Array(256).fill(-1);
for (let i = 0; i < 10; i++) HEX[0x30 + i] = i;
for (let i = 0; i < 6; i++) {
  HEX[0x41 + i] = 10 + i;
  HEX[0x61 + i] = 10 + i;
}

/**
 * Reads a content stream (or a CMap, which has the same tokens) one operator at a time, with the
 * operands before it and the byte span from its first operand to its end: the span is what
 * removing the operator takes out. Inline images (`BI ... ID data EI`) come as one operator `BI`
 * whose span covers the data, so that image bytes are never read as operators.
 *
 * The operand array is reused: read it before calling {@link next} again. Operands are read-only:
 * one-byte strings are shared.
 */
export class ContentLexer {
  private at = 0;
  /** The operator just read, its operands and its span [start, end). */
  op = '';
  readonly operands: Operand[] = [];
  start = 0;
  end = 0;

  constructor(private readonly data: Uint8Array) {}

  /** Reads the next operator; false at the end of the data. */
  next(): boolean {
    const { data } = this;
    const n = data.length;
    const operands = this.operands;
    operands.length = 0;
    this.start = -1;
    for (;;) {
      this.skipSpace();
      if (this.at >= n) {
        // Operands without an operator at the end are dropped, as readers drop them.
        return false;
      }
      const b = data[this.at]!;
      if (this.start < 0) this.start = this.at;
      if (
        CLASS[b] === 0 ||
        b === Char.Slash ||
        b === Char.LParen ||
        b === Char.Less ||
        b === Char.LBracket
      ) {
        const keyword = CLASS[b] === 0 ? this.keyword() : undefined;
        if (keyword === undefined) {
          operands.push(this.operand(0));
          continue;
        }
        const value = literal(keyword);
        if (value !== undefined) {
          operands.push(value);
          continue;
        }
        this.op = keyword;
        if (keyword === 'BI') this.skipInlineImage();
        this.end = this.at;
        return true;
      }
      // A stray delimiter (`)`, `>`, `]`, `{`, `}`): readers skip it.
      this.at++;
      if (operands.length === 0) this.start = -1;
    }
  }

  private skipSpace(): void {
    const { data } = this;
    const n = data.length;
    while (this.at < n) {
      const b = data[this.at]!;
      if (CLASS[b] === 1) this.at++;
      else if (b === Char.Percent) {
        while (this.at < n && data[this.at] !== 0x0a && data[this.at] !== 0x0d) this.at++;
      } else break;
    }
  }

  /** A run of regular characters that is not a number, or undefined (the position unchanged). */
  private keyword(): string | undefined {
    const { data } = this;
    const b = data[this.at]!;
    if ((b >= 0x30 && b <= 0x39) || b === 0x2b || b === 0x2d || b === 0x2e) return undefined;
    const from = this.at;
    let key = 0;
    while (this.at < data.length && CLASS[data[this.at]!] === 0) {
      if (this.at - from < KEY_BYTES) key = key * 256 + data[this.at]!;
      this.at++;
    }
    if (this.at - from <= KEY_BYTES) {
      const known = KEYWORDS.get(key);
      if (known !== undefined) return known;
    }
    return latin1(data, from, this.at);
  }

  private operand(depth: number): Operand {
    if (depth > MAX_NESTING)
      throw new PdfTextError('damaged', `nests arrays or dictionaries deeper than ${MAX_NESTING}`);
    const { data } = this;
    const b = data[this.at]!;
    if (b === Char.Slash) return this.name();
    if (b === Char.LParen) return this.literalString();
    if (b === Char.Less) {
      if (data[this.at + 1] === Char.Less) return this.dict(depth);
      return this.hexString();
    }
    if (b === Char.LBracket) return this.array(depth);
    if (CLASS[b] === 0) {
      const from = this.at;
      const fast = this.number();
      if (fast !== undefined) return fast;
      this.at = from;
      while (this.at < data.length && CLASS[data[this.at]!] === 0) this.at++;
      const text = latin1(data, from, this.at);
      return literal(text) ?? toNumber(text);
    }
    this.at++;
    return null;
  }

  /** A well-formed number (`-12.5`, `.5`, `3.`) read in place, or undefined for anything else. */
  private number(): number | undefined {
    const { data } = this;
    let i = this.at;
    let negative = false;
    if (data[i] === 0x2d || data[i] === 0x2b) negative = data[i++] === 0x2d;
    let value = 0;
    let digits = 0;
    let b = data[i];
    while (b !== undefined && b >= 0x30 && b <= 0x39) {
      value = value * 10 + b - 0x30;
      digits++;
      b = data[++i];
    }
    if (b === 0x2e) {
      let scale = 1;
      b = data[++i];
      while (b !== undefined && b >= 0x30 && b <= 0x39) {
        scale /= 10;
        value += (b - 0x30) * scale;
        digits++;
        b = data[++i];
      }
    }
    if (digits === 0 || digits > 15 || (b !== undefined && CLASS[b] === 0)) return undefined;
    this.at = i;
    return negative ? -value : value;
  }

  /** The items of an array up to `]`; a keyword inside one ends it (a missing `]`). */
  private array(depth: number): Operand[] {
    this.at++;
    const items: Operand[] = [];
    const { data } = this;
    for (;;) {
      this.skipSpace();
      if (this.at >= data.length) return items;
      const b = data[this.at]!;
      if (b === Char.RBracket) {
        this.at++;
        return items;
      }
      if (CLASS[b] === 0) {
        const from = this.at;
        const keyword = this.keyword();
        if (keyword !== undefined && literal(keyword) === undefined) {
          this.at = from;
          return items;
        }
        this.at = from;
      }
      if (
        CLASS[b] === 2 &&
        b !== Char.Slash &&
        b !== Char.LParen &&
        b !== Char.Less &&
        b !== Char.LBracket
      ) {
        this.at++;
        continue;
      }
      items.push(this.operand(depth + 1));
    }
  }

  private dict(depth: number): DictToken {
    this.at += 2;
    const entries: Operand[] = [];
    const { data } = this;
    for (;;) {
      this.skipSpace();
      if (this.at >= data.length) break;
      const b = data[this.at]!;
      if (b === Char.Greater) {
        this.at += data[this.at + 1] === Char.Greater ? 2 : 1;
        break;
      }
      if (CLASS[b] === 0) {
        const from = this.at;
        const keyword = this.keyword();
        if (keyword !== undefined && literal(keyword) === undefined) {
          this.at = from;
          break;
        }
        this.at = from;
      }
      if (
        CLASS[b] === 2 &&
        b !== Char.Slash &&
        b !== Char.LParen &&
        b !== Char.Less &&
        b !== Char.LBracket
      ) {
        this.at++;
        continue;
      }
      entries.push(this.operand(depth + 1));
    }
    return new DictToken(entries);
  }

  private name(): NameToken {
    const { data } = this;
    const from = ++this.at;
    while (this.at < data.length && CLASS[data[this.at]!] === 0) this.at++;
    let text = latin1(data, from, this.at);
    if (text.includes('#'))
      text = text.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) =>
        String.fromCharCode(parseInt(hex, 16)),
      );
    return new NameToken(text);
  }

  private hexString(): Uint8Array {
    const { data } = this;
    const from = ++this.at;
    // A loop, not indexOf: a Buffer's indexOf costs more than the few bytes a string has.
    let close = from;
    while (close < data.length && data[close] !== Char.Greater) close++;
    this.at = Math.min(data.length, close + 1);
    // `<41>`, the common case, without an array of its own.
    if (close - from === 2) {
      const h = HEX[data[from]!]!;
      const l = HEX[data[from + 1]!]!;
      if (h >= 0 && l >= 0) return ONE_BYTE[(h << 4) | l]!;
    }
    const out = new Uint8Array((close - from + 1) >> 1);
    let n = 0;
    let high = -1;
    for (let i = from; i < close; i++) {
      const v = HEX[data[i]!]!;
      if (v < 0) continue;
      if (high < 0) high = v;
      else {
        out[n++] = (high << 4) | v;
        high = -1;
      }
    }
    if (high >= 0) out[n++] = high << 4;
    return n === out.length ? out : out.subarray(0, n);
  }

  private literalString(): Uint8Array {
    const { data } = this;
    const n = data.length;
    this.at++;
    const out: number[] = [];
    let depth = 1;
    while (this.at < n) {
      let b = data[this.at++]!;
      if (b === Char.LParen) depth++;
      else if (b === Char.RParen && --depth === 0) break;
      else if (b === Char.Backslash) {
        if (this.at >= n) break;
        b = data[this.at++]!;
        const escaped = ESCAPES[b];
        if (escaped !== undefined) b = escaped;
        else if (b >= 0x30 && b <= 0x37) {
          let value = b - 0x30;
          for (let k = 0; k < 2 && this.at < n; k++) {
            const d = data[this.at]!;
            if (d < 0x30 || d > 0x37) break;
            value = value * 8 + d - 0x30;
            this.at++;
          }
          b = value & 0xff;
        } else if (b === 0x0d || b === 0x0a) {
          // A backslash before an end of line continues the string on the next line.
          if (b === 0x0d && data[this.at] === 0x0a) this.at++;
          continue;
        }
      }
      out.push(b);
    }
    return Uint8Array.from(out);
  }

  /**
   * Past an inline image: its dictionary up to `ID`, one white-space byte, then the data up to an
   * `EI` between white space (or the end). The dictionary's /L or /Length, when given, is trusted
   * first, as pdf.js does; otherwise an `EI` counts only when what follows it reads as content.
   */
  private skipInlineImage(): void {
    const { data } = this;
    const n = data.length;
    const entries: Operand[] = [];
    for (;;) {
      this.skipSpace();
      if (this.at >= n) return;
      const b = data[this.at]!;
      if (CLASS[b] === 0) {
        const from = this.at;
        const keyword = this.keyword();
        if (keyword === 'ID') break;
        // Another keyword in an image dictionary is skipped, as readers skip it.
        if (keyword !== undefined && literal(keyword) === undefined) continue;
        this.at = from;
      }
      if (
        CLASS[b] === 2 &&
        b !== Char.Slash &&
        b !== Char.LParen &&
        b !== Char.Less &&
        b !== Char.LBracket
      ) {
        this.at++;
        continue;
      }
      entries.push(this.operand(1));
    }
    this.at++; // the single white-space byte after ID
    const dict = new DictToken(entries);
    const length = dict.get('L') ?? dict.get('Length');
    if (typeof length === 'number' && length >= 0 && Number.isInteger(length)) {
      const after = this.at + length;
      const ei = findEi(data, after, Math.min(n, after + 8));
      if (ei >= 0) {
        this.at = ei + 2;
        return;
      }
    }
    let from = this.at;
    for (;;) {
      const ei = findEi(data, from, n);
      if (ei < 0) {
        this.at = n;
        return;
      }
      if (looksLikeContent(data, ei + 2)) {
        this.at = ei + 2;
        return;
      }
      from = ei + 2;
    }
  }
}

const ESCAPES: Record<number, number> = {
  0x6e: 0x0a,
  0x72: 0x0d,
  0x74: 0x09,
  0x62: 0x08,
  0x66: 0x0c,
  0x28: 0x28,
  0x29: 0x29,
  0x5c: 0x5c,
};

/** An `EI` at [from, to) with white space (or `from`) before it and white space or the end after. */
function findEi(data: Uint8Array, from: number, to: number): number {
  const last = Math.min(to, data.length - 1);
  for (let i = from; i < last; i++) {
    if (data[i] !== 0x45 || data[i + 1] !== 0x49) continue;
    if (i !== from && CLASS[data[i - 1]!] !== 1) continue;
    if (i + 2 < data.length && CLASS[data[i + 2]!] !== 1) continue;
    return i;
  }
  return -1;
}

/** Whether the bytes after a candidate `EI` read as operators (printable text), not image data. */
function looksLikeContent(data: Uint8Array, at: number): boolean {
  const end = Math.min(data.length, at + 32);
  for (let i = at; i < end; i++) {
    const b = data[i]!;
    if (b > 0x7e || (b < 0x20 && CLASS[b] !== 1)) return false;
  }
  return true;
}

function literal(text: string): boolean | null | undefined {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  return undefined;
}

/** A PDF number as readers take it: a malformed one (`--5`, `1.2.3`) reads as far as it goes. */
function toNumber(text: string): number {
  const value = Number(text);
  if (Number.isFinite(value)) return value;
  const match = /^[+-]*(\d*\.?\d*)/.exec(text);
  const negative = text.startsWith('-');
  const parsed = match ? Number(match[1]) : NaN;
  return Number.isFinite(parsed) ? (negative ? -parsed : parsed) : 0;
}

function latin1(data: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i++) s += String.fromCharCode(data[i]!);
  return s;
}
