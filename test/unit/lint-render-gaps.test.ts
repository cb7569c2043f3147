import { describe, expect, it } from 'vitest';
import { resolveFont } from '../../src/formats/fonts/index.js';
import { lintTemplate, type LintFinding } from '../../src/authoring/lint/index.js';
import { para, run } from '../helpers/docx-builder.js';
import {
  chartDoc,
  complexField,
  doc,
  linkedImageDoc,
  smartArtDoc,
  subDocumentDoc,
  textBoxParagraph,
  unknownFontRun,
  wordArtParagraph,
} from '../helpers/lint-docs.js';

const where = (f: LintFinding) => ({
  id: f.id,
  severity: f.severity,
  part: f.part,
  paragraph: f.paragraph,
  excerpt: f.excerpt,
});
const lint = (bytes: Buffer) => lintTemplate(bytes, { fonts: false });

describe('lint: tags LibreOffice would print as written', () => {
  it('tag_in_chart: a tag in a chart title', () => {
    const found = lint(chartDoc('Revenue for {company}'));
    expect(found.map(where)).toEqual([
      {
        id: 'tag_in_chart',
        severity: 'error',
        part: 'chart1',
        paragraph: null,
        excerpt: 'Revenue for {company}',
      },
    ]);
    expect(found[0]!.explanation).toBe(
      '"{company}" is in a chart: docpipe fills tags in the document\'s text, not in charts, so the PDF shows "{company}" as written.',
    );
  });

  it('tag_in_smartart: a tag in a SmartArt node', () => {
    const found = lint(smartArtDoc('Sign by {deadline}'));
    expect(found.map(where)).toEqual([
      {
        id: 'tag_in_smartart',
        severity: 'error',
        part: 'data1',
        paragraph: null,
        excerpt: 'Sign by {deadline}',
      },
    ]);
  });

  it('tag_in_text_box: VML WordArt keeps its text in an attribute', () => {
    const found = lint(doc(para('Title:') + wordArtParagraph('Offer for {client}')));
    expect(found.map(where)).toEqual([
      {
        id: 'tag_in_text_box',
        severity: 'error',
        part: 'body',
        paragraph: 2,
        excerpt: 'Offer for {client}',
      },
    ]);
  });

  it('an ordinary text box (wps with its VML copy) is filled and printed: no finding', () => {
    expect(lint(doc(para('Intro') + textBoxParagraph('Dear {client}')))).toEqual([]);
  });
});

describe('lint: what the hardened office will not fetch', () => {
  it('linked_image: the picture comes out blank; a hyperlink is fine', () => {
    const found = lint(linkedImageDoc('https://intranet.example.com/logo.png'));
    expect(found.map(where)).toEqual([
      {
        id: 'linked_image',
        severity: 'error',
        part: 'body',
        paragraph: 2,
        excerpt: 'https://intranet.example.com/logo.png',
      },
    ]);
    expect(found[0]!.explanation).toBe(
      'A picture is linked to "https://intranet.example.com/logo.png", not stored in the document: docpipe\'s office never fetches linked files, so it comes out blank in the PDF.',
    );
  });

  it('external_link: a linked subdocument, and an INCLUDETEXT field', () => {
    const sub = lint(subDocumentDoc('file:///C:/contracts/appendix.docx'));
    expect(sub.map(where)).toEqual([
      {
        id: 'external_link',
        severity: 'warning',
        part: 'body',
        paragraph: 2,
        excerpt: 'file:///C:/contracts/appendix.docx',
      },
    ]);
    expect(sub[0]!.explanation).toContain('(a subdocument)');
    const field = lint(
      doc(
        `<w:p>${run('Terms: ')}${complexField(' INCLUDETEXT "https://example.com/terms.docx" ', 'Standard terms')}</w:p>`,
      ),
    );
    expect(field.map(where)).toEqual([
      {
        id: 'external_link',
        severity: 'warning',
        part: 'body',
        paragraph: 1,
        excerpt: 'INCLUDETEXT "https://example.com/terms.docx"',
      },
    ]);
    expect(field[0]!.explanation).toContain(
      'so the PDF shows "Standard terms", what Word last stored',
    );
  });
});

describe('lint: fonts', () => {
  it('font_not_installed names the font, where it is used and what replaces it', () => {
    const family = 'Quillmark Unknown Serif';
    const replacement = resolveFont(family).replacement;
    const found = lintTemplate(
      doc(para('Lease') + `<w:p>${unknownFontRun(family, 'The tenant {name} agrees')}</w:p>`),
    );
    expect(found.map(where)).toEqual([
      {
        id: 'font_not_installed',
        severity: 'warning',
        part: 'body',
        paragraph: 2,
        excerpt: 'The tenant {name} agrees',
      },
    ]);
    expect(replacement).toBeTruthy();
    expect(found[0]!.explanation).toBe(
      `The font "${family}" is not installed: LibreOffice draws it with "${replacement}", which has other widths, so lines and pages break otherwise than in Word (a strict render refuses it).`,
    );
  });

  it('a font replaced by one of the same widths (Calibri by Carlito) keeps the layout: no finding', () => {
    expect(resolveFont('Calibri').metricCompatible).toBe(true);
    expect(lintTemplate(doc(`<w:p>${unknownFontRun('Calibri', 'Hello {name}')}</w:p>`))).toEqual(
      [],
    );
  });
});
