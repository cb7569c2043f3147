import { describe, expect, it } from 'vitest';
import { lintTemplate, type LintFinding } from '../../src/authoring/lint/index.js';
import { para } from '../helpers/docx-builder.js';
import { cell, doc, row, table, textBoxParagraph } from '../helpers/lint-docs.js';

const where = (f: LintFinding) => ({
  id: f.id,
  severity: f.severity,
  part: f.part,
  paragraph: f.paragraph,
  excerpt: f.excerpt,
});
const DOUBLE = { start: '{{', end: '}}' };
const lint = (bytes: Buffer, delimiters = { start: '{', end: '}' }) =>
  lintTemplate(bytes, { delimiters, fonts: false });

describe('lint: near misses', () => {
  it("double_braces_in_single_brace_template replaces docxtemplater's duplicate delimiters", () => {
    const found = lint(doc(para('Intro') + para('Dear {{client}}, welcome')));
    expect(found.map(where)).toEqual([
      {
        id: 'double_braces_in_single_brace_template',
        severity: 'error',
        part: 'body',
        paragraph: 2,
        excerpt: 'Dear {{client}}, welcome',
      },
    ]);
    expect(found[0]!.explanation).toBe(
      '"{{client}}" is written with double braces, but this template\'s tags use single ones ({name}): docpipe reads it as a broken tag.',
    );
  });

  it('single_braces_in_double_brace_template: the braces would print as written', () => {
    const found = lint(doc(para('Dear {client}, from {{sender}}')), DOUBLE);
    expect(found.map(where)).toEqual([
      {
        id: 'single_braces_in_double_brace_template',
        severity: 'error',
        part: 'body',
        paragraph: 1,
        excerpt: 'Dear {client}, from {{sender}}',
      },
    ]);
  });

  it('dollar_brace_tag: a warning where the tag fills and the $ stays, an error where nothing fills', () => {
    const single = lint(doc(para('Price: ${amount} per month')));
    expect(single.map(where)).toEqual([
      {
        id: 'dollar_brace_tag',
        severity: 'warning',
        part: 'body',
        paragraph: 1,
        excerpt: 'Price: ${amount} per month',
      },
    ]);
    expect(single[0]!.explanation).toBe(
      '"${amount}": the "$" is not part of the tag, so it stays in front of the value ("$Alice"), as in a template of another tool.',
    );
    const double = lint(doc(para('Price: ${amount} per month')), DOUBLE);
    expect(double.map(where)).toEqual([
      {
        id: 'dollar_brace_tag',
        severity: 'error',
        part: 'body',
        paragraph: 1,
        excerpt: 'Price: ${amount} per month',
      },
    ]);
  });

  it('square_bracket_tag in a footer', () => {
    const found = lint(doc(para('{name}'), { footer: para('Signed by [Client Name] on {date}') }));
    expect(found.map(where)).toEqual([
      {
        id: 'square_bracket_tag',
        severity: 'warning',
        part: 'footer1',
        paragraph: 1,
        excerpt: 'Signed by [Client Name] on {date}',
      },
    ]);
  });

  it('square brackets around numbers or symbols are not placeholders', () => {
    expect(lint(doc(para('See clause [3] and note [a] and [●].')))).toEqual([]);
  });

  it('smart_quotes_in_tag and nbsp_in_tag', () => {
    const found = lint(
      doc(
        para('Name: {client “name”}') +
          para('Dear {client\u00A0name},') +
          para('Edge { name\u00A0}'),
      ),
    );
    expect(found.map(where)).toEqual([
      {
        id: 'smart_quotes_in_tag',
        severity: 'warning',
        part: 'body',
        paragraph: 1,
        excerpt: 'Name: {client “name”}',
      },
      {
        id: 'nbsp_in_tag',
        severity: 'warning',
        part: 'body',
        paragraph: 2,
        excerpt: 'Dear {client\u00A0name},',
      },
    ]);
    expect(found[1]!.explanation).toBe(
      'The tag "{client\u00A0name}" holds a non-breaking space (U+00A0) where a value\'s tag name has an ordinary space or nothing, so no value fills it.',
    );
  });

  it('a zero-width space in a tag is an nbsp_in_tag too', () => {
    const found = lint(doc(para('Dear {client\u200B_name},')));
    expect(found.map((f) => [f.id, f.paragraph])).toEqual([['nbsp_in_tag', 1]]);
    expect(found[0]!.explanation).toContain('a zero-width space (U+200B)');
  });

  it('tags_differ_in_case_or_spaces: the less used spelling, where it first appears', () => {
    const found = lint(
      doc(para('{client_name}') + para('Dear {Client_Name},') + para('{client_name}'), {
        header: para('{client name} and {clientname} and {client name}'),
      }),
    );
    expect(found.map(where)).toEqual([
      {
        id: 'tags_differ_in_case_or_spaces',
        severity: 'warning',
        part: 'body',
        paragraph: 2,
        excerpt: 'Dear {Client_Name},',
      },
      {
        id: 'tags_differ_in_case_or_spaces',
        severity: 'warning',
        part: 'header1',
        paragraph: 1,
        excerpt: '{client name} and {clientname} and {client name}',
      },
    ]);
    expect(found[0]!.explanation).toBe(
      'The field "Client_Name" differs from "client_name" (2 times elsewhere) only in case or spaces: docpipe matches names exactly, so they are two fields and a value named one way leaves the other empty.',
    );
    expect(found[1]!.explanation).toContain('"clientname" differs from "client name" (2 times');
  });

  it("a text box's fallback copy is not a second place for the same problem", () => {
    const found = lint(doc(para('Intro') + textBoxParagraph('Box: ${amount}')));
    expect(found.map(where)).toEqual([
      {
        id: 'dollar_brace_tag',
        severity: 'warning',
        part: 'body',
        paragraph: 3,
        excerpt: 'Box: ${amount}',
      },
    ]);
    const broken = lint(doc(para('Intro') + textBoxParagraph('Box: {amount')));
    expect(broken.map(where)).toEqual([
      {
        id: 'unclosed_tag',
        severity: 'error',
        part: 'body',
        paragraph: 3,
        excerpt: 'Box: {amount',
      },
    ]);
  });

  it('double_brace_template: a { } template written with {{ }} throughout is one finding, not one per tag', () => {
    const found = lint(
      doc(
        para('{{#mutual}}Mutual {{/mutual}}Agreement') +
          para('Made on {{agreement_date}} between:') +
          para('{{company_name}}') +
          para('{{#mutual}}Both parties{{/mutual}}{{^mutual}}One party{{/mutual}} disclose.'),
      ),
    );
    expect(found.map(where)).toEqual([
      {
        id: 'double_brace_template',
        severity: 'error',
        part: 'body',
        paragraph: 1,
        excerpt: '{{#mutual}}Mutual…',
      },
    ]);
    expect(found[0]!.explanation).toBe(
      'The template writes its tags with double braces throughout (8 tags, the first "{{#mutual}}"), but it is read with single ones ({name}), so none of them is a tag. The broken tags and sections that follow from this one cause are not listed.',
    );
    expect(found[0]!.fix).toContain('"delimiters": "{{ }}"');
  });

  it('a { } template with one {{tag}} among single-brace tags names that slip alone', () => {
    const found = lint(doc(para('Dear {client},') + para('from {{sender}} and {{office}}')));
    expect(found.map((f) => f.id)).toEqual([
      'double_braces_in_single_brace_template',
      'double_braces_in_single_brace_template',
    ]);
  });
});

describe('lint: sections that will not render as meant', () => {
  it('section_crosses_cells names the text outside the section that goes with the row', () => {
    const found = lint(
      doc(table(row(cell('Name: {#show}{name}'), cell('{/show} rest'))) + para('')),
    );
    expect(found.map(where)).toEqual([
      {
        id: 'section_crosses_cells',
        severity: 'warning',
        part: 'body',
        paragraph: 1,
        excerpt: 'Name: {#show}{name}',
      },
    ]);
    expect(found[0]!.explanation).toBe(
      'The section {#show} opens in one table cell and closes in another ({/show} in ¶2), so docpipe repeats or removes the whole table row, and with them "Name: … rest", which is outside the section.',
    );
  });

  it('across rows, another cell of those rows counts too', () => {
    const found = lint(
      doc(
        table(
          row(cell('Header'), cell('Amount')),
          row(cell('Total so far'), cell('{#lines}{item}')),
          row(cell('{amount}{/lines}'), cell('Note')),
        ) + para(''),
      ),
    );
    expect(found.map((f) => [f.id, f.paragraph])).toEqual([['section_crosses_cells', 4]]);
    expect(found[0]!.explanation).toContain(
      'removes whole table rows, and with them "Total so far … Note", which is outside',
    );
  });

  it('a row section with nothing outside it is the usual table loop: no finding', () => {
    const found = lint(
      doc(table(row(cell('{#lines}{item}'), cell('{amount}{/lines}'))) + para('')),
    );
    expect(found).toEqual([]);
  });

  it('section_crosses_paragraphs: the text before and after would run together', () => {
    const found = lint(doc(para('Before {#extra}inside') + para('more{/extra} after')));
    expect(found.map(where)).toEqual([
      {
        id: 'section_crosses_paragraphs',
        severity: 'warning',
        part: 'body',
        paragraph: 1,
        excerpt: 'Before {#extra}inside',
      },
    ]);
    expect(found[0]!.explanation).toBe(
      'The section {#extra} closes in another paragraph ({/extra} in ¶2) but shares its paragraphs with other text: when the section is left out, "Before" and "after" run together into one paragraph, and a repeated section joins the end of each repetition to the start of the next.',
    );
  });

  it('a section whose tags are alone in their paragraphs repeats whole paragraphs: no finding', () => {
    expect(lint(doc(para('{#extra}') + para('inside') + para('{/extra}')))).toEqual([]);
  });

  it('one tag alone and the other not is still across paragraphs', () => {
    const found = lint(doc(para('{#extra}') + para('inside{/extra}')));
    expect(found.map((f) => [f.id, f.paragraph])).toEqual([['section_crosses_paragraphs', 1]]);
    expect(found[0]!.explanation).toContain('the two paragraphs become one');
  });
});
