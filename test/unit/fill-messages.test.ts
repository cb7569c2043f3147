import { describe, expect, it } from 'vitest';
import { fillTemplate, TemplateBrokenError } from '../../src/document/fill/index.js';
import { type FieldDeclarations, type TagInput } from '../../src/document/values/index.js';
import { lintTemplate } from '../../src/authoring/lint/index.js';
import { buildDocx, para, run } from '../helpers/docx-builder.js';
import { failure } from '../helpers/failure.js';
import { cell, doc, row, table, textBoxParagraph } from '../helpers/lint-docs.js';

/** The problems of a broken template, as fill reports them. */
function broken(bytes: Buffer, options: Parameters<typeof fillTemplate>[2] = {}) {
  let err: unknown;
  try {
    fillTemplate(bytes, [], options);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(TemplateBrokenError);
  const e = err as TemplateBrokenError;
  expect(e.slug).toBe('document-production-failed');
  return { problems: e.problems, messages: e.details.map((d) => d.message) };
}

describe('broken-template messages', () => {
  it('quote the tag and the text of its own paragraph, never the next ones, and name it', () => {
    // The tryout's quote: docxtemplater's tag ran on into "Signature" and "Name: {customer_s".
    const quote = buildDocx({
      body:
        para('Valid until 31 January 2025') +
        para('Accepted for {customer_name') +
        para('Signature') +
        para('Name: {customer_signer}'),
    });
    const { problems, messages } = broken(quote);
    expect(messages).toEqual([
      'The tag "{customer_name" is not closed: "}" is missing after it in body paragraph 2 (word/document.xml), near "Accepted for {customer_name"',
    ]);
    expect(problems.map((p) => [p.tag, p.paragraphs, p.excerpt])).toEqual([
      ['customer_name', [2], 'Accepted for {customer_name'],
    ]);
  });

  it('count paragraphs as lint does: table cells, text boxes, empty and split paragraphs, escaped text', () => {
    const bytes = doc(
      para('A & B: {x}') +
        table(row(cell('Name'), cell('{client'))) +
        textBoxParagraph('Box {boxed') +
        '<w:p/>' +
        `<w:p>${run('Split {ten')}${run('ant and more')}</w:p>` +
        para('{y}') +
        para('close}'),
      { title: '{title' },
    );
    const { problems, messages } = broken(bytes);
    expect(messages).toEqual([
      'The tag "{client" is not closed: "}" is missing after it in body paragraph 3 (word/document.xml), near "{client"',
      // Once, though Word keeps the text box twice (its fallback copy is paragraph 6).
      'The tag "{boxed" is not closed: "}" is missing after it in body paragraph 5 (word/document.xml), near "Box {boxed"',
      'The tag "{tenant" is not closed: "}" is missing after it in body paragraph 8 (word/document.xml), near "Split {tenant and more"',
      'The tag "close}" is not opened: "{" is missing before it in body paragraph 10 (word/document.xml), near "close}"',
      'The tag "{title" is not closed: "}" is missing after it in properties (docProps/core.xml), near "{title"',
    ]);
    const linted = lintTemplate(bytes, { fonts: false }).map((f) => [f.id, f.paragraph]);
    expect(linted).toEqual(problems.map((p) => [p.id, p.paragraphs?.[0] ?? null]));
  });

  it('locate a problem after escaped text in the same paragraph', () => {
    const { messages } = broken(buildDocx({ body: para('Terms & conditions <b> for {tenant') }));
    expect(messages).toEqual([
      'The tag "{tenant" is not closed: "}" is missing after it in body paragraph 1 (word/document.xml), near "…& conditions <b> for {tenant"',
    ]);
  });

  it('say that {{tag}} in a { } template looks like {{ }} delimiters, once, on the first', () => {
    const bytes = buildDocx({
      body: para('Total {{currency}}') + para('Dear {{name}, welcome'),
      header: para('{{case_no}}'),
    });
    expect(broken(bytes).messages).toEqual([
      'The tag "{{currency}}" opens with "{" twice in body paragraph 1 (word/document.xml), near "Total {{currency}}"; "{{currency}}" looks like a tag for "{{ }}" delimiters: if the template uses them, set "delimiters": "{{ }}" in its document.json or pass --delimiters "{{ }}"',
      'The tag "{{currency}}" closes with "}" twice in body paragraph 1 (word/document.xml), near "Total {{currency}}"',
      // Opened twice but closed once: a typing slip, not another syntax.
      'The tag "{{name}" opens with "{" twice in body paragraph 2 (word/document.xml), near "Dear {{name}, welcome"',
      'The tag "{{case_no}}" opens with "{" twice in header paragraph 1 (word/header1.xml), near "{{case_no}}"',
      'The tag "{{case_no}}" closes with "}" twice in header paragraph 1 (word/header1.xml), near "{{case_no}}"',
    ]);
  });

  it('say once that a template written with {{ }} is filled with { }, instead of twice per tag', () => {
    const bytes = buildDocx({
      body: para('{{#mutual}}Mutual {{/mutual}}Agreement') + para('Made on {{agreement_date}}'),
      header: para('{{case_no}}'),
    });
    const { problems, messages } = broken(bytes);
    expect(messages).toEqual([
      '4 tags are written with "{{ }}" delimiters, but the template is filled with "{ }", so each reads as a broken tag; the first is in body paragraph 1 (word/document.xml), near "{{#mutual}}Mutual {{/mutual}}Agreement"; if the template uses "{{ }}", set "delimiters": "{{ }}" in its document.json or pass --delimiters "{{ }}"; else write its tags {name}',
    ]);
    // The problems themselves stay docxtemplater's, for lint, which says the cause its own way.
    expect(problems.map((p) => p.id)).toEqual([
      'duplicate_open_tag',
      'duplicate_close_tag',
      'duplicate_open_tag',
      'duplicate_close_tag',
      'duplicate_open_tag',
      'duplicate_close_tag',
      'duplicate_open_tag',
      'duplicate_close_tag',
    ]);
  });

  it("give docxtemplater's explanation of other errors, with both paragraphs of a pair", () => {
    const bytes = buildDocx({ body: para('{#a}x') + para('y') + para('{/b}') });
    expect(broken(bytes).messages).toEqual([
      'The tag "a" is closed by the tag "b" in body paragraphs 1 and 3 (word/document.xml), near "{#a}x"',
    ]);
  });

  it('cut a long tag and a long paragraph', () => {
    const name = 'x'.repeat(60);
    const { messages } = broken(buildDocx({ body: para(`${'Intro '.repeat(10)}{${name} ends`) }));
    expect(messages).toEqual([
      `The tag "{${'x'.repeat(40)}" is not closed: "}" is missing after it in body paragraph 1 (word/document.xml), near "…Intro Intro Intro Intro {${'x'.repeat(40)}…"`,
    ]);
  });
});

describe('value messages name the TagInput and the value once', () => {
  const fields: FieldDeclarations = {
    quote_date: { type: 'date' },
    lines: { type: 'list', columns: { quantity: { type: 'number' } } },
  };
  const template = buildDocx({
    body:
      para('{quote_date} {#pets_allowed}Pets{/pets_allowed}') + para('{#lines}{quantity}{/lines}'),
  });
  const tags: TagInput[] = [
    { tag: 'quote_date', value: '2025-01-31', type: 'text' },
    { tag: 'pets_allowed', value: 'yes', type: 'boolean' },
    { tag: 'lines', type: 'list', value: [{ quantity: 'twenty-four' }] },
    { tag: 'nonexistent', value: 'x', type: 'text' },
  ];

  it('a single value, a list cell, a declared type and, strictly, a value without a field', () => {
    const err = failure(() => fillTemplate(template, tags, { fields, strict: true }));
    expect(err.slug).toBe('validation-failed');
    expect(err.details).toEqual([
      {
        field: 'tags[0].type',
        message:
          'tags[0] (quote_date): document.json declares this field "date"; send type "date", not "text"',
      },
      {
        field: 'tags[1].value',
        message:
          'tags[1] (pets_allowed): "yes" is not true or false (give JSON true or false, or "true" or "false")',
      },
      {
        field: 'tags[2].value[0].quantity',
        message:
          'tags[2] (lines[0].quantity): "twenty-four" is not a number; send a JSON number or a decimal string such as 45250.50',
      },
      {
        field: 'tags[3].tag',
        message:
          'tags[3] (nonexistent): the template has no such field (strict mode refuses values it would not show)',
      },
    ]);
  });
});
