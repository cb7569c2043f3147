import {
  PDFDocument,
  PDFName,
  StandardFonts,
  rgb,
  type PDFContext,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import {
  checkPdfFidelity,
  drawsSomething,
  finishProducedPdf,
} from '../../src/formats/pdf/index.js';
import { MAX_EMPTY_SCAN_BYTES_PER_PAGE } from '../../src/formats/pdf/empty-pages.js';

/** A TrueType font dictionary that embeds its (dummy) program, as LibreOffice's do. */
function embeddedTrueType(context: PDFContext, baseFont: string): PDFRef {
  const file = context.register(context.stream(new Uint8Array(16)));
  const descriptor = context.register(
    context.obj({ Type: 'FontDescriptor', FontName: baseFont, FontFile2: file }),
  );
  return context.register(
    context.obj({
      Type: 'Font',
      Subtype: 'TrueType',
      BaseFont: baseFont,
      FontDescriptor: descriptor,
    }),
  );
}

/** A composite font: the program is the descendant's, as a Type0 font carries it. */
function embeddedType0(context: PDFContext, baseFont: string): PDFRef {
  const file = context.register(context.stream(new Uint8Array(16)));
  const descriptor = context.register(
    context.obj({ Type: 'FontDescriptor', FontName: baseFont, FontFile2: file }),
  );
  const descendant = context.register(
    context.obj({
      Type: 'Font',
      Subtype: 'CIDFontType2',
      BaseFont: baseFont,
      FontDescriptor: descriptor,
    }),
  );
  return context.register(
    context.obj({
      Type: 'Font',
      Subtype: 'Type0',
      BaseFont: baseFont,
      DescendantFonts: [descendant],
    }),
  );
}

function useFonts(
  page: PDFPage,
  fonts: Record<string, PDFRef>,
  content = 'BT /F0 12 Tf (x) Tj ET',
): void {
  const { context } = page.doc;
  page.node.set(PDFName.of('Resources'), context.obj({ Font: fonts }));
  page.node.set(PDFName.of('Contents'), context.register(context.flateStream(content)));
}

const save = (doc: PDFDocument) =>
  doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });

describe('embedded fonts of a PDF', () => {
  it('lists every page font that is embedded, subset tags removed, a Type0 by its descendant', async () => {
    const doc = await PDFDocument.create();
    const { context } = doc;
    useFonts(doc.addPage(), {
      F0: embeddedTrueType(context, 'BAAAAA+LiberationSans'),
      F1: embeddedType0(context, 'CAAAAA+Carlito-Bold'),
    });
    // Helvetica named, not embedded: readers draw it with their own.
    const helvetica = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage().drawText('hej', { font: helvetica });
    const result = await checkPdfFidelity(await save(doc), 'documents[0]');
    expect(result).toEqual({ pages: 2, fonts: ['Carlito-Bold', 'LiberationSans'], emptyPages: [] });
  });

  it('finds fonts of forms a page draws, and inherited resources, each once', async () => {
    const doc = await PDFDocument.create();
    const { context } = doc;
    const font = embeddedTrueType(context, 'DAAAAA+NotoSans-Regular');
    const form = context.register(
      context.stream('BT /F0 9 Tf (f) Tj ET', {
        Type: 'XObject',
        Subtype: 'Form',
        BBox: [0, 0, 10, 10],
        Resources: { Font: { F0: font } },
      }),
    );
    for (let i = 0; i < 3; i++) {
      const page = doc.addPage();
      page.node.set(PDFName.of('Contents'), context.register(context.flateStream('/X0 Do')));
      // pdf-lib gives every page its own (empty) resources; these inherit the tree's.
      page.node.delete(PDFName.of('Resources'));
    }
    // On the page tree's root, as some writers put shared resources.
    doc.catalog.Pages().set(PDFName.of('Resources'), context.obj({ XObject: { X0: form } }));
    const result = await checkPdfFidelity(await save(doc), 'document');
    expect(result).toEqual({ pages: 3, fonts: ['NotoSans-Regular'], emptyPages: [] });
  });
});

describe('empty pages', () => {
  it('finds the one page of three that draws nothing', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage().drawText('Side 1', { font });
    doc.addPage();
    doc.addPage().drawRectangle({ x: 10, y: 10, width: 5, height: 5, color: rgb(0, 0, 0) });
    const pdf = await save(doc);
    expect((await checkPdfFidelity(pdf, 'document')).emptyPages).toEqual([2]);
    const finished = await finishProducedPdf(pdf, 'document', { title: 't', producer: 'p' }, false);
    expect(finished).toMatchObject({ pages: 3, emptyPages: [2], fonts: [] });
  });

  it("counts a page of only state, a clip and LibreOffice's unpainted frame as empty", async () => {
    const doc = await PDFDocument.create();
    const blank = doc.addPage();
    blank.node.set(
      PDFName.of('Contents'),
      doc.context.register(
        doc.context.flateStream('0.1 w\nq 0 0.028 595.275 841.861 re\nW* n\nQ '),
      ),
    );
    expect((await checkPdfFidelity(await save(doc), 'document')).emptyPages).toEqual([1]);
  });

  it.each([
    ['text', 'BT /F1 11 Tf [<01>25<02>]TJ ET', true],
    ['a quote operator', "BT (line) ' ET", true],
    ['a stroked path', '0 0 m 10 10 l S', true],
    ['a filled path', '0 0 10 10 re f*', true],
    ['an image', 'q 10 0 0 10 0 0 cm /Im0 Do Q', true],
    ['an inline image', 'BI /W 1 /H 1 /BPC 8 /CS /G ID \u0000 EI', true],
    ['a shading', '/Sh0 sh', true],
    [
      'operators named in strings, names and comments',
      '(Tj) /Tj gs <54> Tz % f S Tj\n[(S) (f)] pop',
      false,
    ],
    ['escaped parentheses inside a string', '(a \\) Tj ( b) pop', false],
    ['a path ended unpainted', '0 0 m 10 10 l n', false],
    ['nothing', '', false],
  ])('%s: draws %s', (_what, content, draws) => {
    expect(drawsSomething(Buffer.from(content, 'latin1'))).toBe(draws);
  });

  it('counts content past the scan limit as drawn, without reading it all', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage();
    const huge = 'q Q\n'.repeat(MAX_EMPTY_SCAN_BYTES_PER_PAGE / 4 + 1);
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(huge)));
    const started = performance.now();
    expect((await checkPdfFidelity(await save(doc), 'document')).emptyPages).toEqual([]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
