import { describe, expect, it } from 'vitest';
import {
  documentFonts,
  latinFontsUsed,
  MAX_DOCUMENT_FONTS,
} from '../../src/formats/fonts/index.js';
import { openDocx } from '../../src/formats/sniff/index.js';
import { para, run } from '../helpers/docx-builder.js';
import { buildFontDocx, defaultsIn, fontRun } from '../helpers/fidelity-docx.js';

const fontsOf = (spec: Parameters<typeof buildFontDocx>[0]) =>
  documentFonts(openDocx(buildFontDocx(spec)));
const byFamily = (spec: Parameters<typeof buildFontDocx>[0]) =>
  Object.fromEntries(fontsOf(spec).map((f) => [f.family, f]));

describe('documentFonts', () => {
  it('finds a run font with its part and paragraph', () => {
    const fonts = fontsOf({
      body: para('first') + para('second', fontRun('Segoe UI', 'x')),
      header: para(fontRun('Frobnicate Sans', 'head')),
    });
    expect(fonts).toEqual([
      {
        family: 'Segoe UI',
        slots: ['ascii', 'hAnsi'],
        used: true,
        first: { part: 'word/document.xml', kind: 'body', paragraph: 2 },
      },
      {
        family: 'Frobnicate Sans',
        slots: ['ascii', 'hAnsi'],
        used: true,
        first: { part: 'word/header1.xml', kind: 'header', paragraph: 1 },
      },
    ]);
  });

  it('reads the defaults through the theme, and the theme attribute wins over the family', () => {
    const found = byFamily({
      body: para('text'),
      theme: { major: 'Calibri Light', minor: 'Calibri' },
      styles: defaultsIn(
        'w:ascii="Arial" w:asciiTheme="minorHAnsi" w:hAnsiTheme="minorHAnsi" w:cs="Times New Roman"',
      ),
    });
    expect(Object.keys(found).sort()).toEqual(['Calibri', 'Times New Roman']);
    expect(found.Calibri).toMatchObject({
      slots: ['ascii', 'hAnsi'],
      used: true,
      first: { kind: 'styles' },
    });
    expect(found['Times New Roman']).toMatchObject({ slots: ['cs'], used: true });
  });

  it('counts a style as used when a paragraph, a default or a style based on it uses it', () => {
    const styles =
      '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:rPr><w:rFonts w:ascii="Georgia" w:hAnsi="Georgia"/></w:rPr></w:style>' +
      '<w:style w:type="paragraph" w:styleId="Base"><w:rPr><w:rFonts w:ascii="Verdana" w:hAnsi="Verdana"/></w:rPr></w:style>' +
      '<w:style w:type="paragraph" w:styleId="Quote"><w:basedOn w:val="Base"/></w:style>' +
      '<w:style w:type="paragraph" w:styleId="Heading1"><w:rPr><w:rFonts w:asciiTheme="majorHAnsi" w:hAnsiTheme="majorHAnsi"/></w:rPr></w:style>' +
      '<w:style w:type="character" w:styleId="Code"/>';
    const found = byFamily({
      body: `<w:p><w:pPr><w:pStyle w:val="Quote"/></w:pPr>${run('q')}</w:p>`,
      styles,
      theme: { major: 'Century Gothic', minor: 'Calibri' },
      fontTable: ['Georgia', 'Verdana', 'Tahoma'],
    });
    expect(found.Georgia).toMatchObject({ used: true, first: { style: 'Normal' } });
    expect(found.Verdana).toMatchObject({ used: true, first: { style: 'Base' } });
    // Heading 1 is defined and never used: its theme font is only declared.
    expect(found['Century Gothic']).toMatchObject({ used: false, first: { style: 'Heading1' } });
    expect(found.Tahoma).toMatchObject({ used: false, slots: [], first: { kind: 'font-table' } });
    expect(found.Calibri).toBeUndefined();
  });

  it('counts a list font as used only for a list the text points at', () => {
    const numbering =
      '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol"/></w:rPr></w:lvl></w:abstractNum>' +
      '<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:rPr><w:rFonts w:ascii="Wingdings" w:hAnsi="Wingdings"/></w:rPr></w:lvl></w:abstractNum>' +
      '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>';
    const found = byFamily({
      body: `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>${run('item')}</w:p>`,
      numbering,
    });
    expect(found.Symbol).toMatchObject({ used: true, first: { kind: 'numbering' } });
    expect(found.Wingdings).toMatchObject({ used: false });
  });

  it('keeps Latin-text fonts apart from East Asian and complex-script ones', () => {
    const fonts = fontsOf({
      body: para(
        '<w:r><w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial" w:eastAsia="SimSun" w:cs="Mangal"/></w:rPr><w:t>x</w:t></w:r>',
      ),
      fontTable: ['Tahoma'],
    });
    expect(fonts.map((f) => f.family)).toEqual(['Arial', 'SimSun', 'Mangal', 'Tahoma']);
    expect(latinFontsUsed(fonts).map((f) => f.family)).toEqual(['Arial']);
  });

  it('reads a family once, spelled as first met, and unescapes it', () => {
    const fonts = fontsOf({
      body:
        para(fontRun('Ben &amp; Jerry', 'a'), fontRun('ben &amp; jerry', 'b')) +
        para(fontRun('Ben &amp; Jerry', 'c')),
    });
    expect(fonts).toHaveLength(1);
    expect(fonts[0]).toMatchObject({ family: 'Ben & Jerry', first: { paragraph: 1 } });
  });

  it('is bounded on a document that names thousands of fonts', () => {
    const runs = Array.from({ length: MAX_DOCUMENT_FONTS + 50 }, (_, i) =>
      fontRun(`Font ${i}`, 'x'),
    );
    const started = performance.now();
    const fonts = fontsOf({ body: para(...runs) });
    expect(fonts).toHaveLength(MAX_DOCUMENT_FONTS);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('reads an unclosed style list in linear time', () => {
    const styles = '<w:style w:styleId="s">'.repeat(20_000);
    const started = performance.now();
    expect(fontsOf({ body: para('x'), styles })).toEqual([]);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('answers the same package from its cache', () => {
    const pkg = openDocx(buildFontDocx({ body: para(fontRun('Arial', 'x')) }));
    expect(documentFonts(pkg)).toBe(documentFonts(pkg));
  });
});
