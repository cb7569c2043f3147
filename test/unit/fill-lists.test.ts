import { describe, expect, it } from 'vitest';
import { DEFAULT_VALUE_LIMITS, tagListBoundProblems } from '../../src/document/values/index.js';
import { fillTemplate, templateCache, type FillOptions } from '../../src/document/fill/index.js';
import { documentText, templateFields } from '../../src/document/inspect/index.js';
import { jobDataProblems } from '../../src/jobs/queue/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { failure } from '../helpers/failure.js';

const bodyText = (docx: Buffer) =>
  documentText(docx)
    .filter((p) => p.part === 'body')
    .map((p) => p.text)
    .join('');

const cell = (text: string) =>
  `<w:tc><w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p></w:tc>`;
const row = (...cells: string[]) => `<w:tr>${cells.map(cell).join('')}</w:tr>`;
const table = (...rows: string[]) => `<w:tbl>${rows.join('')}</w:tbl>`;

/** A quote: a table whose second row repeats per line, and a paragraph for no lines. */
const quote = buildDocx({
  body:
    para('Quote for {client}') +
    table(
      row('Item', 'Amount'),
      row('{#lines}{description}', '{amount} {currency}{#vat} +VAT{/vat}{/lines}'),
    ) +
    para('{^lines}No lines{/lines}'),
});

const lines = (value: unknown) => ({ tag: 'lines', type: 'list', value });
const client = { tag: 'client', value: 'ACME', type: 'text' };
const currency = { tag: 'currency', value: 'kr.', type: 'text' };

/** The fields of a failure, and its messages by field. */
function problemsOf(fn: () => unknown): Record<string, string> {
  const err = failure(fn);
  expect(err.slug).toBe('validation-failed');
  return Object.fromEntries(err.details.map((d) => [d.field, d.message]));
}

describe('list values fill loops', () => {
  it("repeats a table row per member, each cell formatted, a row's missing tag taken from outside", () => {
    const out = fillTemplate(quote, [
      client,
      currency,
      lines([
        {
          description: 'Consulting',
          amount: { value: 1200, type: 'number', format: '#,##0.00' },
          vat: { value: true, type: 'boolean' },
        },
        { description: 'Travel', amount: { value: '350.5', type: 'number' }, vat: false },
        { description: 'Hotel', amount: 99, currency: 'EUR', vat: true },
      ]),
    ]).docx;
    expect(bodyText(out)).toBe(
      'Quote for ACME\nItem\nAmount\n' +
        'Consulting\n1.200,00 kr. +VAT\n' +
        'Travel\n350,5 kr.\n' +
        'Hotel\n99 EUR +VAT\n\n',
    );
  });

  it('shows {^lines} for an empty list and needs nothing inside the loop', () => {
    const out = fillTemplate(quote, [client, lines([])]).docx;
    expect(bodyText(out)).toBe('Quote for ACME\nItem\nAmount\nNo lines\n');
  });

  it('repeats paragraphs, and formats cells in the locale', () => {
    const docx = buildDocx({
      body: para('{#items}') + para('- {name}: {price}') + para('{/items}'),
    });
    const value = [
      { name: 'Desk', price: { value: 1234.5, type: 'number', format: '#,##0.00' } },
      { name: 'Lamp', price: { value: '2025-03-05', type: 'date', format: 'D MMMM YYYY' } },
    ];
    const da = fillTemplate(docx, [{ tag: 'items', type: 'list', value }]).docx;
    expect(bodyText(da)).toBe('- Desk: 1.234,50\n- Lamp: 5 marts 2025\n');
    const en = fillTemplate(docx, [{ tag: 'items', type: 'list', value }], { locale: 'en' }).docx;
    expect(bodyText(en)).toBe('- Desk: 1,234.50\n- Lamp: 5 March 2025\n');
  });

  it('nests a list in a typed cell, each level with its own rows', () => {
    const docx = buildDocx({
      body: para('{#groups}{title}: {#items}{name} x{qty} {/items}| {/groups}'),
    });
    const groups = [
      {
        title: 'A',
        items: {
          type: 'list',
          value: [
            { name: 'pen', qty: { value: 2, type: 'number' } },
            { name: 'ink', qty: { value: 1, type: 'number' } },
          ],
        },
      },
      { title: 'B', items: { type: 'list', value: [] } },
    ];
    const out = fillTemplate(docx, [{ tag: 'groups', type: 'list', value: groups }]).docx;
    expect(bodyText(out)).toBe('A: pen x2 ink x1 | B: | \n');
  });

  it('uses a plain JSON boolean as a boolean, so a {#flag} on false stays hidden', () => {
    const docx = buildDocx({ body: para('{#rows}{name}{#paid} (paid){/paid}; {/rows}') });
    const out = fillTemplate(docx, [
      {
        tag: 'rows',
        type: 'list',
        value: [
          { name: 'a', paid: false },
          { name: 'b', paid: true },
          { name: 'c', paid: 'false' },
        ],
      },
    ]).docx;
    // "false" as a string is text, and a non-empty text is true: as for any text value.
    expect(bodyText(out)).toBe('a; b (paid); c (paid); \n');
  });

  it('renders a cached compiled template with lists again exactly as a fresh compile', () => {
    const tags = (n: number) => [
      client,
      currency,
      lines(
        Array.from({ length: n }, (_, i) => ({ description: `line ${i}`, amount: i, vat: false })),
      ),
    ];
    templateCache.clear();
    fillTemplate(quote, tags(3));
    const again = fillTemplate(quote, tags(1)).docx;
    expect(templateCache.hits).toBeGreaterThan(0);
    templateCache.clear();
    const fresh = fillTemplate(quote, tags(1)).docx;
    expect(Buffer.compare(again, fresh)).toBe(0);
    expect(bodyText(again)).toContain('line 0\n0 kr.\n');
    expect(bodyText(again)).not.toContain('line 1');
  });
});

describe('list values: field paths, every problem at once', () => {
  it('names each bad cell by its path: typed cells, plain cells, rows and members', () => {
    const problems = problemsOf(() =>
      fillTemplate(quote, [
        client,
        currency,
        lines([
          {
            description: 'ok',
            amount: { value: 'abc', type: 'number' },
            vat: { value: true, type: 'colour' },
          },
          'not a row',
          {
            description: ['x'],
            amount: { value: 1, type: 'number', format: 'QQ', note: 1 },
            vat: { type: 'boolean' },
          },
          { description: 'x', ' description': 'y', amount: 1, vat: false },
        ]),
      ]),
    );
    expect(problems).toEqual({
      'tags[2].value[0].amount.value':
        'tags[2] (lines[0].amount): "abc" is not a number; send a JSON number or a decimal string such as 45250.50',
      'tags[2].value[0].vat.type':
        'tags[2] (lines[0].vat): unknown type "colour" (one of text, number, date, boolean, list)',
      'tags[2].value[1]':
        'tags[2] (lines[1]): "not a row" is not a row; a row is an object of cells by name',
      'tags[2].value[2].description':
        'tags[2] (lines[2].description): an array is not a cell; a list in a row is a typed cell {"value": [...], "type": "list"}',
      'tags[2].value[2].amount.note':
        'tags[2] (lines[2].amount): unknown field "note" (a typed cell has value, type and format; other values are plain text, numbers, booleans or null)',
      'tags[2].value[2].vat.value': 'tags[2] (lines[2].vat): value is required (null for empty)',
      'tags[2].value[3]. description':
        'tags[2] (lines[3]): "description" is given twice in this row',
    });
  });

  it('refuses a list value that is not an array, and a format on a list', () => {
    const problems = problemsOf(() =>
      fillTemplate(quote, [
        client,
        { tag: 'lines', type: 'list', value: { description: 'x' } },
        { tag: 'other', type: 'list', value: [], format: '#' },
      ]),
    );
    expect(problems).toEqual({
      'tags[1].value':
        "tags[1] (lines): a list's value is an array of rows (objects); got an object",
      'tags[2].format': 'tags[2] (other): a list takes no format',
    });
  });

  it('names a value problem in a nested list by its full path', () => {
    const docx = buildDocx({ body: para('{#groups}{#items}{qty}{/items}{/groups}') });
    const problems = problemsOf(() =>
      fillTemplate(docx, [
        {
          tag: 'groups',
          type: 'list',
          value: [
            { items: { type: 'list', value: [{ qty: 1 }] } },
            {
              items: { type: 'list', value: [{ qty: 1 }, { qty: { value: 'x', type: 'number' } }] },
            },
          ],
        },
      ]),
    );
    expect(Object.keys(problems)).toEqual(['tags[0].value[1].items.value[1].qty.value']);
    expect(problems['tags[0].value[1].items.value[1].qty.value']).toMatch(
      /^tags\[0\] \(groups\[1\]\.items\[1\]\.qty\): "x" is not a number/,
    );
  });

  it('names a cell the template shows that neither the row nor the values outside have', () => {
    const problems = problemsOf(() =>
      fillTemplate(quote, [
        client,
        lines([
          { description: 'a', amount: 1, vat: false, currency: 'EUR' },
          { description: 'b', vat: true },
        ]),
      ]),
    );
    expect(problems).toEqual({
      'tags[1].value[1].amount': 'tags[1] (lines[1]): the row has no amount; the template shows it',
      'tags[1].value[1].currency':
        'tags[1] (lines[1]): the row has no currency; the template shows it',
    });
  });

  it('needs no cell inside a section the row hides, nor inside a hidden loop', () => {
    const docx = buildDocx({
      body: para('{#show}{#lines}{name}{#priced}: {price}{/priced}, {/lines}{/show}.'),
    });
    const value = [
      { name: 'a', priced: false },
      { name: 'b', priced: true, price: 2 },
    ];
    const shown = fillTemplate(docx, [
      { tag: 'show', value: true, type: 'boolean' },
      { tag: 'lines', type: 'list', value },
    ]).docx;
    expect(bodyText(shown)).toBe('a, b: 2, .\n');
    const hidden = fillTemplate(docx, [
      { tag: 'show', value: false, type: 'boolean' },
      { tag: 'lines', type: 'list', value: [{}] },
    ]).docx;
    expect(bodyText(hidden)).toBe('.\n');
  });

  it('refuses a list shown as a placeholder, top level or nested, naming the loop to use', () => {
    const docx = buildDocx({
      body: para('{lines} {#lines}{items}{/lines}') + para('{@lines}'),
    });
    const problems = problemsOf(() =>
      fillTemplate(docx, [lines([{ items: { type: 'list', value: [{ a: 1 }] } }])]),
    );
    expect(problems).toEqual({
      'tags[0]':
        'tags[0] (lines): the template shows this list as a placeholder ({lines}), but a list fills a loop: {#lines}...{/lines}',
      'tags[0].value[0].items':
        'tags[0] (lines[0].items): the template shows this list as a placeholder ({items}), but a list fills a loop: {#items}...{/items}',
    });
  });

  it("says so with the template's delimiters, and for a raw tag", () => {
    const docx = buildDocx({ body: para('{{@lines}}') });
    const problems = problemsOf(() =>
      fillTemplate(docx, [lines([])], { delimiters: { start: '{{', end: '}}' } }),
    );
    expect(problems).toEqual({
      'tags[0]':
        'tags[0] (lines): the template shows this list as a placeholder ({{@lines}}), but a list fills a loop: {{#lines}}...{{/lines}}',
    });
  });

  it('reports list problems, other values and missing tags together, under the document path', () => {
    const err = failure(() =>
      fillTemplate(
        quote,
        [
          { tag: 'currency', value: 5, type: 'date' },
          lines([{ description: 'a', amount: { value: 'x', type: 'number' }, vat: true }]),
        ],
        { field: 'documents[1]' },
      ),
    );
    expect(err.details.map((d) => d.field)).toEqual([
      'documents[1].tags[0].value',
      'documents[1].tags[1].value[0].amount.value',
      'documents[1].tags.client',
    ]);
  });
});

describe('list values: limits', () => {
  it('refuses a list of 100,000 rows by its length, without reading a row', () => {
    let read = 0;
    const rows = new Proxy(new Array<object>(100_000).fill({}), {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) read++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const problems = problemsOf(() => fillTemplate(quote, [client, lines(rows)]));
    expect(problems).toEqual({
      'tags[1].value':
        'tags[1] (lines): 100000 rows bring the tag list past 1000 TagInputs and list rows together (DOCPIPE_MAX_TAGS); send fewer rows',
    });
    expect(read).toBe(0);
  });

  it('counts rows, nested ones included, with the TagInputs against DOCPIPE_MAX_TAGS', () => {
    const values = { ...DEFAULT_VALUE_LIMITS, maxTags: 4 };
    const options: FillOptions = { values };
    const docx = buildDocx({ body: para('{#l}{a}{/l}') });
    const rowsOf = (n: number) => Array.from({ length: n }, () => ({ a: 'x' }));
    // One TagInput and three rows: four.
    const three = fillTemplate(docx, [{ tag: 'l', type: 'list', value: rowsOf(3) }], options);
    expect(bodyText(three.docx)).toBe('xxx\n');
    expect(
      problemsOf(() => fillTemplate(docx, [{ tag: 'l', type: 'list', value: rowsOf(4) }], options)),
    ).toEqual({
      'tags[0].value':
        'tags[0] (l): 4 rows bring the tag list past 4 TagInputs and list rows together (DOCPIPE_MAX_TAGS); send fewer rows',
    });
    const nested = [{ a: 'x', n: { type: 'list', value: rowsOf(2) } }, { a: 'y' }];
    expect(
      problemsOf(() => fillTemplate(docx, [{ tag: 'l', type: 'list', value: nested }], options)),
    ).toEqual({
      'tags[0].value':
        'tags[0] (l): its rows (nested lists included) bring the tag list past 4 TagInputs and list rows together (DOCPIPE_MAX_TAGS); send fewer rows',
    });
  });

  it('bounds cells by the value and list character limits', () => {
    const docx = buildDocx({ body: para('{#l}{a}{/l}') });
    const long = 'y'.repeat(11);
    const small = { ...DEFAULT_VALUE_LIMITS, maxValueChars: 10 };
    expect(
      problemsOf(() =>
        fillTemplate(docx, [{ tag: 'l', type: 'list', value: [{ a: long }] }], { values: small }),
      ),
    ).toEqual({
      'tags[0].value[0].a':
        'tags[0] (l[0].a): formatted, it has 11 characters; a value may have at most 10 (DOCPIPE_MAX_VALUE_CHARS)',
    });
    const chars = { ...DEFAULT_VALUE_LIMITS, maxTagsChars: 200 };
    const many = Array.from({ length: 30 }, () => ({ a: 'abcdef' }));
    const err = failure(() =>
      fillTemplate(docx, [{ tag: 'l', type: 'list', value: many }], { values: chars }),
    );
    expect(err.details).toEqual([
      {
        field: 'tags[0]',
        message:
          'tags[0] (l): the tag list passes its limit of 200 characters here (DOCPIPE_MAX_TAGS_CHARS); send fewer or shorter values',
      },
    ]);
  });

  it('refuses bidi controls in a cell, as in any value', () => {
    const docx = buildDocx({ body: para('{#l}{a}{/l}') });
    const problems = problemsOf(() =>
      fillTemplate(docx, [{ tag: 'l', type: 'list', value: [{ a: 'abc\u202Egpj.exe' }] }]),
    );
    expect(Object.keys(problems)).toEqual(['tags[0].value[0].a']);
    expect(problems['tags[0].value[0].a']).toMatch(/right-to-left override \(U\+202E\)/);
  });

  it('refuses lists nested past the depth limit by their tag, with a message for lists', () => {
    let value: unknown = [{ a: 'x' }];
    for (let i = 0; i < 10; i++) value = [{ n: { type: 'list', value } }];
    const problems = problemsOf(() =>
      fillTemplate(buildDocx({ body: para('{#l}{a}{/l}') }), [{ tag: 'l', type: 'list', value }]),
    );
    expect(Object.values(problems)).toEqual([
      "tags[0] (l): nested more than 16 levels deep; a list's rows hold cells, and a cell holds a value or another list",
    ]);
  });

  it("passes the queue's job contract, which counts rows the same way", () => {
    const good = { v: 1, field: 'documents[0]', name: 'Quote', source: { inline: 'UEsDBA==' } };
    const tags = [client, lines([{ description: 'a', amount: { value: 1, type: 'number' } }])];
    expect(jobDataProblems({ ...good, tags })).toEqual([]);
    const many = [lines(Array.from({ length: 1000 }, () => ({})))];
    expect(tagListBoundProblems(many, DEFAULT_VALUE_LIMITS, 'tags')).toEqual([
      {
        field: 'tags[0].value',
        message:
          'tags[0] (lines): 1000 rows bring the tag list past 1000 TagInputs and list rows together (DOCPIPE_MAX_TAGS); send fewer rows',
      },
    ]);
  });
});

describe('list values: strict mode', () => {
  it('refuses columns no loop shows, once each, and accepts the ones it does', () => {
    const value = [
      { description: 'a', amount: 1, vat: false, colour: 'red' },
      { description: 'b', amount: 2, vat: false, colour: 'blue', size: 3 },
    ];
    expect(
      problemsOf(() => fillTemplate(quote, [client, currency, lines(value)], { strict: true })),
    ).toEqual({
      'tags[2].value[0].colour':
        'tags[2] (lines[0].colour): the template does not show the column lines[].colour inside its loop (strict mode refuses values it would not show)',
      'tags[2].value[1].size':
        'tags[2] (lines[1].size): the template does not show the column lines[].size inside its loop (strict mode refuses values it would not show)',
    });
    // Without strict mode the extra columns are ignored.
    expect(bodyText(fillTemplate(quote, [client, currency, lines(value)]).docx)).toContain(
      'a\n1 kr.',
    );
  });

  it('checks a nested list against its own loop', () => {
    const docx = buildDocx({ body: para('{#groups}{#items}{name}{/items}{/groups}') });
    const value = [{ items: { type: 'list', value: [{ name: 'a', extra: 1 }] } }];
    expect(
      problemsOf(() =>
        fillTemplate(docx, [{ tag: 'groups', type: 'list', value }], { strict: true }),
      ),
    ).toEqual({
      'tags[0].value[0].items.value[0].extra':
        'tags[0] (groups[0].items[0].extra): the template does not show the column groups[].items[].extra inside its loop (strict mode refuses values it would not show)',
    });
  });
});

describe('fields of a template with loops', () => {
  it('lists the tags a loop holds under it, and keeps every tag in the flat list', () => {
    const fields = templateFields(quote);
    expect(fields.map((f) => [f.tag, f.within])).toEqual([
      ['client', []],
      ['lines', []],
      ['description', ['lines']],
      ['amount', ['lines']],
      ['currency', ['lines']],
      ['vat', ['lines']],
    ]);
    expect(fields.find((f) => f.tag === 'lines')?.inner).toEqual([
      { tag: 'description', kind: 'placeholder', usedAs: ['placeholder'], count: 1 },
      { tag: 'amount', kind: 'placeholder', usedAs: ['placeholder'], count: 1 },
      { tag: 'currency', kind: 'placeholder', usedAs: ['placeholder'], count: 1 },
      { tag: 'vat', kind: 'section', usedAs: ['section'], count: 1 },
    ]);
    // A field that holds no tags has no inner member: output without loops is as before.
    expect(fields.find((f) => f.tag === 'client')).not.toHaveProperty('inner');
    expect(fields.find((f) => f.tag === 'vat')).not.toHaveProperty('inner');
  });

  it('nests inner fields as the sections nest', () => {
    const docx = buildDocx({ body: para('{#groups}{title}{#items}{name}{/items}{/groups}') });
    expect(templateFields(docx)[0]?.inner).toEqual([
      { tag: 'title', kind: 'placeholder', usedAs: ['placeholder'], count: 1 },
      {
        tag: 'items',
        kind: 'section',
        usedAs: ['section'],
        count: 1,
        inner: [{ tag: 'name', kind: 'placeholder', usedAs: ['placeholder'], count: 1 }],
      },
    ]);
  });
});
