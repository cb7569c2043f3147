import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream, type PDFDict, type PDFRef } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { checkPdf } from '../../src/formats/pdf/index.js';
import {
  MAX_CMAP_ENTRIES,
  PdfTextError,
  findText,
  normalizeText,
  pageTexts,
  removeText,
  type TextMatch,
} from '../../src/formats/pdf-text/index.js';
import { ContentLexer, NameToken } from '../../src/formats/pdf-text/content-lexer.js';

/** Courier, not embedded: every glyph 600/1000 wide, ascent 629, descent -157 (its AFM). */
const COURIER = {
  Type: 'Font',
  Subtype: 'Type1',
  BaseFont: 'Courier',
  Encoding: 'WinAnsiEncoding',
};

interface PageSpec {
  content: string;
  fonts?: Record<string, (doc: PDFDocument) => PDFRef | PDFDict>;
  xobjects?: Record<string, (doc: PDFDocument, self: () => PDFRef) => PDFRef>;
}

/** A one-page PDF (600 x 800) with the content given and its fonts and forms, saved as bytes. */
async function pdfWith(spec: PageSpec): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([600, 800]);
  const fonts: Record<string, PDFRef | PDFDict> = {
    F1: doc.context.register(doc.context.obj(COURIER)),
  };
  for (const [name, make] of Object.entries(spec.fonts ?? {})) fonts[name] = make(doc);
  const resources: Record<string, unknown> = { Font: doc.context.obj(fonts) };
  if (spec.xobjects) {
    const x: Record<string, PDFRef> = {};
    for (const [name, make] of Object.entries(spec.xobjects)) {
      const ref = doc.context.nextRef();
      x[name] = ref;
      doc.context.assign(ref, doc.context.lookup(make(doc, () => ref))!);
    }
    resources.XObject = doc.context.obj(x);
  }
  page.node.set(PDFName.of('Resources'), doc.context.obj(resources as never));
  const content = PDFRawStream.of(doc.context.obj({}), Buffer.from(spec.content, 'latin1'));
  page.node.set(PDFName.of('Contents'), doc.context.register(content));
  return doc.save({ useObjectStreams: false });
}

function stream(
  doc: PDFDocument,
  dict: Record<string, unknown>,
  data: string | Uint8Array,
): PDFRef {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  return doc.context.register(
    PDFRawStream.of(doc.context.obj(dict as never) as unknown as PDFDict, bytes),
  );
}

const near = (rect: TextMatch['rect'], x: number, y: number, w: number, h: number) => {
  expect(rect.x).toBeCloseTo(x, 3);
  expect(rect.y).toBeCloseTo(y, 3);
  expect(rect.width).toBeCloseTo(w, 3);
  expect(rect.height).toBeCloseTo(h, 3);
};

describe('the content lexer', () => {
  it('reads strings with escapes and nested parentheses, hex strings, names, comments', () => {
    const lexer = new ContentLexer(
      Buffer.from(
        '(a\\(b\\) (nested) \\101\\n\\\ncd) Tj % (not) Tj\n<414 2 4> Tj /A#42c 1 -2.5 .5 Tf [(x) -3 <79>] TJ',
        'latin1',
      ),
    );
    const seen: unknown[] = [];
    while (lexer.next()) seen.push([lexer.op, ...lexer.operands.map(show)]);
    expect(seen).toEqual([
      ['Tj', 'a(b) (nested) A\ncd'],
      ['Tj', 'AB@'],
      ['Tf', '/ABc', 1, -2.5, 0.5],
      ['TJ', ['x', -3, 'y']],
    ]);
  });

  it('skips an inline image whose data holds operator-like bytes and EI inside', () => {
    const data =
      'BT /F1 10 Tf 1 0 0 1 10 10 Tm (a) Tj ET\nBI /W 4 /H 1 /BPC 8 /CS /G ID \x00(b) Tj EIx\xff\nEI\nBT (c) Tj ET';
    const lexer = new ContentLexer(Buffer.from(data, 'latin1'));
    const ops: string[] = [];
    while (lexer.next()) ops.push(lexer.op);
    expect(ops).toEqual(['BT', 'Tf', 'Tm', 'Tj', 'ET', 'BI', 'BT', 'Tj', 'ET']);
  });

  it('gives each operator the span of its operands and itself', () => {
    const data = 'q 1 0 0 1 5 5 cm [(A) 20] TJ Q';
    const lexer = new ContentLexer(Buffer.from(data, 'latin1'));
    const spans: string[] = [];
    while (lexer.next()) spans.push(data.slice(lexer.start, lexer.end));
    expect(spans).toEqual(['q', '1 0 0 1 5 5 cm', '[(A) 20] TJ', 'Q']);
  });
});

function show(v: unknown): unknown {
  if (v instanceof Uint8Array) return Buffer.from(v).toString('latin1');
  if (v instanceof NameToken) return `/${v.value}`;
  if (Array.isArray(v)) return v.map(show);
  return v;
}

describe('findText on hand-made pages', () => {
  it('reads a page of more text than one decoding step takes (8192 units)', async () => {
    const pdf = await pdfWith({
      content: `BT /F1 1 Tf 10 700 Td (${'x'.repeat(9000)}{{sign:1}}) Tj [<41><42>-1000<41>] TJ ET`,
    });
    const [text] = pageTexts(pdf);
    expect(text).toBe(`${'x'.repeat(9000)}{{sign:1}}AB A`);
    const [m] = findText(pdf, /\{\{sign:\d+\}\}/g);
    // 9000 glyphs of 0.6 pt before it.
    expect(m!.rect.x).toBeCloseTo(10 + 9000 * 0.6, 3);
  });

  it('places a simple font by its widths: origin, advance, ascent and descent', async () => {
    const pdf = await pdfWith({ content: 'BT /F1 10 Tf 100 700 Td (xx {{sign:1}} yy) Tj ET' });
    const [m] = findText(pdf, /\{\{sign:\d+\}\}/g);
    // 3 glyphs of 6 pt before it, 10 glyphs of 6 pt; descent -1.57, ascent 6.29.
    near(m!.rect, 118, 698.43, 60, 7.86);
    expect(m).toMatchObject({ page: 1, text: '{{sign:1}}', removable: false });
  });

  it('counts TJ offsets, character and word spacing and horizontal scaling', async () => {
    const pdf = await pdfWith({
      content:
        'BT /F1 10 Tf 100 700 Td [(A) -100 (B)] TJ ET ' +
        'BT /F1 10 Tf 2 Tc 3 Tw 100 600 Td (C D) Tj ET ' +
        'BT /F1 10 Tf 0 Tc 0 Tw 50 Tz 100 500 Td (EF) Tj ET',
    });
    near(findText(pdf, /AB/g)[0]!.rect, 100, 698.43, 13, 7.86);
    // (6 + 2) * 3 glyphs, plus 3 of word spacing on the space.
    near(findText(pdf, /C D/g)[0]!.rect, 100, 598.43, 27, 7.86);
    near(findText(pdf, /EF/g)[0]!.rect, 100, 498.43, 6, 7.86);
  });

  it('follows the text matrix, the CTM, TD, T*, rise and the quote operators', async () => {
    const pdf = await pdfWith({
      content:
        'q 2 0 0 2 10 20 cm BT /F1 10 Tf 12 TL 1 0 0 1 5 300 Tm (AA) Tj 0 -20 TD (BB) Tj T* (CC) Tj (DD) \' 1 2 (EE) " ET Q',
    });
    // User space = 2 * text space + (10, 20).
    near(findText(pdf, /AA/g)[0]!.rect, 20, 620 - 3.14, 24, 15.72);
    near(findText(pdf, /BB/g)[0]!.rect, 20, 580 - 3.14, 24, 15.72);
    near(findText(pdf, /CC/g)[0]!.rect, 20, 540 - 3.14, 24, 15.72);
    near(findText(pdf, /DD/g)[0]!.rect, 20, 500 - 3.14, 24, 15.72);
    // " sets word spacing 1 and character spacing 2: (6 + 2) * 2 per glyph in user space.
    near(findText(pdf, /EE/g)[0]!.rect, 20, 460 - 3.14, 32, 15.72);
    expect(pageTexts(pdf)).toEqual(['AA BB CC DD EE']);
  });

  it('reads a Type0 Identity-H font through its ToUnicode CMap (bfchar, bfrange, arrays) and /W', async () => {
    const toUnicode =
      '/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n' +
      '1 begincodespacerange <0000> <FFFF> endcodespacerange\n' +
      '1 beginbfchar <0001> <0044> endbfchar\n' +
      '2 beginbfrange <0002> <0003> <0050> <0010> <0011> [<0053> <00660069>] endbfrange\n' +
      'endcmap CMapName currentdict /CMap defineresource pop end end';
    const pdf = await pdfWith({
      content: 'BT /T0 20 Tf 50 400 Td <0001000200030010 0011> Tj ET',
      fonts: {
        T0: (doc) =>
          doc.context.register(
            doc.context.obj({
              Type: 'Font',
              Subtype: 'Type0',
              BaseFont: 'ABCDEF+Some',
              Encoding: 'Identity-H',
              ToUnicode: stream(doc, { Filter: 'FlateDecode' }, deflateSync(toUnicode)),
              DescendantFonts: [
                doc.context.obj({
                  Type: 'Font',
                  Subtype: 'CIDFontType2',
                  BaseFont: 'ABCDEF+Some',
                  DW: 1000,
                  W: [1, [500, 400], 16, 17, 250],
                  FontDescriptor: doc.context.obj({
                    Type: 'FontDescriptor',
                    Ascent: 800,
                    Descent: -200,
                  }),
                }),
              ],
            }),
          ),
      },
    });
    const [m] = findText(pdf, /DPQSfi/g);
    // 500 + 400 + 1000 (CID 3 falls back to DW) + 250 + 250, at 20 pt.
    near(m!.rect, 50, 396, 48, 20);
    expect(m!.removable).toBe(true);
  });

  it('maps a simple font through /Differences and glyph names, without ToUnicode', async () => {
    const pdf = await pdfWith({
      content: 'BT /F2 10 Tf 10 10 Td (ABC) Tj ET',
      fonts: {
        F2: (doc) =>
          doc.context.obj({
            Type: 'Font',
            Subtype: 'Type1',
            BaseFont: 'Helvetica',
            Encoding: doc.context.obj({
              Type: 'Encoding',
              BaseEncoding: 'WinAnsiEncoding',
              Differences: [66, 'uni0058', 'Euro'],
            }),
          }),
      },
    });
    expect(pageTexts(pdf)).toEqual(['AX€']);
    // Helvetica's AFM: A 667, and the glyphs the names stand for (X 667, Euro 556).
    const [m] = findText(pdf, /AX€/g);
    near(m!.rect, 10, 10 - 2.07, 18.9, 9.25);
  });

  it('finds text in a Form XObject at its matrix, as not removable', async () => {
    const pdf = await pdfWith({
      content: 'q 1 0 0 1 100 100 cm /X1 Do Q',
      xobjects: {
        X1: (doc) =>
          stream(
            doc,
            {
              Type: 'XObject',
              Subtype: 'Form',
              BBox: [0, 0, 500, 500],
              Matrix: [1, 0, 0, 1, 10, 20],
            },
            'BT /F1 10 Tf 0 0 Td (inside) Tj ET',
          ),
      },
    });
    const [m] = findText(pdf, /inside/g);
    near(m!.rect, 110, 118.43, 36, 7.86);
    expect(m!.removable).toBe(false);
    await expect(async () => removeText(pdf, [m!])).rejects.toThrow(PdfTextError);
  });

  it('reads no text out of an inline image', async () => {
    const pdf = await pdfWith({
      content:
        'BI /W 8 /H 1 /BPC 8 /CS /G ID (hidden) Tj EI0\nEI\nBT /F1 10 Tf 5 5 Td (seen) Tj ET',
    });
    expect(pageTexts(pdf)).toEqual(['seen']);
  });

  it('refuses a pattern without the g flag', async () => {
    const pdf = await pdfWith({ content: 'BT /F1 10 Tf 5 5 Td (x) Tj ET' });
    expect(() => findText(pdf, /x/)).toThrow(TypeError);
  });

  it('joins hyphenation at line ends and drops soft hyphens in pageTexts', async () => {
    const pdf = await pdfWith({
      content:
        'BT /F1 10 Tf 12 TL 10 700 Td (The agree-) Tj T* (ment   is) Tj T* (sig\xadned.) Tj ET',
    });
    expect(pageTexts(pdf)).toEqual(['The agreement is signed.']);
    expect(normalizeText(' a\u00adb  \n c ')).toBe('ab c');
  });
});

describe('hostile content', () => {
  it('stops a form that draws itself at a bounded depth, with a typed error', async () => {
    const pdf = await pdfWith({
      content: '/X1 Do',
      xobjects: {
        X1: (doc, self) => {
          const dict = doc.context.obj({ Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 1, 1] });
          dict.set(
            PDFName.of('Resources'),
            doc.context.obj({ XObject: doc.context.obj({ X1: self() }) }),
          );
          return doc.context.register(
            PDFRawStream.of(dict, Buffer.from('/X1 Do /X1 Do', 'latin1')),
          );
        },
      },
    });
    const error = (() => {
      try {
        findText(pdf, /x/g);
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(PdfTextError);
    expect((error as PdfTextError).reason).toBe('too-deep');
  });

  it('refuses a ToUnicode CMap of more mappings than the limit', async () => {
    const entries = Array.from(
      { length: MAX_CMAP_ENTRIES + 1 },
      (_, i) => `<${(i % 256).toString(16).padStart(2, '0')}> <0041>`,
    );
    const cmap = `1 begincodespacerange <00> <FF> endcodespacerange ${entries.length} beginbfchar ${entries.join(' ')} endbfchar`;
    const pdf = await pdfWith({
      content: 'BT /F2 10 Tf 5 5 Td (x) Tj ET',
      fonts: {
        F2: (doc) =>
          doc.context.obj({
            ...COURIER,
            ToUnicode: stream(doc, { Filter: 'FlateDecode' }, deflateSync(cmap)),
          }),
      },
    });
    expect(() => findText(pdf, /x/g)).toThrow(/too-large/);
  });

  it('refuses arrays nested past the limit instead of blowing the stack', async () => {
    const pdf = await pdfWith({ content: `${'['.repeat(100000)} TJ` });
    expect(() => pageTexts(pdf)).toThrow(PdfTextError);
  });

  it('reads unterminated strings and stray delimiters to the end without hanging', async () => {
    const pdf = await pdfWith({ content: 'BT /F1 10 Tf 5 5 Td (ok) Tj ) ] } > (never closed Tj' });
    expect(pageTexts(pdf)).toEqual(['ok']);
  });
});

describe('removeText', () => {
  it('keeps the text after a removed operator where it was (an equivalent move)', async () => {
    const pdf = await pdfWith({
      content:
        "BT /F1 10 Tf 12 TL 100 700 Td (Sign: ) Tj (DPS01001xxxx) Tj ( done) Tj (DPI02002) ' (next) Tj ET",
    });
    const before = findText(pdf, /done|next|Sign:/g);
    const markers = findText(pdf, /DP[SIND]\d{5}x*/g);
    expect(markers.map((m) => [m.text, m.removable])).toEqual([
      ['DPS01001xxxx', true],
      ['DPI02002', true],
    ]);
    const out = await removeText(pdf, markers);
    expect(findText(out, /DP[SIND]\d{5}x*/g)).toEqual([]);
    expect(findText(out, /done|next|Sign:/g)).toEqual(before);
    expect(await checkPdf(out, 'pdf', 'produced')).toEqual({ pages: 1 });
  });

  it('refuses a match that covers part of an operator, and one not in the PDF', async () => {
    const pdf = await pdfWith({ content: 'BT /F1 10 Tf 100 700 Td (Sign: DPS01001xxxx) Tj ET' });
    const [m] = findText(pdf, /DPS\d{5}x*/g);
    expect(m!.removable).toBe(false);
    await expect(async () => removeText(pdf, [m!])).rejects.toThrow(/not-removable/);
    const elsewhere = { ...m!, rect: { ...m!.rect, x: m!.rect.x + 5 } };
    await expect(async () => removeText(pdf, [elsewhere])).rejects.toThrow(/not in the PDF/);
  });
});
