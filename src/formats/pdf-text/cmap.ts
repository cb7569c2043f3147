import { ContentLexer, type Operand } from './content-lexer.js';
import { PdfTextError } from './pdf-text-error.js';

/**
 * Mappings a CMap may hold, counted as written (a range counts once): far more than any font has
 * glyphs. A range is kept as a range, so `<0000> <FFFF>` costs one entry, not 65,536.
 */
export const MAX_CMAP_ENTRIES = 100_000;

/** A byte range of codes of one length (`begincodespacerange`). */
interface CodeSpace {
  bytes: number;
  low: number;
  high: number;
}

interface Range<T> {
  low: number;
  high: number;
  value: (code: number) => T;
}

/** A code → value map: single codes in a Map, ranges searched after them. */
class CodeMap<T> {
  private readonly singles = new Map<number, T>();
  private readonly ranges: Range<T>[] = [];
  size = 0;

  set(code: number, value: T): void {
    this.count();
    this.singles.set(code, value);
  }

  range(low: number, high: number, value: (code: number) => T): void {
    this.count();
    this.ranges.push({ low, high, value });
  }

  get(code: number): T | undefined {
    const single = this.singles.get(code);
    if (single !== undefined) return single;
    // Later definitions win, as in readers that fill a table in order.
    for (let i = this.ranges.length - 1; i >= 0; i--) {
      const r = this.ranges[i]!;
      if (code >= r.low && code <= r.high) return r.value(code);
    }
    return undefined;
  }

  private count(): void {
    if (++this.size > MAX_CMAP_ENTRIES)
      throw new PdfTextError('too-large', `has a CMap of more than ${MAX_CMAP_ENTRIES} mappings`);
  }
}

/**
 * A parsed CMap: its code space (how many bytes each code takes) and its mappings, to Unicode
 * text for a ToUnicode CMap (bfchar, bfrange with a start value or an array), to CIDs for an
 * encoding CMap (cidchar, cidrange).
 */
export class CMap {
  readonly spaces: CodeSpace[] = [];
  readonly unicode = new CodeMap<string>();
  readonly cids = new CodeMap<number>();

  /** How many bytes the code at `at` takes: the code space it falls in, else the shortest. */
  codeLength(bytes: Uint8Array, at: number): number {
    if (this.spaces.length === 0) return 1;
    let code = 0;
    for (let n = 1; n <= 4 && at + n <= bytes.length; n++) {
      code = code * 256 + bytes[at + n - 1]!;
      for (const s of this.spaces) if (s.bytes === n && code >= s.low && code <= s.high) return n;
    }
    let shortest = 4;
    for (const s of this.spaces) shortest = Math.min(shortest, s.bytes);
    return shortest;
  }
}

/** Parses a CMap's text (bounded: its mappings are counted, see {@link MAX_CMAP_ENTRIES}). */
export function parseCMap(data: Uint8Array): CMap {
  const cmap = new CMap();
  const lexer = new ContentLexer(data);
  while (lexer.next()) {
    const ops = lexer.operands;
    switch (lexer.op) {
      case 'endcodespacerange':
        for (let i = 0; i + 1 < ops.length; i += 2) {
          const low = ops[i];
          const high = ops[i + 1];
          if (low instanceof Uint8Array && high instanceof Uint8Array && low.length > 0)
            cmap.spaces.push({ bytes: Math.min(4, low.length), low: int(low), high: int(high) });
        }
        break;
      case 'endbfchar':
        for (let i = 0; i + 1 < ops.length; i += 2) {
          const code = ops[i];
          const dst = ops[i + 1];
          if (code instanceof Uint8Array && dst instanceof Uint8Array)
            cmap.unicode.set(int(code), utf16(dst));
        }
        break;
      case 'endbfrange':
        for (let i = 0; i + 2 < ops.length; i += 3) bfrange(cmap, ops[i]!, ops[i + 1]!, ops[i + 2]);
        break;
      case 'endcidchar':
        for (let i = 0; i + 1 < ops.length; i += 2) {
          const code = ops[i];
          const cid = ops[i + 1];
          if (code instanceof Uint8Array && typeof cid === 'number') cmap.cids.set(int(code), cid);
        }
        break;
      case 'endcidrange':
        for (let i = 0; i + 2 < ops.length; i += 3) {
          const low = ops[i];
          const high = ops[i + 1];
          const cid = ops[i + 2];
          if (low instanceof Uint8Array && high instanceof Uint8Array && typeof cid === 'number') {
            const from = int(low);
            cmap.cids.range(from, int(high), (code) => cid + code - from);
          }
        }
        break;
      default:
    }
  }
  return cmap;
}

function bfrange(cmap: CMap, low: Operand, high: Operand, dst: Operand | undefined): void {
  if (!(low instanceof Uint8Array) || !(high instanceof Uint8Array)) return;
  const from = int(low);
  const to = int(high);
  if (to < from) return;
  if (dst instanceof Uint8Array) {
    const base = utf16(dst);
    if (base.length === 0) return;
    // The last UTF-16 unit counts up through the range (PDF 32000-1, 9.10.3).
    const head = base.slice(0, -1);
    const last = base.charCodeAt(base.length - 1);
    cmap.unicode.range(from, to, (code) => head + String.fromCharCode(last + code - from));
  } else if (Array.isArray(dst)) {
    const count = Math.min(dst.length, to - from + 1);
    for (let k = 0; k < count; k++) {
      const item = dst[k];
      if (item instanceof Uint8Array) cmap.unicode.set(from + k, utf16(item));
    }
  }
}

/** Big-endian integer of up to four bytes (longer codes keep their last four). */
function int(bytes: Uint8Array): number {
  let value = 0;
  for (let i = Math.max(0, bytes.length - 4); i < bytes.length; i++)
    value = value * 256 + bytes[i]!;
  return value;
}

/** UTF-16BE text; an odd byte count (a broken CMap) reads as Latin-1. */
function utf16(bytes: Uint8Array): string {
  let s = '';
  if (bytes.length % 2 === 1) {
    for (const b of bytes) s += String.fromCharCode(b);
    return s;
  }
  for (let i = 0; i < bytes.length; i += 2)
    s += String.fromCharCode((bytes[i]! << 8) | bytes[i + 1]!);
  return s;
}
