import { describe, expect, it } from 'vitest';
import {
  DEFAULT_VALUE_LIMITS,
  resolveTagInputs,
  tagListBoundProblems,
  type ValueLimits,
} from '../../src/document/values/index.js';
import { fillTemplate } from '../../src/document/fill/index.js';
import { resolveLocale, type ResolvedLocale } from '../../src/document/values/locale.js';
import { documentText } from '../../src/document/inspect/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { failure } from '../helpers/failure.js';

const ctx = (values: Partial<ValueLimits> = {}, timeZone = 'Europe/Copenhagen') => ({
  locale: resolveLocale('da') as ResolvedLocale,
  timeZone,
  values: { ...DEFAULT_VALUE_LIMITS, ...values },
});

/** Resolves one TagInput named `t` and returns its text and problems. */
const one = (input: object, values: Partial<ValueLimits> = {}, timeZone?: string) => {
  const r = resolveTagInputs([{ tag: 't', ...input }], ctx(values, timeZone));
  return { text: r.values.get('t')?.text, problems: r.problems, refused: r.refused };
};

const bodyText = (docx: Buffer) =>
  documentText(docx)
    .filter((p) => p.part === 'body')
    .map((p) => p.text)
    .join('');

/** An array nested `levels` deep around a string, built without recursion. */
function nested(levels: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

describe('bidi controls: what a signer reads is what was sent', () => {
  it('refuses a right-to-left override in a text value, naming the tag, the character and where', () => {
    const r = resolveTagInputs(
      [
        { tag: 'a', value: 'ok', type: 'text' },
        { tag: 'b', value: 'ok', type: 'text' },
        { tag: 'file_name', value: 'abc\u202egpj.exe', type: 'text' },
      ],
      ctx(),
    );
    expect(r.problems).toEqual([
      {
        field: 'tags[2].value',
        message:
          'tags[2] (file_name): contains a right-to-left override (U+202E) at character 4, which reorders what the signer reads; remove it',
      },
    ]);
  });

  it.each([
    ['\u202a', 'left-to-right embedding (U+202A)'],
    ['\u202b', 'right-to-left embedding (U+202B)'],
    ['\u202c', 'pop directional formatting (U+202C)'],
    ['\u202d', 'left-to-right override (U+202D)'],
    ['\u2066', 'left-to-right isolate (U+2066)'],
    ['\u2067', 'right-to-left isolate (U+2067)'],
    ['\u2068', 'first strong isolate (U+2068)'],
    ['\u2069', 'pop directional isolate (U+2069)'],
  ])('refuses %j by name', (control, named) => {
    expect(one({ type: 'text', value: `\u{1F600}x${control}y` }).problems).toEqual([
      {
        field: 'tags[0].value',
        message: `tags[0] (t): contains a ${named} at character 3, which reorders what the signer reads; remove it`,
      },
    ]);
  });

  it('keeps the marks right-to-left text needs (U+200E, U+200F, U+061C)', () => {
    const value = 'שלום\u200f 12\u200e \u061cمرحبا';
    expect(one({ type: 'text', value })).toMatchObject({ text: value, problems: [] });
  });

  it.each([
    ['boolean', true, '\u202eaJ|Nej'],
    ['number', 1, "0 'kr\u202e'"],
    ['number', 1, '0 kr\u2067'],
    ['date', '2025-03-05', 'D. MMMM YYYY [\u202ekl]'],
    ['date', '2025-03-05', 'DD\u2066MM'],
  ])('refuses a bidi control in a %s format, on the format', (type, value, format) => {
    const { problems } = one({ type, value, format });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      field: 'tags[0].format',
      message: expect.stringMatching(/^tags\[0\] \(t\): format contains a .* \(U\+20(2E|67|66)\)/),
    });
  });

  it('allows them when configured, into the document unchanged', () => {
    const value = 'abc\u202egpj.exe';
    expect(one({ type: 'text', value }, { allowBidiControls: true })).toMatchObject({
      text: value,
      problems: [],
    });
    const template = buildDocx({ body: para('File: {file}') });
    const tags = [{ tag: 'file', value, type: 'text' }];
    expect(
      bodyText(fillTemplate(template, tags, { values: { allowBidiControls: true } }).docx),
    ).toBe(`File: ${value}\n`);
    const refused = failure(() => fillTemplate(template, tags));
    expect(refused.slug).toBe('validation-failed');
    expect(refused.details.map((d) => d.field)).toEqual(['tags[0].value']);
  });

  it('escapes invisible characters when a message shows a value', () => {
    const { problems } = one({ type: 'boolean', value: 'ja\u200f\u0085' });
    expect(problems[0]?.message).toBe(
      'tags[0] (t): "ja\\u200f\\u0085" is not true or false (give JSON true or false, or "true" or "false")',
    );
  });
});

describe('value sizes', () => {
  it('refuses a value longer than the limit, naming the tag, the size, the limit and the setting', () => {
    const r = resolveTagInputs(
      [{ tag: 'notes', value: 'lorem ipsum '.repeat(1000), type: 'text' }],
      ctx({ maxValueChars: 5000 }),
    );
    expect(r.problems).toEqual([
      {
        field: 'tags[0].value',
        message:
          'tags[0] (notes): "lorem ipsum lorem ipsum lorem ipsum lore…" has 12000 characters; a value may have at most 5000 (DOCPIPE_MAX_VALUE_CHARS)',
      },
    ]);
    expect(
      one({ type: 'text', value: 'x'.repeat(5000) }, { maxValueChars: 5000 }).problems,
    ).toEqual([]);
  });

  it('refuses a format longer than the limit, and a format that makes the text too long', () => {
    expect(
      one({ type: 'date', value: '2025-03-05', format: 'YYYY'.repeat(30) }, { maxValueChars: 100 })
        .problems,
    ).toEqual([
      { field: 'tags[0].format', message: expect.stringContaining('has 120 characters') },
    ]);
    expect(
      one({ type: 'date', value: '2025-09-05', format: 'MMMM '.repeat(15) }, { maxValueChars: 100 })
        .problems,
    ).toEqual([
      {
        field: 'tags[0].format',
        message:
          'tags[0] (t): formatted, it has 150 characters; a value may have at most 100 (DOCPIPE_MAX_VALUE_CHARS)',
      },
    ]);
  });

  it('refuses the whole list past its total, at the tag where it passes, and reads no further', () => {
    const tags = Array.from({ length: 10 }, (_, i) => ({
      tag: `clause_${i}`,
      value: 'x'.repeat(300),
      type: 'text',
    }));
    tags.push({ tag: 'late', value: 1 as unknown as string, type: 'money' });
    const r = resolveTagInputs(tags, ctx({ maxTagsChars: 1000 }));
    expect(r.refused).toBe(true);
    expect(r.problems).toEqual([
      {
        field: 'tags[2]',
        message:
          'tags[2] (clause_2): the tag list passes its limit of 1000 characters here (DOCPIPE_MAX_TAGS_CHARS); send fewer or shorter values',
      },
    ]);
  });

  it('refuses more tags than the limit as a whole, in fill without a missing-tag answer', () => {
    const tags = Array.from({ length: 4 }, (_, i) => ({ tag: `t${i}`, value: 'v', type: 'text' }));
    expect(resolveTagInputs(tags, ctx({ maxTags: 3 }))).toMatchObject({
      refused: true,
      problems: [
        { field: 'tags', message: '4 tags; a list may have at most 3 (DOCPIPE_MAX_TAGS)' },
      ],
    });
    const err = failure(() =>
      fillTemplate(buildDocx({ body: para('{needed}') }), tags, {
        field: 'documents[0]',
        values: { maxTags: 3 },
      }),
    );
    expect(err.slug).toBe('validation-failed');
    expect(err.details).toEqual([
      {
        field: 'documents[0].tags',
        message: '4 tags; a list may have at most 3 (DOCPIPE_MAX_TAGS)',
      },
    ]);
  });

  it('refuses limits given in code that are not positive integers', () => {
    const err = failure(() =>
      fillTemplate(buildDocx({ body: para('x') }), [], { values: { maxValueChars: 0 } }),
    );
    expect(err.details).toEqual([
      { field: 'values.maxValueChars', message: 'must be a positive integer (got 0)' },
    ]);
  });
});

describe('numbers and dates that cannot be printed', () => {
  it.each([
    [1e308, '0%', 'has 311 digits before the decimal point as a percentage'],
    [1e308, '#,##0', 'has 309 digits before the decimal point'],
    ['1' + '0'.repeat(30), undefined, 'has 31 digits before the decimal point'],
    [1e29, '0 %', 'has 32 digits before the decimal point as a percentage'],
  ])('refuses %s formatted as %s', (value, format, says) => {
    const { problems } = one({ type: 'number', value, ...(format ? { format } : {}) });
    expect(problems).toEqual([{ field: 'tags[0].value', message: expect.stringContaining(says) }]);
    expect(problems[0]?.message).toMatch(/numbers are printed with at most 30$/);
  });

  it('prints a JSON number in exponent form as the decimal it was written as', () => {
    expect(one({ type: 'number', value: 1e27, format: '0' }).text).toBe(`1${'0'.repeat(27)}`);
    expect(one({ type: 'number', value: 1.2345e21, format: '0' }).text).toBe(
      '1234500000000000000000',
    );
    expect(one({ type: 'number', value: -1.5e-7, format: '0.000000000' }).text).toBe(
      '-0,000000150',
    );
    expect(one({ type: 'number', value: 2.5e-7, format: '0.0000000' }).text).toBe('0,0000003');
  });

  it('prints 30 digits exactly, and never "∞" or "NaN"', () => {
    expect(one({ type: 'number', value: '123456789012345678901234567890', format: '0' })).toEqual({
      text: '123456789012345678901234567890',
      problems: [],
      refused: false,
    });
    expect(one({ type: 'number', value: 1e27, format: '0%' }).text).toBe(`1${'0'.repeat(29)}%`);
    expect(one({ type: 'number', value: Number.POSITIVE_INFINITY }).problems[0]?.message).toBe(
      'tags[0] (t): Infinity is not a finite number',
    );
  });

  it('refuses a date that falls in the year 10000 in the configured time zone', () => {
    expect(
      one({ type: 'date', value: '9999-12-31T23:30:00-05:00', format: 'YYYY-MM-DD' }).problems,
    ).toEqual([
      {
        field: 'tags[0].value',
        message:
          'tags[0] (t): "9999-12-31T23:30:00-05:00" falls in the year 10000 in Europe/Copenhagen; dates must fall in the years 1 to 9999',
      },
    ]);
    expect(
      one({ type: 'date', value: '9999-12-31T23:30:00-05:00', format: 'YYYY-MM-DD' }, {}, 'UTC')
        .problems,
    ).toHaveLength(1);
    expect(
      one(
        { type: 'date', value: '9999-12-31T23:30:00-05:00', format: 'YYYY-MM-DD HH:mm' },
        {},
        'America/Chicago',
      ),
    ).toMatchObject({ text: '9999-12-31 22:30', problems: [] });
  });

  it('refuses year 0, also when an offset moves a date there, instead of printing it as year 1', () => {
    expect(one({ type: 'date', value: '0000-06-01' }).problems[0]?.message).toBe(
      'tags[0] (t): "0000-06-01" falls in the year 0; dates must fall in the years 1 to 9999',
    );
    expect(
      one({ type: 'date', value: '0001-01-01T00:00:00+14:00', format: 'YYYY' }).problems[0]
        ?.message,
    ).toContain('falls in the year 0 in Europe/Copenhagen');
  });

  it('prints years before 100 as themselves, with their own weekday', () => {
    expect(one({ type: 'date', value: '0025-03-05', format: 'dddd D/M YYYY' }).text).toBe(
      'onsdag 5/3 0025',
    );
    expect(one({ type: 'date', value: '0025-03-05' }).text).toBe('5. marts 25');
    expect(one({ type: 'date', value: '0004-02-29' }).problems).toEqual([]);
    expect(one({ type: 'date', value: '0100-02-29' }).problems).toHaveLength(1);
  });
});

describe('deep values', () => {
  it('refuses a value nested 100,000 levels deep by name, without overflowing the stack', () => {
    const tags = [
      { tag: 'ok', value: 'fine', type: 'text' },
      { tag: 'deep', value: nested(100_000), type: 'text' },
    ];
    expect(resolveTagInputs(tags, ctx()).problems).toEqual([
      {
        field: 'tags[1].value',
        message:
          'tags[1] (deep): nested more than 16 levels deep; a value is text, a number, a date or a boolean',
      },
    ]);
    const err = failure(() => fillTemplate(buildDocx({ body: para('{ok} {deep}') }), tags));
    expect(err.slug).toBe('validation-failed');
    expect(err.details.map((d) => d.field)).toEqual(['tags[1].value']);
  });

  it('checks a list for the job contract: deep fields, sizes and count, each by path', () => {
    const tags = [
      { tag: 'a', value: nested(15), type: 'text' },
      { tag: 'b', value: 'v', type: 'text', extra: nested(100_000) },
      nested(100_000),
      { tag: 'c', value: 'y'.repeat(11), type: 'text' },
    ];
    expect(
      tagListBoundProblems(
        tags,
        { ...DEFAULT_VALUE_LIMITS, maxValueChars: 10 },
        'documents[0].tags',
      ),
    ).toEqual([
      { field: 'documents[0].tags[1].extra', message: expect.stringContaining('(b): nested more') },
      { field: 'documents[0].tags[2]', message: expect.stringContaining('nested more than 16') },
      {
        field: 'documents[0].tags[3].value',
        message: expect.stringContaining('(c): "yyyyyyyyyyy" has 11 characters'),
      },
    ]);
    expect(tagListBoundProblems('not a list', DEFAULT_VALUE_LIMITS, 'tags')).toEqual([]);
  });

  it('stops measuring a very wide value at the list limit', () => {
    // Counts the elements read: measuring must stop near the budget, not walk all 5 million.
    let read = 0;
    const wide = new Proxy(new Array<number>(5_000_000).fill(7), {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) read++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const problems = tagListBoundProblems(
      [{ tag: 'wide', value: wide, type: 'text' }],
      DEFAULT_VALUE_LIMITS,
      'tags',
    );
    expect(problems.map((p) => p.field)).toEqual(['tags[0]']);
    // The reads measuring makes until the list passes 100000 characters (tag, type, brackets
    // and commas counted as JSON has them): one more element read, or one fewer, moves it.
    expect(DEFAULT_VALUE_LIMITS.maxTagsChars).toBe(100_000);
    expect(read).toBe(99_967);
  });
});

describe('value messages name the TagInput, its tag and its value', () => {
  it('for every kind of value problem', () => {
    const tags = Array.from({ length: 13 }, (_, i) => ({ tag: `t${i}`, value: 'v', type: 'text' }));
    const r = resolveTagInputs(
      [
        ...tags,
        { tag: 'pets_allowed', value: 'yes', type: 'boolean' },
        { tag: 'rent', value: '45.250,50', type: 'number' },
        { tag: 'start', value: 'tomorrow', type: 'date' },
        { tag: 'name', value: { first: 'A' }, type: 'text' },
        { tag: 'when', value: '2025-01-01', type: 'date', format: 'QQ' },
        { tag: 'colour', value: 1, type: 'money' },
        'loose',
      ],
      ctx(),
    );
    expect(r.problems.map((p) => `${p.field} | ${p.message}`)).toEqual([
      'tags[13].value | tags[13] (pets_allowed): "yes" is not true or false (give JSON true or false, or "true" or "false")',
      'tags[14].value | tags[14] (rent): "45.250,50" is not a number; send a JSON number or a decimal string such as 45250.50',
      'tags[15].value | tags[15] (start): "tomorrow" is not an ISO 8601 date (YYYY-MM-DD, optionally with a time)',
      'tags[16].value | tags[16] (name): an object is not text; send a string',
      'tags[17].format | tags[17] (when): date format "QQ" has an unknown token "Q" at position 1; put literal text in [brackets]',
      'tags[18].type | tags[18] (colour): unknown type "money" (one of text, number, date, boolean, list)',
      'tags[19] | tags[19]: "loose" is not a TagInput; send an object {tag, value, type, format}',
    ]);
  });
});
