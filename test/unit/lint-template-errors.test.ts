import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintTemplate, type LintFinding } from '../../src/authoring/lint/index.js';
import { LintPackage } from '../../src/authoring/lint/lint-package.js';
import { problemFinding } from '../../src/authoring/lint/template-findings.js';
import { openDocx } from '../../src/formats/sniff/index.js';
import { para } from '../helpers/docx-builder.js';
import { cell, doc, docmDoc, doctypeDoc, row, table, zipBombDoc } from '../helpers/lint-docs.js';

/** What a finding says, without its prose. */
const where = (f: LintFinding) => ({
  id: f.id,
  severity: f.severity,
  part: f.part,
  paragraph: f.paragraph,
  excerpt: f.excerpt,
});
const lint = (bytes: Buffer) => lintTemplate(bytes, { fonts: false });

describe('lint: docxtemplater errors, located', () => {
  it('unclosed_tag names the tag and the paragraph, not the offset in the part', () => {
    const found = lint(
      doc(para('Intro') + para('Dear {client_nam, welcome to the flat at the harbour')),
    );
    expect(found.map(where)).toEqual([
      {
        id: 'unclosed_tag',
        severity: 'error',
        part: 'body',
        paragraph: 2,
        excerpt: 'Dear {client_nam, welcome to the…',
      },
    ]);
    expect(found[0]!.explanation).toBe(
      'The tag "{client_nam," is not closed: "}" is missing after it, so docpipe cannot fill it.',
    );
    expect(found[0]!.fix).toBe(
      'Type the missing end delimiter, or delete the stray start delimiter.',
    );
  });

  it('a tag split across runs and escaped text is located by the text Word shows', () => {
    const found = lint(
      doc(
        para('A &amp; B') +
          `<w:p>${['Terms & ', 'conditions for {ten', 'ant'].map((t) => `<w:r><w:t xml:space="preserve">${t.replace('&', '&amp;')}</w:t></w:r>`).join('')}</w:p>`,
      ),
    );
    expect(found.map(where)).toEqual([
      {
        id: 'unclosed_tag',
        severity: 'error',
        part: 'body',
        paragraph: 2,
        excerpt: '…& conditions for {tenant',
      },
    ]);
  });

  it('unopened_tag, duplicate_open_tag and duplicate_close_tag, all at once', () => {
    const found = lint(
      doc(
        para('Total: amount} kr') + para('Dear {{name}, welcome') + para('Dear {name}}, welcome'),
      ),
    );
    expect(found.map(where)).toEqual([
      {
        id: 'unopened_tag',
        severity: 'error',
        part: 'body',
        paragraph: 1,
        excerpt: 'Total: amount} kr',
      },
      {
        id: 'duplicate_open_tag',
        severity: 'error',
        part: 'body',
        paragraph: 2,
        excerpt: 'Dear {{name}, welcome',
      },
      {
        id: 'duplicate_close_tag',
        severity: 'error',
        part: 'body',
        paragraph: 3,
        excerpt: 'Dear {name}}, welcome',
      },
    ]);
    expect(found[1]!.explanation).toBe('The tag "{{name}" opens with "{" twice.');
    expect(found[2]!.explanation).toBe('The tag "{name}}" closes with "}" twice.');
  });

  it('unclosed_loop and unopened_loop, in the body and a header', () => {
    const found = lint(
      doc(para('{#vip}') + para('Welcome'), { header: para('Page') + para('{/draft}') }),
    );
    expect(found.map(where)).toEqual([
      { id: 'unclosed_loop', severity: 'error', part: 'body', paragraph: 1, excerpt: '{#vip}' },
      {
        id: 'unopened_loop',
        severity: 'error',
        part: 'header1',
        paragraph: 2,
        excerpt: '{/draft}',
      },
    ]);
    expect(found[0]!.explanation).toBe(
      'The section "{#vip}" is never closed: no {/vip} follows it.',
    );
    expect(found[1]!.explanation).toBe(
      '"{/draft}" closes a section that was never opened with {#draft}.',
    );
  });

  it('closing_tag_does_not_match_opening_tag names both tags and where the wrong one is', () => {
    const found = lint(doc(para('{#pets}') + para('Pets are allowed.') + para('{/pet}')));
    expect(found.map(where)).toEqual([
      {
        id: 'closing_tag_does_not_match_opening_tag',
        severity: 'error',
        part: 'body',
        paragraph: 1,
        excerpt: '{#pets}',
      },
    ]);
    expect(found[0]!.explanation).toBe(
      'The section "{#pets}" is closed by "{/pet}" (¶3): each section must be closed by its own name.',
    );
  });

  it('unbalanced_loop_tags and loop_position_invalid, without section warnings on top', () => {
    const unbalanced = lint(doc(table(row(cell('{#a}X'), cell('{/a}{#b}Y{/b}'))) + para('')));
    expect(unbalanced.map(where)).toEqual([
      {
        id: 'unbalanced_loop_tags',
        severity: 'error',
        part: 'body',
        paragraph: 1,
        excerpt: '{#a}X',
      },
    ]);
    const misplaced = lint(doc(table(row(cell('{#rows}x'), cell('y'))) + para('{/rows}')));
    expect(misplaced.map(where)).toEqual([
      {
        id: 'loop_position_invalid',
        severity: 'error',
        part: 'body',
        paragraph: 1,
        excerpt: '{#rows}x',
      },
    ]);
  });

  it('raw_xml_tag_should_be_only_text_in_paragraph and raw_tag_outerxml_invalid', () => {
    const found = lint(doc(para('Note: {@terms}'), { header: '<w:r><w:t>{@logo}</w:t></w:r>' }));
    expect(found.map(where)).toEqual([
      {
        id: 'raw_xml_tag_should_be_only_text_in_paragraph',
        severity: 'error',
        part: 'body',
        paragraph: 1,
        excerpt: 'Note: {@terms}',
      },
      {
        id: 'raw_tag_outerxml_invalid',
        severity: 'error',
        part: 'header1',
        paragraph: null,
        excerpt: '{@logo}',
      },
    ]);
  });

  it('empty_tag: docpipe refuses {} and { }', () => {
    const found = lint(doc(para('Name: {} and { }')));
    expect(found.map((f) => [f.id, f.paragraph, f.explanation])).toEqual([
      ['empty_tag', 1, 'The tag "{}" is empty: it names no field.'],
      ['empty_tag', 1, 'The tag "{ }" is empty: it names no field.'],
    ]);
  });

  it('XML docxtemplater cannot read is named in the part and paragraph where it breaks', () => {
    const lessThan = lint(doc(para('Fine') + '<w:p><w:r><w:t>a < b {x}</w:t></w:r></w:p>'));
    expect(lessThan.map(where)).toEqual([
      { id: 'file_has_invalid_xml', severity: 'error', part: 'body', paragraph: 2, excerpt: 'a' },
    ]);
    const strayEnd = lint(doc(para('{x}') + '</w:t>'));
    expect(strayEnd.map(where)).toEqual([
      { id: 'malformed_xml', severity: 'error', part: 'body', paragraph: 1, excerpt: '{x}' },
    ]);
  });

  it('any other docxtemplater error is template_error with its own explanation', () => {
    const lintPkg = new LintPackage(openDocx(doc(para('Hello {name}'))), { start: '{', end: '}' });
    const found = problemFinding(lintPkg, {
      id: 'scopeparser_execution_failed',
      tag: 'name',
      part: 'body',
      file: 'word/document.xml',
      excerpt: 'Hello {name}',
      explanation: 'The scope parser for the tag "name" failed to execute',
      offsets: [6],
    });
    expect(where(found)).toEqual({
      id: 'template_error',
      severity: 'error',
      part: 'body',
      paragraph: 1,
      excerpt: 'Hello {name}',
    });
    expect(found.explanation).toBe('The scope parser for the tag "name" failed to execute');
    expect(found.fix).toBeUndefined();
  });
});

describe('lint: a file that is not a template docpipe accepts is one finding, not a crash', () => {
  it('not a .docx at all', () => {
    const found = lint(Buffer.from('Dear {name}, this is a text file.'));
    expect(found.map(where)).toEqual([
      { id: 'not_a_docx', severity: 'error', part: 'package', paragraph: null, excerpt: '' },
    ]);
    expect(found[0]!.explanation).toBe('The file is refused (unknown): not a PDF or .docx.');
  });

  it('a zip bomb is refused before anything is inflated', () => {
    const found = lint(zipBombDoc());
    expect(found.map((f) => f.id)).toEqual(['not_a_docx']);
    expect(found[0]!.explanation).toMatch(/^The file is refused \(too-large\): /);
  });

  it('hostile XML (a DOCTYPE) is refused by sniffing rules', () => {
    const found = lint(doctypeDoc());
    expect(found.map((f) => [f.id, f.explanation])).toEqual([
      [
        'not_a_docx',
        'The file is refused (xml-doctype): XML part word/document.xml declares a DOCTYPE.',
      ],
    ]);
  });

  it('a macro-enabled document is the macros finding, an error', () => {
    const found = lint(docmDoc());
    expect(found.map(where)).toEqual([
      { id: 'macros', severity: 'error', part: 'package', paragraph: null, excerpt: '' },
    ]);
    expect(found[0]!.explanation).toBe(
      'The file is refused: macro-enabled Word document (.docm). docpipe never runs macros and does not accept documents that carry them.',
    );
  });
});

describe('lint: clean templates', () => {
  it('the library lease lints clean (fonts included)', () => {
    const lease = readFileSync(join(import.meta.dirname, '../../templates/lease/template.docx'));
    expect(lintTemplate(lease)).toEqual([]);
  });

  it('tags, a paragraph section, a row section and an inline section: no findings', () => {
    const found = lint(
      doc(
        para('Dear {name},') +
          para('{#pets}') +
          para('Pets are allowed.') +
          para('{/pets}') +
          table(row(cell('{#lines}{description}'), cell('{amount}{/lines}'))) +
          para('Deposit: {#deposit}{deposit} kr{/deposit}{^deposit}none{/deposit}.'),
        { header: para('{company}'), footer: para('Page {page}') },
      ),
    );
    expect(found).toEqual([]);
  });
});
