import { PDFArray, PDFDict, PDFName, PDFNumber, PDFStream, type PDFObject } from 'pdf-lib';
import { MAX_PAGE_CONTENT_BYTES } from '../pdf/index.js';
import { GlyphList } from './glyph-list.js';
import { ContentLexer, NameToken, type Operand } from './content-lexer.js';
import { IDENTITY, multiply, type Matrix } from './matrix.js';
import { PdfTextError } from './pdf-text-error.js';
import { inheritedOf, streamData, type PdfSource, type SourcePage } from './pdf-source.js';
import { textFontOf, type ShownCode, type TextFont } from './text-font.js';

/** A text-showing operator of the page's own content. */
export interface ShowOp {
  kind: 'Tj' | 'TJ' | "'" | '"';
  /** Its span in the page's content (its streams joined), operands included. */
  start: number;
  end: number;
  /** Its glyphs: [firstGlyph, glyphEnd) of the page's glyphs. */
  firstGlyph: number;
  glyphEnd: number;
  /** How far it moved the text matrix, in text space. */
  advance: number;
  fontSize: number;
  /** Horizontal scaling as a factor (Tz / 100). */
  scale: number;
  /** The word and character spacing a `"` operator sets. */
  spacing?: { word: number; char: number };
  /** Whether a later operator of the same text object shows text where this one left off. */
  needsMove: boolean;
}

export interface PageGlyphs {
  glyphs: GlyphList;
  ops: ShowOp[];
  /** The page's content streams, decoded and joined by a newline, as the spans count. */
  content: Uint8Array;
}

/** Forms drawing forms: deeper is no real document (as the PDF check's font scan). */
export const MAX_FORM_DEPTH = 8;
/** Operators read for one page, forms included: bounds a form drawn a million times. */
export const MAX_PAGE_OPERATORS = 4_000_000;
/**
 * Operators read for one document: pages may all share one content stream, so the page limit
 * alone would let 100,000 pages of 4,000,000 operators through.
 */
export const MAX_DOCUMENT_OPERATORS = 50_000_000;
/** q without Q: readers cap the graphics state stack too. */
const MAX_STATE_DEPTH = 1024;
const NO_OPERANDS: readonly Operand[] = [];

const CONTENTS = PDFName.of('Contents');
const RESOURCES = PDFName.of('Resources');
const FONT = PDFName.of('Font');
const XOBJECT = PDFName.of('XObject');
const SUBTYPE = PDFName.of('Subtype');
const FORM = PDFName.of('Form');
const MATRIX = PDFName.of('Matrix');

interface TextState {
  font: TextFont | undefined;
  size: number;
  charSpace: number;
  wordSpace: number;
  scale: number;
  leading: number;
  rise: number;
}

interface GraphicsState {
  ctm: Matrix;
  text: TextState;
}

/** The glyphs of a page in content order, and its text-showing operators. */
export function pageGlyphs(
  source: PdfSource,
  page: SourcePage,
  budget: { operators: number } = { operators: MAX_DOCUMENT_OPERATORS },
): PageGlyphs {
  const content = pageContent(source, page.dict);
  const resources = source.lookup(inheritedOf(source, page.dict, RESOURCES));
  // LibreOffice writes about 5 bytes of content per glyph (hex codes and TJ offsets).
  const run = new Interpreter(source, Math.min(1 << 16, content.length >> 2));
  try {
    run.interpret(
      content,
      resources instanceof PDFDict ? resources : undefined,
      [...IDENTITY],
      0,
      true,
    );
  } finally {
    budget.operators -= run.operators;
  }
  if (budget.operators < 0)
    throw new PdfTextError('too-large', `has more than ${MAX_DOCUMENT_OPERATORS} operators in all`);
  return { glyphs: run.glyphs, ops: run.ops, content };
}

function pageContent(source: PdfSource, page: PDFDict): Uint8Array {
  const value = source.lookup(page.get(CONTENTS));
  const streams: PDFObject[] = [];
  if (value instanceof PDFArray)
    for (let i = 0; i < value.size(); i++) {
      const s = source.lookup(value.get(i));
      if (s) streams.push(s);
    }
  else if (value) streams.push(value);
  const parts: Uint8Array[] = [];
  let total = 0;
  for (const stream of streams) {
    if (!(stream instanceof PDFStream)) continue;
    const data = streamData(stream, MAX_PAGE_CONTENT_BYTES - total, "a page's content");
    total += data.length + 1;
    parts.push(data);
  }
  if (parts.length === 1) return parts[0]!;
  // Streams of one page are one content, as if joined by white space (PDF 32000-1, 7.8.2).
  const joined = new Uint8Array(Math.max(0, total - 1));
  let at = 0;
  for (const part of parts) {
    if (at > 0) joined[at++] = 0x0a;
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

class Interpreter {
  readonly glyphs: GlyphList;
  readonly ops: ShowOp[] = [];
  /** Operators read so far, forms included. */
  operators = 0;
  private readonly forms = new Map<PDFObject, Uint8Array>();
  private readonly codes: ShownCode[] = [];

  constructor(
    private readonly source: PdfSource,
    capacity: number,
  ) {
    this.glyphs = new GlyphList(capacity);
  }

  interpret(
    content: Uint8Array,
    resources: PDFDict | undefined,
    ctm: Matrix,
    depth: number,
    own: boolean,
  ): void {
    const fonts = new Map<string, TextFont | undefined>();
    const stack: GraphicsState[] = [];
    let overflow = 0;
    let gs: GraphicsState = {
      ctm,
      text: { font: undefined, size: 0, charSpace: 0, wordSpace: 0, scale: 1, leading: 0, rise: 0 },
    };
    let tm: Matrix = [...IDENTITY];
    let tlm: Matrix = [...IDENTITY];
    /** Shows since the last positioning in this text object: a later show depends on them. */
    let pending: number[] = [];
    const lexer = new ContentLexer(content);
    const nextLine = (tx: number, ty: number) => {
      tlm = multiply([1, 0, 0, 1, tx, ty], tlm);
      tm = [...tlm];
      pending = [];
    };
    /** A text-showing operator: its operands list[from, to) are strings and TJ offsets. */
    const show = (
      kind: ShowOp['kind'],
      list: readonly Operand[],
      from: number,
      to: number,
      start: number,
      end: number,
      spacing?: ShowOp['spacing'],
    ) => {
      const t = gs.text;
      const firstGlyph = this.glyphs.length;
      const advance = this.place(
        t,
        multiply(tm, gs.ctm),
        list,
        Math.max(0, from),
        to,
        own ? this.ops.length : -1,
      );
      tm = [tm[0], tm[1], tm[2], tm[3], tm[4] + advance * tm[0], tm[5] + advance * tm[1]];
      if (!own) return;
      for (const p of pending) this.ops[p]!.needsMove = true;
      pending.push(this.ops.length);
      this.ops.push({
        kind,
        start,
        end,
        firstGlyph,
        glyphEnd: this.glyphs.length,
        advance,
        fontSize: t.size,
        scale: t.scale,
        spacing,
        needsMove: false,
      });
    };
    while (lexer.next()) {
      if (++this.operators > MAX_PAGE_OPERATORS)
        throw new PdfTextError(
          'too-large',
          `has a page of more than ${MAX_PAGE_OPERATORS} operators`,
        );
      const o = lexer.operands;
      const n = (i: number) => {
        const v = o[i];
        return typeof v === 'number' ? v : 0;
      };
      switch (lexer.op) {
        case 'q':
          if (stack.length >= MAX_STATE_DEPTH) overflow++;
          else stack.push({ ctm: gs.ctm, text: { ...gs.text } });
          break;
        case 'Q':
          if (overflow > 0) overflow--;
          else if (stack.length > 0) gs = stack.pop()!;
          break;
        case 'cm':
          if (o.length >= 6) gs.ctm = multiply([n(0), n(1), n(2), n(3), n(4), n(5)], gs.ctm);
          break;
        case 'BT':
          tm = [...IDENTITY];
          tlm = [...IDENTITY];
          pending = [];
          break;
        case 'ET':
          pending = [];
          break;
        case 'Tf': {
          const font = o[0];
          gs.text.font =
            font instanceof NameToken ? this.font(fonts, resources, font.value) : undefined;
          gs.text.size = n(1);
          break;
        }
        case 'Tc':
          gs.text.charSpace = n(0);
          break;
        case 'Tw':
          gs.text.wordSpace = n(0);
          break;
        case 'Tz':
          gs.text.scale = n(0) / 100;
          break;
        case 'TL':
          gs.text.leading = n(0);
          break;
        case 'Ts':
          gs.text.rise = n(0);
          break;
        case 'Td':
          nextLine(n(0), n(1));
          break;
        case 'TD':
          gs.text.leading = -n(1);
          nextLine(n(0), n(1));
          break;
        case 'Tm':
          if (o.length >= 6) {
            tlm = [n(0), n(1), n(2), n(3), n(4), n(5)];
            tm = [...tlm];
          }
          pending = [];
          break;
        case 'T*':
          nextLine(0, -gs.text.leading);
          break;
        case 'Tj':
          show('Tj', o, o.length - 1, o.length, lexer.start, lexer.end);
          break;
        case 'TJ': {
          const items = o[o.length - 1];
          const list = Array.isArray(items) ? items : NO_OPERANDS;
          show('TJ', list, 0, list.length, lexer.start, lexer.end);
          break;
        }
        case "'":
          nextLine(0, -gs.text.leading);
          show("'", o, o.length - 1, o.length, lexer.start, lexer.end);
          break;
        case '"':
          gs.text.wordSpace = n(0);
          gs.text.charSpace = n(1);
          nextLine(0, -gs.text.leading);
          show('"', o, 2, Math.min(3, o.length), lexer.start, lexer.end, {
            word: n(0),
            char: n(1),
          });
          break;
        case 'Do': {
          const name = o[0];
          if (name instanceof NameToken) this.form(resources, name.value, gs.ctm, depth);
          break;
        }
        default:
      }
    }
  }

  /**
   * Places the glyphs of the strings among items[from, to) (numbers among them are TJ offsets)
   * with the text rendering matrix `m`; returns how far they moved the text matrix. What depends
   * on the operator alone (the box's baseline offsets, the glyphs' size) is worked out once.
   */
  private place(
    t: TextState,
    m: Matrix,
    items: readonly Operand[],
    from: number,
    to: number,
    op: number,
  ): number {
    const font = t.font;
    const { size: fontSize, charSpace, wordSpace, scale } = t;
    let advance = 0;
    if (!font) {
      for (let k = from; k < to; k++) {
        const item = items[k];
        if (typeof item === 'number') advance -= (item / 1000) * fontSize * scale;
      }
      return advance;
    }
    const low = t.rise + font.descent * fontSize;
    const high = t.rise + font.ascent * fontSize;
    const size = Math.abs(fontSize) * Math.hypot(m[2], m[3]);
    const g = this.glyphs;
    // Upright text (no turn, no skew) is nearly all text: its box needs no corners.
    const upright = m[1] === 0 && m[2] === 0;
    const lowY = m[3] * low + m[5];
    const highY = m[3] * high + m[5];
    const boxY0 = lowY < highY ? lowY : highY;
    const boxY1 = lowY < highY ? highY : lowY;
    const riseX = m[2] * t.rise;
    const riseY = m[3] * t.rise;
    const [ma, mb, mc, md, me, mf] = m;
    const lx = mc * low;
    const ly = md * low;
    const hx = mc * high;
    const hy = md * high;
    const simple = font.simple;
    const codes = this.codes;
    for (let k = from; k < to; k++) {
      const item = items[k];
      if (typeof item === 'number') {
        advance -= (item / 1000) * fontSize * scale;
        continue;
      }
      if (!(item instanceof Uint8Array)) continue;
      let count = item.length;
      if (!simple) {
        codes.length = 0;
        font.decode(item, codes);
        count = codes.length;
      }
      g.reserve(count);
      const { text, x0: gx0, y0: gy0, x1: gx1, y1: gy1, ox, oy, ex, ey, op: gop } = g;
      const gsize = g.size;
      let i = g.length;
      for (let c = 0; c < count; c++) {
        let w: number;
        if (simple) {
          const b = item[c]!;
          w = (simple.widths[b]! * fontSize + charSpace + (b === 32 ? wordSpace : 0)) * scale;
          text[i] = simple.texts[b]!;
        } else {
          const code = codes[c]!;
          w = (code.width * fontSize + charSpace + (code.wordSpace ? wordSpace : 0)) * scale;
          text[i] = code.text;
        }
        const x0 = advance;
        const x1 = advance + w;
        gop[i] = op;
        const ax = ma * x0 + me;
        const ay = mb * x0 + mf;
        const bx = ma * x1 + me;
        const by = mb * x1 + mf;
        if (upright) {
          gx0[i] = ax < bx ? ax : bx;
          gx1[i] = ax < bx ? bx : ax;
          gy0[i] = boxY0;
          gy1[i] = boxY1;
        } else {
          // The four corners of the box in user space, bounded.
          gx0[i] = Math.min(ax + lx, ax + hx, bx + lx, bx + hx);
          gx1[i] = Math.max(ax + lx, ax + hx, bx + lx, bx + hx);
          gy0[i] = Math.min(ay + ly, ay + hy, by + ly, by + hy);
          gy1[i] = Math.max(ay + ly, ay + hy, by + ly, by + hy);
        }
        ox[i] = ax + riseX;
        oy[i] = ay + riseY;
        ex[i] = bx + riseX;
        ey[i] = by + riseY;
        gsize[i] = size;
        advance = x1;
        i++;
      }
      g.length = i;
    }
    return advance;
  }

  private font(
    fonts: Map<string, TextFont | undefined>,
    resources: PDFDict | undefined,
    name: string,
  ): TextFont | undefined {
    if (fonts.has(name)) return fonts.get(name);
    const dict = this.dict(this.dict(resources?.get(FONT))?.get(PDFName.of(name)));
    const font = dict ? textFontOf(this.source, dict) : undefined;
    fonts.set(name, font);
    return font;
  }

  private form(resources: PDFDict | undefined, name: string, ctm: Matrix, depth: number): void {
    const xobject = this.source.lookup(this.dict(resources?.get(XOBJECT))?.get(PDFName.of(name)));
    if (!(xobject instanceof PDFStream) || xobject.dict.get(SUBTYPE) !== FORM) return;
    if (depth >= MAX_FORM_DEPTH)
      throw new PdfTextError('too-deep', `nests forms deeper than ${MAX_FORM_DEPTH}`);
    let content = this.forms.get(xobject);
    if (!content) {
      content = streamData(xobject, MAX_PAGE_CONTENT_BYTES, 'a form');
      this.forms.set(xobject, content);
    }
    const matrix = this.source.lookup(xobject.dict.get(MATRIX));
    let m: Matrix = [...IDENTITY];
    if (matrix instanceof PDFArray && matrix.size() === 6) {
      const values = matrix.asArray().map((v) => this.source.lookup(v));
      if (values.every((v) => v instanceof PDFNumber))
        m = values.map((v) => v.asNumber()) as Matrix;
    }
    // A form without its own resources uses those of what draws it (an old practice).
    const own = this.dict(xobject.dict.get(RESOURCES)) ?? resources;
    this.interpret(content, own, multiply(m, ctm), depth + 1, false);
  }

  private dict(value: PDFObject | undefined): PDFDict | undefined {
    const v = this.source.lookup(value);
    return v instanceof PDFDict ? v : undefined;
  }
}
