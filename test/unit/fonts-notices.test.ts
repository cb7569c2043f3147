import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { PDFDocument, PDFName, StandardFonts, type PDFContext, type PDFRef } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { Renderer, fidelityRefusal, fidelityReport } from '../../src/render/pipeline/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { para } from '../helpers/docx-builder.js';
import { DocpipeError } from '../../src/base/errors/index.js';
import { rejectionOf } from '../helpers/failure.js';
import { buildFontDocx, fontRun } from '../helpers/fidelity-docx.js';
import { ScriptedConverter } from '../helpers/scripted-converter.js';
import { testDir } from '../helpers/test-dir.js';

const fcMatch = (family: string) =>
  execFileSync('fc-match', ['-f', '%{family[0]}', family], { encoding: 'utf8' });
/** What fontconfig draws an unknown family with on this machine (Noto Sans once set up). */
const fallback = fcMatch('Frobnicate Sans');
const fallbackPostScript = execFileSync(
  'fc-match',
  ['-f', '%{postscriptname}', 'Frobnicate Sans'],
  {
    encoding: 'utf8',
  },
);

function embedded(context: PDFContext, baseFont: string): PDFRef {
  const file = context.register(context.stream(new Uint8Array(16)));
  const descriptor = context.register(context.obj({ Type: 'FontDescriptor', FontFile2: file }));
  return context.register(
    context.obj({
      Type: 'Font',
      Subtype: 'TrueType',
      BaseFont: baseFont,
      FontDescriptor: descriptor,
    }),
  );
}

/** A PDF as LibreOffice would write it with these fonts, and an empty page when asked. */
async function pdfWith(baseFonts: string[], emptyPage = false): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage();
  const fonts = Object.fromEntries(baseFonts.map((f, i) => [`F${i}`, embedded(doc.context, f)]));
  page.node.set(PDFName.of('Resources'), doc.context.obj({ Font: fonts }));
  page.node.set(
    PDFName.of('Contents'),
    doc.context.register(doc.context.flateStream('BT /F0 11 Tf (x) Tj ET')),
  );
  if (emptyPage) doc.addPage();
  return Buffer.from(await doc.save({ addDefaultPage: false }));
}

describe('fidelityReport (real fontconfig)', () => {
  it('reports a missing font whose replacement the PDF embeds, with its widths', () => {
    const report = fidelityReport(
      ['Calibri', 'Frobnicate Sans', 'Liberation Serif', 'Wingdings', 'Segoe UI'],
      ['BAAAAA+Carlito', `CAAAAA+${fallbackPostScript}`, 'DAAAAA+LiberationSerif'],
      [],
    );
    expect(report.fonts).toEqual(['Carlito', fallback, 'Liberation Serif'].sort());
    expect(report.notices).toEqual([
      {
        code: 'font-substituted',
        message: `font "Calibri" is not installed; LibreOffice used Carlito, which is metric-compatible (same widths: lines and pages break as in Word)`,
        font: 'Calibri',
        replacement: 'Carlito',
        metricCompatible: true,
      },
      {
        code: 'font-substituted',
        message: `font "Frobnicate Sans" is not installed; LibreOffice used ${fallback}, which is not metric-compatible: install the font or choose another`,
        font: 'Frobnicate Sans',
        replacement: fallback,
        metricCompatible: false,
      },
      {
        code: 'font-substituted',
        message: `font "Segoe UI" is not installed; LibreOffice used ${fallback}, which is not metric-compatible: install the font or choose another`,
        font: 'Segoe UI',
        replacement: fallback,
        metricCompatible: false,
      },
    ]);
  });

  it('says nothing of a missing font whose replacement the PDF does not have', () => {
    expect(fidelityReport(['Frobnicate Sans'], ['BAAAAA+LiberationSans'], []).notices).toEqual([]);
  });

  it('refuses in strict mode a replacement of other widths and an empty page, not Carlito', () => {
    const { notices } = fidelityReport(
      ['Calibri', 'Segoe UI'],
      ['Carlito', fallbackPostScript],
      [3],
    );
    expect(notices.map((n) => n.code)).toEqual([
      'font-substituted',
      'font-substituted',
      'empty-page',
    ]);
    const refusal = fidelityRefusal(notices, 'documents[1]');
    expect(refusal?.slug).toBe('document-production-failed');
    expect(refusal?.details).toEqual([
      {
        field: 'documents[1]',
        message: `font "Segoe UI" is not installed; LibreOffice used ${fallback}, which is not metric-compatible: install the font or choose another`,
      },
      {
        field: 'documents[1]',
        message:
          'page 3 is empty (it draws no text, image or line): remove the page break or section break that makes it',
      },
    ]);
    expect(fidelityRefusal(notices.slice(0, 1), 'document')).toBeUndefined();
  });
});

describe('the renderer with fidelity', () => {
  const segoe = buildFontDocx({ body: para(fontRun('Segoe UI', 'Hej')) });

  function setUp(pdf: () => Promise<Buffer>, fidelity?: 'strict') {
    const dir = testDir('fidelity-renderer');
    const converter = new ScriptedConverter(() => pdf());
    const storage = new LocalStorage(dir);
    const renderer = new Renderer({ preparer: new InlinePreparer(), converter, storage, fidelity });
    const stored = () =>
      readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
    return { renderer, converter, stored };
  }

  it('answers a cache hit with the notices of the render that stored it', async () => {
    const { renderer, converter } = setUp(() => pdfWith([fallbackPostScript], true));
    const first = await renderer.render({ bytes: segoe, name: 'a' }, []);
    const again = await renderer.render({ bytes: segoe, name: 'a' }, []);
    expect(converter.requests).toHaveLength(1);
    expect(again.cached).toBe(true);
    expect(first.notices.map((n) => n.code)).toEqual(['font-substituted', 'empty-page']);
    expect(again.notices).toEqual(first.notices);
    expect(again.fonts).toEqual([fallback]);
  });

  it('refuses a strict render before storing, and keeps strict and reporting renders apart', async () => {
    const { renderer, converter, stored } = setUp(() => pdfWith([fallbackPostScript]));
    const err = await rejectionOf(
      renderer.render({ bytes: segoe, name: 'a' }, [], {
        fidelity: 'strict',
        field: 'documents[0]',
      }),
      DocpipeError,
    );
    expect(err).toMatchObject({ slug: 'document-production-failed' });
    expect(err.details).toEqual([
      {
        field: 'documents[0]',
        message: `font "Segoe UI" is not installed; LibreOffice used ${fallback}, which is not metric-compatible: install the font or choose another`,
      },
    ]);
    expect(stored()).toBe(0);
    const reported = await renderer.render({ bytes: segoe, name: 'a' }, []);
    expect(reported.cached).toBe(false);
    expect(stored()).toBe(1);
    // Stored by the reporting render, and still refused to a strict one.
    await expect(
      renderer.render({ bytes: segoe, name: 'a' }, [], { fidelity: 'strict' }),
    ).rejects.toMatchObject({
      slug: 'document-production-failed',
    });
    expect(converter.requests).toHaveLength(3);
  });

  it("takes the renderer's default fidelity when the options do not say", async () => {
    const { renderer, stored } = setUp(() => pdfWith([fallbackPostScript], true), 'strict');
    await expect(renderer.render({ bytes: segoe, name: 'a' }, [])).rejects.toMatchObject({
      slug: 'document-production-failed',
    });
    expect(stored()).toBe(0);
    const reported = await renderer.render({ bytes: segoe, name: 'a' }, [], { fidelity: 'report' });
    expect(reported.notices).toHaveLength(2);
  });

  it('reports the embedded fonts and empty pages of a PDF passed through', async () => {
    const { renderer, converter } = setUp(() => pdfWith([]));
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage().drawText('hej', { font });
    doc.addPage();
    const given = Buffer.from(await doc.save());
    const result = await renderer.render({ bytes: given, name: 'given' }, []);
    expect(converter.requests).toHaveLength(0);
    expect(result).toMatchObject({ input: 'pdf', pages: 2, fonts: [] });
    expect(result.notices).toEqual([
      {
        code: 'empty-page',
        message:
          'page 2 is empty (it draws no text, image or line): remove the page break or section break that makes it',
        page: 2,
      },
    ]);
  });
});
