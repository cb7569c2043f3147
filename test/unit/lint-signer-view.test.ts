import { describe, expect, it } from 'vitest';
import { lintTemplate, type LintFinding } from '../../src/authoring/lint/index.js';
import { para, run } from '../helpers/docx-builder.js';
import {
  attachedTemplateDoc,
  cell,
  commentedDoc,
  complexField,
  doc,
  formatChangeParagraph,
  macroTraceDoc,
  mailMergeSettingsDoc,
  row,
  simpleField,
  styledRun,
  table,
  textBoxParagraph,
  tinyStyleDoc,
  trackedParagraph,
} from '../helpers/lint-docs.js';

const where = (f: LintFinding) => ({
  id: f.id,
  severity: f.severity,
  part: f.part,
  paragraph: f.paragraph,
  excerpt: f.excerpt,
});
const lint = (bytes: Buffer) => lintTemplate(bytes, { fonts: false });

describe('lint: what a signer sees that the author may not', () => {
  it('tracked_changes: insertions and deletions, and a formatting change', () => {
    const found = lint(
      doc(para('Lease') + trackedParagraph(), { footer: formatChangeParagraph() }),
    );
    expect(found.map(where)).toEqual([
      {
        id: 'tracked_changes',
        severity: 'error',
        part: 'body',
        paragraph: 2,
        excerpt: '{rent} kr. 5.000 kr.',
      },
      {
        id: 'tracked_changes',
        severity: 'error',
        part: 'footer1',
        paragraph: 1,
        excerpt: 'Important terms',
      },
    ]);
    expect(found[0]!.explanation).toBe(
      'Tracked changes (inserted "{rent} kr.", deleted "5.000 kr."): the PDF shows them as Word shows markup, inserted text underlined in colour, deleted text struck through but still there to read, and a bar in the margin.',
    );
    expect(found[1]!.explanation).toMatch(/^A tracked formatting or layout change: /);
  });

  it("a tracked row insertion in a table is found in the row's paragraph", () => {
    const found = lint(
      doc(
        table(
          row(cell('Item'), cell('Price')),
          `<w:tr><w:trPr><w:ins w:id="9" w:author="A" w:date="2026-01-05T10:00:00Z"/></w:trPr>${cell('Extra')}${cell('10')}</w:tr>`,
        ) + para(''),
      ),
    );
    expect(found.map((f) => [f.id, f.part, f.paragraph])).toEqual([['tracked_changes', 'body', 3]]);
  });

  it('comments: found where they are anchored, with their text', () => {
    const found = lint(commentedDoc());
    expect(found.map(where)).toEqual([
      {
        id: 'comments',
        severity: 'warning',
        part: 'body',
        paragraph: 2,
        excerpt: 'Check the deposit with legal',
      },
    ]);
    expect(found[0]!.explanation).toMatch(
      /^A review comment by Anne Author: comments are left out of the PDF/,
    );
  });

  it('hidden_text, white_text and tiny_text, each with the text it is about', () => {
    const found = lint(
      doc(
        para('Terms') +
          `<w:p>${run('Visible. ')}${styledRun('<w:vanish/>', 'Secret {discount} clause')}</w:p>` +
          `<w:p>${run('Agreed. ')}${styledRun('<w:color w:val="FFFFFF"/>', 'Waives all rights')}</w:p>` +
          `<w:p>${run('Signed. ')}${styledRun('<w:sz w:val="8"/>', 'No refunds')}</w:p>`,
      ),
    );
    expect(found.map(where)).toEqual([
      {
        id: 'hidden_text',
        severity: 'warning',
        part: 'body',
        paragraph: 2,
        excerpt: 'Visible. Secret {discount} clause',
      },
      {
        id: 'white_text',
        severity: 'warning',
        part: 'body',
        paragraph: 3,
        excerpt: 'Agreed. Waives all rights',
      },
      {
        id: 'tiny_text',
        severity: 'warning',
        part: 'body',
        paragraph: 4,
        excerpt: 'Signed. No refunds',
      },
    ]);
    expect(found[0]!.explanation).toMatch(/^"Secret \{discount\} clause" is formatted as hidden: /);
    expect(found[1]!.explanation).toMatch(
      /^"Waives all rights" is white \(or nearly\) on a white page: /,
    );
    expect(found[2]!.explanation).toBe(
      '"No refunds" is 4 pt: too small for a signer to read, though it binds them like the rest.',
    );
  });

  it('tiny_text through a paragraph style based on another', () => {
    const found = lint(tinyStyleDoc());
    expect(found.map(where)).toEqual([
      {
        id: 'tiny_text',
        severity: 'warning',
        part: 'body',
        paragraph: 2,
        excerpt: 'No refunds after signing.',
      },
    ]);
    expect(found[0]!.explanation).toContain('is 5 pt');
  });

  it('white text on a shaded run, in a shaded cell or in a text box is meant to show: no finding', () => {
    const white = '<w:color w:val="FFFFFF"/>';
    const shadedCell = `<w:tc><w:tcPr><w:shd w:val="clear" w:color="auto" w:fill="1F3864"/></w:tcPr>${`<w:p>${styledRun(white, 'Heading')}</w:p>`}</w:tc>`;
    const found = lint(
      doc(
        `<w:p>${styledRun(`${white}<w:highlight w:val="black"/>`, 'Banner')}</w:p>` +
          table(row(shadedCell)) +
          table(
            row(
              shadedCell.replace(
                'w:val="clear" w:color="auto" w:fill="1F3864"',
                'w:val="solid" w:color="auto" w:fill="auto"',
              ),
            ),
          ) +
          para('') +
          textBoxParagraph('Boxed').replace(
            /<w:p><w:r><w:t/g,
            `<w:p><w:r><w:rPr>${white}</w:rPr><w:t`,
          ),
      ),
    );
    expect(found).toEqual([]);
  });

  it('self_updating_field: DATE (simple) and TIME (complex), PAGE and NUMPAGES are fine', () => {
    const found = lint(
      doc(
        `<w:p>${run('Dated ')}${simpleField(' DATE \\@ "d MMMM yyyy" ', '1 January 2020')}</w:p>` +
          `<w:p>${run('At ')}${complexField(' TIME ', '09:15')}</w:p>`,
        {
          footer: `<w:p>${run('Page ')}${simpleField(' PAGE ', '1')}${run(' of ')}${complexField(' NUMPAGES ', '2')}</w:p>`,
        },
      ),
    );
    expect(found.map(where)).toEqual([
      {
        id: 'self_updating_field',
        severity: 'warning',
        part: 'body',
        paragraph: 1,
        excerpt: 'DATE \\@ "d MMMM yyyy"',
      },
      {
        id: 'self_updating_field',
        severity: 'warning',
        part: 'body',
        paragraph: 2,
        excerpt: 'TIME',
      },
    ]);
    expect(found[0]!.explanation).toBe(
      'This DATE field showed "1 January 2020" in Word; the PDF shows the day docpipe renders the document, not a date the author chose.',
    );
  });

  it('mail_merge_field: a MERGEFIELD (error) and the mail-merge settings (warning)', () => {
    const field = lint(
      doc(
        para('Dear') +
          `<w:p>${simpleField(' MERGEFIELD Client \\* MERGEFORMAT ', '«Client»')}</w:p>`,
      ),
    );
    expect(field.map(where)).toEqual([
      {
        id: 'mail_merge_field',
        severity: 'error',
        part: 'body',
        paragraph: 2,
        excerpt: 'MERGEFIELD Client \\* MERGEFORMAT',
      },
    ]);
    expect(field[0]!.explanation).toContain('so the PDF shows "«Client»"');
    const settings = lint(mailMergeSettingsDoc());
    expect(settings.map(where)).toEqual([
      {
        id: 'mail_merge_field',
        severity: 'warning',
        part: 'settings',
        paragraph: null,
        excerpt: 'SELECT * FROM clients.csv',
      },
    ]);
  });

  it('macros: traces of a macro-enabled document are a warning', () => {
    const found = lint(macroTraceDoc());
    expect(found.map(where)).toEqual([
      {
        id: 'macros',
        severity: 'warning',
        part: 'package',
        paragraph: null,
        excerpt: 'word/vbaData.xml',
      },
    ]);
  });

  it('attached_template names the template and its path', () => {
    const found = lint(attachedTemplateDoc());
    expect(found.map(where)).toEqual([
      {
        id: 'attached_template',
        severity: 'warning',
        part: 'settings',
        paragraph: null,
        excerpt: 'file:///C:/Users/anne/Templates/Contracts.dotm',
      },
    ]);
  });
});
