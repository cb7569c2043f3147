import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFStream,
  type PDFObject,
} from 'pdf-lib';
import { CMap, parseCMap } from './cmap.js';
import {
  baseEncoding,
  glyphNameOf,
  glyphNameText,
  standardEncodingTable,
  type SimpleEncoding,
} from './encodings.js';
import type { PdfSource } from './pdf-source.js';
import { streamData } from './pdf-source.js';
import { standardMetrics } from './standard-fonts.js';

/** One code of a shown string: its text, its advance (in units of the font size), its length. */
export interface ShownCode {
  text: string;
  /** Horizontal advance for a font size of 1 (glyph width / 1000, or by a Type 3 FontMatrix). */
  width: number;
  /** A single-byte code 32: word spacing (Tw) applies to it. */
  wordSpace: boolean;
}

/** Bytes of a CMap stream, at most: real ToUnicode CMaps of big CJK fonts stay under 1 MB. */
const MAX_CMAP_BYTES = 4 * 1024 * 1024;
/** W arrays of more entries are no font's. */
const MAX_WIDTH_ENTRIES = 100_000;

/** Readers' defaults (poppler's) when a font descriptor has no usable Ascent or Descent. */
const DEFAULT_ASCENT = 0.95;
const DEFAULT_DESCENT = -0.35;

const name = (n: string) => PDFName.of(n);
const SUBTYPE = name('Subtype');
const TYPE0 = name('Type0');
const TYPE3 = name('Type3');
const BASE_FONT = name('BaseFont');
const ENCODING = name('Encoding');
const TO_UNICODE = name('ToUnicode');
const DESCENDANTS = name('DescendantFonts');
const DESCRIPTOR = name('FontDescriptor');
const WIDTHS = name('Widths');
const FIRST_CHAR = name('FirstChar');
const W = name('W');
const DW = name('DW');
const MISSING_WIDTH = name('MissingWidth');
const ASCENT = name('Ascent');
const DESCENT = name('Descent');
const BASE_ENCODING = name('BaseEncoding');
const DIFFERENCES = name('Differences');
const FONT_MATRIX = name('FontMatrix');
const FONT_FILES = ['FontFile', 'FontFile2', 'FontFile3'].map(name);

/**
 * What the text layer knows of a font: how to split a string into codes, each code's text and
 * advance, and the font's ascent and descent (fractions of the font size) for glyph boxes.
 */
export interface TextFont {
  ascent: number;
  descent: number;
  /**
   * A simple font's codes as tables by byte (code 32 takes word spacing): placing glyphs reads
   * them straight from a string's bytes, with no code objects between.
   */
  simple?: SimpleCodes;
  decode(bytes: Uint8Array, out: ShownCode[]): void;
}

/** One-byte codes: each code's advance for a font size of 1 and its text. */
export interface SimpleCodes {
  widths: Float64Array;
  texts: readonly string[];
}

/** Fonts already read, by their dictionary: findText and pageTexts on one document share them. */
const cache = new WeakMap<PDFDict, TextFont>();

export function textFontOf(source: PdfSource, dict: PDFDict): TextFont {
  let font = cache.get(dict);
  if (!font) {
    font = dict.get(SUBTYPE) === TYPE0 ? compositeFont(source, dict) : simpleFont(source, dict);
    cache.set(dict, font);
  }
  return font;
}

function num(source: PdfSource, value: PDFObject | undefined): number | undefined {
  const v = source.lookup(value);
  return v instanceof PDFNumber ? v.asNumber() : undefined;
}

function dictOf(source: PdfSource, value: PDFObject | undefined): PDFDict | undefined {
  const v = source.lookup(value);
  return v instanceof PDFDict ? v : undefined;
}

function toUnicodeOf(source: PdfSource, dict: PDFDict): CMap | undefined {
  const stream = source.lookup(dict.get(TO_UNICODE));
  if (!(stream instanceof PDFStream)) return undefined;
  return parseCMap(streamData(stream, MAX_CMAP_BYTES, 'a ToUnicode CMap'));
}

/** Ascent and descent as poppler takes them: a zero or absurd value falls back to its default. */
function verticalMetrics(
  source: PdfSource,
  descriptor: PDFDict | undefined,
  baseFont: string,
): { ascent: number; descent: number } {
  let ascent = DEFAULT_ASCENT;
  let descent = DEFAULT_DESCENT;
  const a = descriptor && num(source, descriptor.get(ASCENT));
  if (a !== undefined) {
    const t = Math.abs(a / 1000);
    if (t !== 0 && t < 3) ascent = t;
  }
  const d = descriptor && num(source, descriptor.get(DESCENT));
  if (d !== undefined) {
    const t = -Math.abs(d / 1000);
    if (t !== 0 && t > -3) descent = t;
  }
  // A standard font the PDF does not embed is drawn with the reader's own: its metrics count.
  const standard = standardMetrics(baseFont);
  const embedded = descriptor && FONT_FILES.some((f) => descriptor.get(f) !== undefined);
  if (standard && !embedded) {
    ascent = standard.ascent / 1000;
    descent = standard.descent / 1000;
  }
  return { ascent, descent };
}

function baseFontOf(dict: PDFDict): string {
  const base = dict.get(BASE_FONT);
  return base instanceof PDFName ? base.decodeText() : '';
}

function simpleFont(source: PdfSource, dict: PDFDict): TextFont {
  const baseFont = baseFontOf(dict);
  const descriptor = dictOf(source, dict.get(DESCRIPTOR));
  const standard = standardMetrics(baseFont);
  const encoding = simpleEncoding(source, dict, standard !== undefined && !standard.symbolic);
  const toUnicode = toUnicodeOf(source, dict);
  const type3 = dict.get(SUBTYPE) === TYPE3;
  let scale = 0.001;
  if (type3) {
    const matrix = source.lookup(dict.get(FONT_MATRIX));
    const a = matrix instanceof PDFArray ? num(source, matrix.get(0)) : undefined;
    if (a !== undefined) scale = a;
  }
  const widths = new Float64Array(256);
  const given = source.lookup(dict.get(WIDTHS));
  const missing = (descriptor && num(source, descriptor.get(MISSING_WIDTH))) ?? 0;
  const firstChar = num(source, dict.get(FIRST_CHAR)) ?? 0;
  for (let code = 0; code < 256; code++) {
    let w: number | undefined;
    if (given instanceof PDFArray) {
      const i = code - firstChar;
      w = i >= 0 && i < given.size() ? num(source, given.get(i)) : undefined;
    } else if (standard)
      w =
        standard.width(encoding.names[code]!) ?? standard.width(glyphNameOf(encoding.text[code]!));
    widths[code] = (w ?? missing) * scale;
  }
  const texts = encoding.text.slice();
  for (let code = 0; code < 256; code++) {
    const mapped = toUnicode?.unicode.get(code);
    if (mapped !== undefined) texts[code] = mapped;
  }
  const { ascent, descent } = verticalMetrics(source, descriptor, baseFont);
  /** Code objects for decode: made when first asked for (placing glyphs reads the tables). */
  let shown: ShownCode[] | undefined;
  return {
    ascent,
    descent,
    simple: { widths, texts },
    decode(bytes, out) {
      shown ??= texts.map((text, code) => ({
        text,
        width: widths[code]!,
        wordSpace: code === 32,
      }));
      for (let i = 0; i < bytes.length; i++) out.push(shown[bytes[i]!]!);
    },
  };
}

/** A simple font's encoding: its base (named or the font's own) with /Differences applied. */
function simpleEncoding(source: PdfSource, dict: PDFDict, standardLatin: boolean): SimpleEncoding {
  const value = source.lookup(dict.get(ENCODING));
  let base: SimpleEncoding | undefined;
  let differences: PDFArray | undefined;
  if (value instanceof PDFName) base = baseEncoding(value.decodeText());
  else if (value instanceof PDFDict) {
    const named = value.get(BASE_ENCODING);
    if (named instanceof PDFName) base = baseEncoding(named.decodeText());
    const diff = source.lookup(value.get(DIFFERENCES));
    if (diff instanceof PDFArray) differences = diff;
  }
  // Without a named encoding, a Type 1 font's own is StandardEncoding as a rule; a TrueType
  // font's is its cmap, which mostly follows WinAnsi for Latin text.
  base ??=
    standardLatin || dict.get(SUBTYPE) === name('Type1')
      ? standardEncodingTable()
      : baseEncoding('WinAnsiEncoding')!;
  if (!differences) return base;
  const names = base.names.slice();
  const text = base.text.slice();
  let code = 0;
  for (let i = 0; i < differences.size(); i++) {
    const item = source.lookup(differences.get(i));
    if (item instanceof PDFNumber) code = item.asNumber();
    else if (item instanceof PDFName && code >= 0 && code < 256) {
      const glyph = item.decodeText();
      names[code] = glyph;
      text[code] = glyphNameText(glyph);
      code++;
    }
  }
  return { names, text };
}

/** CID widths from /W: single CIDs in a map, ranges kept as ranges. */
class CidWidths {
  private readonly singles = new Map<number, number>();
  private readonly ranges: { low: number; high: number; width: number }[] = [];

  constructor(source: PdfSource, w: PDFObject | undefined) {
    const array = source.lookup(w);
    if (!(array instanceof PDFArray)) return;
    let entries = 0;
    for (let i = 0; i < array.size();) {
      const first = num(source, array.get(i));
      const next = source.lookup(array.get(i + 1));
      if (first === undefined) break;
      if (next instanceof PDFArray) {
        for (let k = 0; k < next.size() && entries < MAX_WIDTH_ENTRIES; k++, entries++) {
          const width = num(source, next.get(k));
          if (width !== undefined) this.singles.set(first + k, width);
        }
        i += 2;
      } else {
        const last = num(source, next);
        const width = num(source, array.get(i + 2));
        if (last === undefined || width === undefined) break;
        if (entries++ < MAX_WIDTH_ENTRIES) this.ranges.push({ low: first, high: last, width });
        i += 3;
      }
    }
  }

  get(cid: number): number | undefined {
    const single = this.singles.get(cid);
    if (single !== undefined) return single;
    for (const r of this.ranges) if (cid >= r.low && cid <= r.high) return r.width;
    return undefined;
  }
}

/** Identity-H and -V: two-byte codes that are their CIDs. */
function identityCMap(): CMap {
  const cmap = new CMap();
  cmap.spaces.push({ bytes: 2, low: 0, high: 0xffff });
  return cmap;
}

function compositeFont(source: PdfSource, dict: PDFDict): TextFont {
  const descendants = source.lookup(dict.get(DESCENDANTS));
  const cidFont = descendants instanceof PDFArray ? dictOf(source, descendants.get(0)) : undefined;
  const encodingValue = source.lookup(dict.get(ENCODING));
  // A predefined CMap other than Identity (UniJIS-UCS2-H, ...) is not bundled: its codes are
  // taken as two bytes, which all the UCS2 and UTF16 ones are, and their text from ToUnicode.
  const encoding =
    encodingValue instanceof PDFRawStream
      ? parseCMap(streamData(encodingValue, MAX_CMAP_BYTES, 'an encoding CMap'))
      : identityCMap();
  if (encoding.spaces.length === 0) encoding.spaces.push({ bytes: 2, low: 0, high: 0xffff });
  const toUnicode = toUnicodeOf(source, dict);
  const widths = new CidWidths(source, cidFont?.get(W));
  const defaultWidth = (cidFont && num(source, cidFont.get(DW))) ?? 1000;
  const descriptor = cidFont && dictOf(source, cidFont.get(DESCRIPTOR));
  const { ascent, descent } = verticalMetrics(source, descriptor, baseFontOf(dict));
  const known = new Map<number, ShownCode>();
  const fixedTwo = encoding.spaces.every((s) => s.bytes === 2);
  return {
    ascent,
    descent,
    decode(bytes, out) {
      for (let i = 0; i < bytes.length;) {
        const length = fixedTwo ? 2 : encoding.codeLength(bytes, i);
        let code = 0;
        for (let k = 0; k < length; k++) code = code * 256 + (bytes[i + k] ?? 0);
        const key = code + length * 0x100000000;
        let shown = known.get(key);
        if (!shown) {
          const cid = encoding.cids.get(code) ?? code;
          shown = {
            text: toUnicode?.unicode.get(code) ?? '',
            width: (widths.get(cid) ?? defaultWidth) / 1000,
            wordSpace: length === 1 && code === 32,
          };
          known.set(key, shown);
        }
        out.push(shown);
        i += length;
      }
    },
  };
}
