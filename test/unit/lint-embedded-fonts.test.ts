import { describe, expect, it } from 'vitest';
import { resolveFont } from '../../src/formats/fonts/index.js';
import { lintTemplate, type LintFinding } from '../../src/authoring/lint/index.js';
import { para } from '../helpers/docx-builder.js';
import { altChunkDoc, doc, fontTableParts, unknownFontRun } from '../helpers/lint-docs.js';

const where = (f: LintFinding) => ({
  id: f.id,
  severity: f.severity,
  part: f.part,
  paragraph: f.paragraph,
  excerpt: f.excerpt,
});

const BRAND = 'Brand Sans';
const OTHER = 'Brand Serif';

/** The body sets text in Brand Sans, which the font table embeds with Calibri. */
const embeddingDoc = (): Buffer =>
  doc(para('Lease') + `<w:p>${unknownFontRun(BRAND, 'Dear {name},')}</w:p>`, {
    ...fontTableParts([{ family: BRAND, bold: true }, { family: 'Calibri' }], ['Times New Roman']),
  });

describe('lint: embedded_fonts', () => {
  it('names each embedded family once, in the font table, before the body is drawn', () => {
    const found = lintTemplate(embeddingDoc(), { fonts: false });
    expect(found.map(where)).toEqual([
      {
        id: 'embedded_fonts',
        severity: 'warning',
        part: 'fontTable',
        paragraph: null,
        excerpt: 'Brand Sans, Calibri',
      },
    ]);
    expect(found[0]!.explanation).toBe(
      'The template embeds the fonts "Brand Sans", "Calibri". docpipe removes embedded fonts before conversion (an office process converts many customers\' documents and would keep them), so the text is drawn with installed fonts (docs/fonts.md lists them).',
    );
    expect(found[0]!.fix).toBe(
      'Install the font on the docpipe machines if you hold a licence for it, or use a font docpipe has (docs/fonts.md lists them); embedding it in the file changes nothing.',
    );
  });

  it('says which installed font draws each family, and font_not_installed keeps quiet about them', () => {
    const brand = resolveFont(BRAND);
    const calibri = resolveFont('Calibri');
    // What the explanation is checked against: Brand Sans missing, Calibri drawn by Carlito.
    expect([brand.installed, brand.metricCompatible, brand.symbol]).toEqual([false, false, false]);
    expect(brand.replacement).toBeTruthy();
    expect([calibri.installed, calibri.replacement, calibri.metricCompatible]).toEqual([
      false,
      'Carlito',
      true,
    ]);
    const bytes = doc(
      para('Lease') +
        `<w:p>${unknownFontRun(BRAND, 'Dear {name},')}</w:p>` +
        `<w:p>${unknownFontRun(OTHER, 'Yours, {landlord}')}</w:p>`,
      fontTableParts([{ family: BRAND, bold: true }, { family: 'Calibri' }]),
    );
    const found = lintTemplate(bytes);
    // Brand Serif is not embedded: it still gets its own finding, where it is used.
    expect(found.map((f) => [f.id, f.part, f.paragraph])).toEqual([
      ['font_not_installed', 'body', 3],
      ['embedded_fonts', 'fontTable', null],
    ]);
    expect(found[0]!.explanation).toContain(`"${OTHER}"`);
    expect(found[1]!.explanation).toBe(
      'The template embeds the fonts "Brand Sans", "Calibri". docpipe removes embedded fonts before conversion (an office process converts many customers\' documents and would keep them), so the text is drawn with installed fonts: ' +
        `"Brand Sans" with "${brand.replacement}", which has other widths, so lines and pages break otherwise than in Word; ` +
        '"Calibri" with "Carlito", which has the same widths.',
    );
  });

  it('finds the fonts of a Word document the template inserts whole (altChunk)', () => {
    const inner = doc(para('Terms'), fontTableParts([{ family: BRAND }]));
    const found = lintTemplate(altChunkDoc(inner), { fonts: false });
    expect(found.map(where)).toEqual([
      {
        id: 'embedded_fonts',
        severity: 'warning',
        part: 'afchunk.docx!/fontTable',
        paragraph: null,
        excerpt: 'Brand Sans',
      },
    ]);
    expect(found[0]!.explanation).toMatch(
      /^The embedded document afchunk\.docx embeds the font "Brand Sans"\. docpipe removes/,
    );
  });

  it('a template whose font table only names its fonts has no such finding', () => {
    const plain = doc(para('Dear {name},'), fontTableParts([], ['Calibri', 'Times New Roman']));
    expect(lintTemplate(plain, { fonts: false })).toEqual([]);
    expect(lintTemplate(doc(para('Dear {name},')), { fonts: false })).toEqual([]);
  });
});
