import { describe, expect, it } from 'vitest';
import { fieldsTable } from '../../src/surfaces/cli/commands/fields.js';
import { fillTemplate } from '../../src/document/fill/index.js';
import { type FieldDeclarations } from '../../src/document/values/index.js';
import { documentText, templateFields } from '../../src/document/inspect/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { failure } from '../helpers/failure.js';

const bodyText = (docx: Buffer) =>
  documentText(docx)
    .filter((p) => p.part === 'body')
    .map((p) => p.text)
    .join('');

/** The shared plan's example document.json fields. */
const fields: FieldDeclarations = {
  start_date: { type: 'date', format: 'D. MMMM YYYY', description: 'first working day' },
  salary: { type: 'number', format: '#,##0.00 kr.' },
  lines: {
    type: 'list',
    columns: {
      description: { type: 'text' },
      quantity: { type: 'number', format: '#,##0' },
      amount: { type: 'number', format: '#,##0.00' },
      vat: { type: 'boolean', format: 'incl. VAT|excl. VAT' },
    },
  },
};

const contract = buildDocx({
  body:
    para('Starts {start_date} at {salary}.') +
    para('{#lines}{description}: {quantity} x {amount} ({vat}); {/lines}'),
});

function problemsOf(fn: () => unknown): Record<string, string> {
  const err = failure(fn);
  expect(err.slug).toBe('validation-failed');
  return Object.fromEntries(err.details.map((d) => [d.field, d.message]));
}

describe('declared fields', () => {
  it('refuses a TagInput whose type is not the declared one, with the rest', () => {
    const problems = problemsOf(() =>
      fillTemplate(
        contract,
        [
          { tag: 'salary', value: 1, type: 'number' },
          { tag: 'lines', value: [], type: 'list' },
          { tag: 'start_date', value: '2025-03-05', type: 'text' },
        ],
        { fields },
      ),
    );
    expect(problems).toEqual({
      'tags[2].type':
        'tags[2] (start_date): document.json declares this field "date"; send type "date", not "text"',
    });
  });

  it("uses the declared format when a TagInput gives none, and the TagInput's own when it does", () => {
    const tags = [
      { tag: 'start_date', value: '2025-03-05', type: 'date' },
      { tag: 'salary', value: 45250.5, type: 'number' },
      { tag: 'lines', value: [], type: 'list' },
    ];
    // The empty list's inline loop leaves its paragraph, empty.
    expect(bodyText(fillTemplate(contract, tags, { fields }).docx)).toBe(
      'Starts 5. marts 2025 at 45.250,50 kr..\n\n',
    );
    const own = [{ ...tags[0]!, format: 'DD-MM-YYYY' }, tags[1]!, tags[2]!];
    expect(bodyText(fillTemplate(contract, own, { fields }).docx)).toBe(
      'Starts 05-03-2025 at 45.250,50 kr..\n\n',
    );
    // Without declarations the locale's defaults are used, as before.
    expect(bodyText(fillTemplate(contract, tags).docx)).toBe(
      'Starts 5. marts 2025 at 45.250,5.\n\n',
    );
  });

  it("types a list's plain cells by their columns, with the columns' formats", () => {
    const tags = [
      { tag: 'start_date', value: '2025-03-05', type: 'date' },
      { tag: 'salary', value: 1, type: 'number' },
      {
        tag: 'lines',
        type: 'list',
        value: [
          { description: 'Consulting', quantity: 1200, amount: '1200.5', vat: true },
          {
            description: 'Travel',
            quantity: 1,
            amount: { value: 350.5, type: 'number', format: '0.0' },
            vat: 'false',
          },
        ],
      },
    ];
    expect(bodyText(fillTemplate(contract, tags, { fields }).docx)).toBe(
      'Starts 5. marts 2025 at 1,00 kr..\n' +
        'Consulting: 1.200 x 1.200,50 (incl. VAT); Travel: 1 x 350,5 (excl. VAT); \n',
    );
  });

  it('refuses cells that do not parse as their column, and typed cells of another type', () => {
    const problems = problemsOf(() =>
      fillTemplate(
        contract,
        [
          { tag: 'start_date', value: '2025-03-05', type: 'date' },
          { tag: 'salary', value: 1, type: 'number' },
          {
            tag: 'lines',
            type: 'list',
            value: [
              { description: 'a', quantity: 'many', amount: 1, vat: true },
              { description: 'b', quantity: 1, amount: { value: '1', type: 'text' }, vat: true },
            ],
          },
        ],
        { fields },
      ),
    );
    expect(problems).toEqual({
      'tags[2].value[0].quantity':
        'tags[2] (lines[0].quantity): "many" is not a number; send a JSON number or a decimal string such as 45250.50',
      'tags[2].value[1].amount.type':
        'tags[2] (lines[1].amount): document.json declares the column lines[].amount "number"; send type "number", not "text"',
    });
  });

  it('refuses a plain value in a column declared as a list', () => {
    const declared: FieldDeclarations = {
      groups: {
        type: 'list',
        columns: { items: { type: 'list', columns: { qty: { type: 'number', format: '0.00' } } } },
      },
    };
    const docx = buildDocx({ body: para('{#groups}{#items}{qty} {/items}{/groups}') });
    const problems = problemsOf(() =>
      fillTemplate(docx, [{ tag: 'groups', type: 'list', value: [{ items: 'x' }] }], {
        fields: declared,
      }),
    );
    expect(problems).toEqual({
      'tags[0].value[0].items':
        'tags[0] (groups[0].items): document.json declares the column groups[].items "list"; send a typed cell {"value": [...], "type": "list"}',
    });
    // A nested list's plain cells take the nested columns' types.
    const value = [{ items: { type: 'list', value: [{ qty: 2 }, { qty: '3.5' }] } }];
    const out = fillTemplate(docx, [{ tag: 'groups', type: 'list', value }], { fields: declared });
    expect(bodyText(out.docx)).toBe('2,00 3,50 \n');
  });

  it('makes no value required beyond what the template shows', () => {
    const docx = buildDocx({ body: para('Hello {name}') });
    const out = fillTemplate(docx, [{ tag: 'name', value: 'Bo', type: 'text' }], { fields });
    expect(bodyText(out.docx)).toBe('Hello Bo\n');
    // A declared field the template shows still needs its value, named as before.
    expect(problemsOf(() => fillTemplate(contract, [], { fields }))).toEqual({
      'tags.start_date': 'start_date needs a value: the template shows this field',
      'tags.salary': 'salary needs a value: the template shows this field',
      'tags.lines': 'lines needs a value: the template shows this field',
    });
  });

  it('suggests the declared field or the value a misspelt tag meant', () => {
    const docx = buildDocx({ body: para('Dear {client_nmae},') });
    const declared: FieldDeclarations = { client_name: { type: 'text' } };
    expect(problemsOf(() => fillTemplate(docx, [], { fields: declared }))).toEqual({
      'tags.client_nmae':
        'client_nmae needs a value: the template shows this field (did you mean "client_name"?)',
    });
    const sent = [{ tag: 'client_name', value: 'Ada', type: 'text' as const }];
    expect(problemsOf(() => fillTemplate(docx, sent))).toEqual({
      'tags.client_nmae':
        'client_nmae needs a value: the template shows this field (did you mean "client_name"?)',
    });
  });

  it('never takes a declaration from Object itself', () => {
    const docx = buildDocx({ body: para('{constructor} {toString}') });
    const out = fillTemplate(
      docx,
      [
        { tag: 'constructor', value: 'a', type: 'text' },
        { tag: 'toString', value: 'b', type: 'text' },
      ],
      { fields: {} },
    );
    expect(bodyText(out.docx)).toBe('a b\n');
  });

  it('refuses declarations that cannot be used, every problem at once', () => {
    const bad = {
      a: { type: 'number', format: '#,##0.00.0' },
      b: { type: 'money' },
      c: { type: 'text', columns: {} },
      d: { type: 'list', format: '#', columns: { e: { type: 'date', format: 'QQ' }, f: 1 } },
      g: { type: 'text', format: 'x', colour: 'red' },
    } as unknown as FieldDeclarations;
    const err = failure(() => fillTemplate(contract, [], { fields: bad }));
    expect(err.slug).toBe('validation-failed');
    expect(err.details.map((d) => d.field)).toEqual([
      'fields.a.format',
      'fields.b.type',
      'fields.c.columns',
      'fields.d.format',
      'fields.g.colour',
      'fields.g.format',
      'fields.d.columns.e.format',
      'fields.d.columns.f',
    ]);
    expect(err.details.find((d) => d.field === 'fields.b.type')?.message).toBe(
      '"money" is not one of text, number, date, boolean, list',
    );
  });
});

describe('fields with declarations', () => {
  it('gives each field its declared type and format, and a list its columns by path', () => {
    const got = templateFields(contract, { fields });
    expect(got.find((f) => f.tag === 'start_date')).toMatchObject({
      type: 'date',
      format: 'D. MMMM YYYY',
      description: 'first working day',
    });
    const list = got.find((f) => f.tag === 'lines');
    expect(list?.type).toBe('list');
    expect(list?.inner).toEqual([
      {
        tag: 'description',
        kind: 'placeholder',
        usedAs: ['placeholder'],
        count: 1,
        path: 'lines[].description',
        type: 'text',
      },
      {
        tag: 'quantity',
        kind: 'placeholder',
        usedAs: ['placeholder'],
        count: 1,
        path: 'lines[].quantity',
        type: 'number',
        format: '#,##0',
      },
      {
        tag: 'amount',
        kind: 'placeholder',
        usedAs: ['placeholder'],
        count: 1,
        path: 'lines[].amount',
        type: 'number',
        format: '#,##0.00',
      },
      {
        tag: 'vat',
        kind: 'placeholder',
        usedAs: ['placeholder'],
        count: 1,
        path: 'lines[].vat',
        type: 'boolean',
        format: 'incl. VAT|excl. VAT',
      },
    ]);
    // Without declarations nothing is typed: the output is as it was.
    expect(templateFields(contract).some((f) => 'type' in f)).toBe(false);
  });

  it("types a loop's tag from outside when it is not a column, and nested columns by path", () => {
    const docx = buildDocx({
      body: para('{#groups}{title} {salary} {#items}{qty}{/items}{/groups}'),
    });
    const declared: FieldDeclarations = {
      salary: { type: 'number' },
      groups: {
        type: 'list',
        columns: { items: { type: 'list', columns: { qty: { type: 'number', format: '0' } } } },
      },
    };
    const inner = templateFields(docx, { fields: declared })[0]?.inner;
    expect(inner).toEqual([
      { tag: 'title', kind: 'placeholder', usedAs: ['placeholder'], count: 1 },
      { tag: 'salary', kind: 'placeholder', usedAs: ['placeholder'], count: 1, type: 'number' },
      {
        tag: 'items',
        kind: 'section',
        usedAs: ['section'],
        count: 1,
        path: 'groups[].items',
        type: 'list',
        inner: [
          {
            tag: 'qty',
            kind: 'placeholder',
            usedAs: ['placeholder'],
            count: 1,
            path: 'groups[].items[].qty',
            type: 'number',
            format: '0',
          },
        ],
      },
    ]);
  });

  it("lists a declared list's columns under the list only, nested ones too, and keeps the other tags", () => {
    const docx = buildDocx({
      body: para('{#groups}{title} {salary} {#items}{qty}{/items}{/groups}{#vip}{note}{/vip}'),
    });
    const declared: FieldDeclarations = {
      salary: { type: 'number' },
      vip: { type: 'boolean' },
      note: { type: 'text' },
      groups: {
        type: 'list',
        columns: { items: { type: 'list', columns: { qty: { type: 'number', format: '0' } } } },
      },
    };
    // items and qty are columns (of groups, of items); title is not, so it comes from outside
    // the list; salary and note are values of their own, wherever they sit.
    const top = (fields?: FieldDeclarations) =>
      templateFields(docx, fields ? { fields } : {}).map((f) => `${f.tag} ${f.within.join('/')}`);
    expect(top(declared)).toEqual(['groups ', 'title groups', 'salary groups', 'vip ', 'note vip']);
    // Without declarations nothing says which section is a list: every tag is listed.
    expect(top()).toEqual([
      'groups ',
      'title groups',
      'salary groups',
      'items groups',
      'qty groups/items',
      'vip ',
      'note vip',
    ]);
  });

  it('shows loops in the table with their inner fields indented, typed when declared', () => {
    expect(fieldsTable(templateFields(contract, { fields })).split('\n')).toEqual([
      'TAG                    KIND         TYPE     FORMAT               COUNT  PARTS',
      'start_date             placeholder  date     D. MMMM YYYY             1  body',
      'salary                 placeholder  number   #,##0.00 kr.             1  body',
      'lines                  section      list                              1  body',
      '  lines[].description  placeholder  text                              1',
      '  lines[].quantity     placeholder  number   #,##0                    1',
      '  lines[].amount       placeholder  number   #,##0.00                 1',
      '  lines[].vat          placeholder  boolean  incl. VAT|excl. VAT      1',
      '',
    ]);
    // Without declarations: no TYPE and FORMAT columns, and inner fields by their tag.
    expect(fieldsTable(templateFields(contract)).split('\n')).toEqual([
      'TAG            KIND         COUNT  PARTS',
      'start_date     placeholder      1  body',
      'salary         placeholder      1  body',
      'lines          section          1  body',
      '  description  placeholder      1',
      '  quantity     placeholder      1',
      '  amount       placeholder      1',
      '  vat          placeholder      1',
      '',
    ]);
  });
});
