import { describe, expect, it } from 'vitest';
import { resolveTagInputs } from '../../src/document/values/index.js';
import { resolveLocale, type ResolvedLocale } from '../../src/document/values/locale.js';
import { sanitizeText } from '../../src/document/values/text-value.js';

const ctx = (locale = 'da', timeZone = 'Europe/Copenhagen') => ({
  locale: resolveLocale(locale) as ResolvedLocale,
  timeZone,
});
const one = (input: object, locale = 'da', timeZone?: string) => {
  const r = resolveTagInputs([{ tag: 't', ...input }], ctx(locale, timeZone));
  return { text: r.values.get('t')?.text, truthy: r.values.get('t')?.truthy, problems: r.problems };
};
const NBSP = '\u00a0';

describe('number values', () => {
  it.each([
    ['da', '#,##0.00', 45250.5, '45.250,50'],
    ['de', '#,##0.00', 45250.5, '45.250,50'],
    ['en', '#,##0.00', 45250.5, '45,250.50'],
    ['sv', '#,##0.00', 45250.5, `45${NBSP}250,50`],
    ['nb', '#,##0.00', 45250.5, `45${NBSP}250,50`],
    ['da', '0', 45250.5, '45251'],
    ['da', '0.0##', 1.23456, '1,235'],
    ['da', '0.0##', 2, '2,0'],
    ['da', '000', 7, '007'],
    ['da', '#,##0 kr.', 1234567, '1.234.567 kr.'],
    ['en', "'USD '#,##0.00", '99.999', 'USD 100.00'],
    ['da', '0.0 %', 0.125, '12,5 %'],
    ['da', '#,##0.00', '12345678901234567890.125', '12.345.678.901.234.567.890,13'],
    ['en', '#,##0.00', -0.005, '-0.01'],
  ])('%s %s of %s gives %s', (locale, format, value, expected) => {
    expect(one({ type: 'number', value, format }, locale)).toMatchObject({
      text: expected,
      problems: [],
    });
  });

  it('uses the locale default without a format', () => {
    expect(one({ type: 'number', value: 1234.5 }).text).toBe('1.234,5');
  });

  it.each([
    ['45.250,50', 'value'],
    ['1e5', 'value'],
    [true, 'value'],
    [Number.NaN, 'value'],
  ])('refuses %s as a number', (value, on) => {
    expect(one({ type: 'number', value }).problems).toEqual([
      { field: `tags[0].${on}`, message: expect.any(String) },
    ]);
  });

  it('treats an empty or null format as none', () => {
    expect(one({ type: 'number', value: 1234.5, format: '' }).text).toBe('1.234,5');
    expect(one({ type: 'number', value: 1234.5, format: null }).text).toBe('1.234,5');
  });

  it.each(['#,##0,', '00#', '0.#0', '#.##.##', "'unclosed", 'kr. 0 og 0'])(
    'refuses the format %j',
    (format) => {
      expect(one({ type: 'number', value: 1, format }).problems).toEqual([
        { field: 'tags[0].format', message: expect.any(String) },
      ]);
    },
  );
});

describe('date values', () => {
  it.each([
    ['da', 'DD-MM-YYYY', '2025-03-05', '05-03-2025'],
    ['da', 'D. MMMM YYYY', '2025-03-05', '5. marts 2025'],
    ['en', 'MMMM D, YYYY', '2025-03-05', 'March 5, 2025'],
    ['de', 'D. MMMM YYYY', '2025-03-05', '5. März 2025'],
    ['sv', 'D MMMM YYYY', '2025-03-05', '5 mars 2025'],
    ['nb', 'D. MMM YYYY', '2025-05-05', '5. mai 2025'],
    ['da', 'dddd [den] D/M-YY', '2025-03-05', 'onsdag den 5/3-25'],
    ['en', 'h:mm A', '2025-03-05T13:07', '1:07 PM'],
    ['da', 'YYYY-MM-DD HH:mm:ss', '2025-03-05T13:07:09', '2025-03-05 13:07:09'],
  ])('%s %s of %s gives %s', (locale, format, value, expected) => {
    expect(one({ type: 'date', value, format }, locale)).toMatchObject({
      text: expected,
      problems: [],
    });
  });

  it('moves a date-time with an offset into the time zone, across midnight and DST', () => {
    expect(
      one({ type: 'date', value: '2025-12-31T23:30:00Z', format: 'D/M YYYY HH:mm' }).text,
    ).toBe('1/1 2026 00:30');
    expect(one({ type: 'date', value: '2025-07-01T10:00:00+00:00', format: 'HH:mm' }).text).toBe(
      '12:00',
    );
    expect(
      one({ type: 'date', value: '2025-07-01T10:00:00Z', format: 'HH:mm' }, 'da', 'UTC').text,
    ).toBe('10:00');
  });

  it('uses the locale long date without a format', () => {
    expect(one({ type: 'date', value: '2025-03-05' }).text).toBe('5. marts 2025');
    expect(one({ type: 'date', value: '2025-03-05' }, 'en').text).toBe('March 5, 2025');
  });

  it.each(['2025-02-30', '2025-13-01', '05-03-2025', '2025-03-05T25:00', 'tomorrow', 20250305])(
    'refuses %j',
    (value) => {
      expect(one({ type: 'date', value }).problems).toEqual([
        { field: 'tags[0].value', message: expect.any(String) },
      ]);
    },
  );

  it('accepts 29 February only in leap years', () => {
    expect(one({ type: 'date', value: '2024-02-29' }).problems).toEqual([]);
    expect(one({ type: 'date', value: '2025-02-29' }).problems).toHaveLength(1);
  });

  it.each(['DD-MM-YYYX', 'Q YYYY', '[unclosed YYYY', 'text'])('refuses the format %j', (format) => {
    expect(one({ type: 'date', value: '2025-03-05', format }).problems).toEqual([
      { field: 'tags[0].format', message: expect.any(String) },
    ]);
  });
});

describe('boolean and text values', () => {
  it('shows booleans in the locale or by format, and drives sections by truth', () => {
    expect(one({ type: 'boolean', value: true })).toMatchObject({ text: 'Ja', truthy: true });
    expect(one({ type: 'boolean', value: 'false' }, 'de')).toMatchObject({
      text: 'Nein',
      truthy: false,
    });
    expect(one({ type: 'boolean', value: false, format: 'Med|Uden' })).toMatchObject({
      text: 'Uden',
      truthy: false,
    });
    expect(one({ type: 'boolean', value: 'yes' }).problems).toEqual([
      {
        field: 'tags[0].value',
        message:
          'tags[0] (t): "yes" is not true or false (give JSON true or false, or "true" or "false")',
      },
    ]);
    expect(one({ type: 'boolean', value: true, format: 'Ja' }).problems[0]?.field).toBe(
      'tags[0].format',
    );
  });

  it('keeps text as data: line ends normalised, characters XML cannot hold removed', () => {
    expect(sanitizeText('a\r\nb\rc\u000bd')).toBe('a\nb\nc\nd');
    expect(sanitizeText('x\u0000\u0007\u001f\ufffey\u0085z')).toBe('xy\nz');
    expect(sanitizeText('lone \ud800 surrogate, pair \ud83d\ude00')).toBe(
      'lone  surrogate, pair \ud83d\ude00',
    );
    expect(one({ type: 'text', value: '{other} & <b>${1+1}</b>' }).text).toBe(
      '{other} & <b>${1+1}</b>',
    );
    expect(one({ type: 'text', value: { toString: 'x' } }).problems[0]?.field).toBe(
      'tags[0].value',
    );
  });
});

describe('TagInput list', () => {
  it('reports every problem at once with field paths', () => {
    const r = resolveTagInputs(
      [
        { tag: 'a', value: 'x', type: 'number' },
        { tag: 'b', value: '2025-01-01', type: 'date', format: 'QQ' },
        { tag: 'c', value: 1, type: 'money' },
        { tag: '', value: 1, type: 'text' },
        { tag: 'a', value: 'again', type: 'text' },
        { tag: 'e', type: 'text', colour: 'red' },
        'not an object',
      ],
      ctx(),
    );
    expect(r.problems.map((p) => p.field)).toEqual([
      'tags[0].value',
      'tags[1].format',
      'tags[2].type',
      'tags[3].tag',
      'tags[4].tag',
      'tags[5].colour',
      'tags[5].value',
      'tags[6]',
    ]);
  });

  it('refuses a list that is not an array, and prefixes a document path', () => {
    expect(resolveTagInputs({ a: 1 }, ctx()).problems).toEqual([
      { field: 'tags', message: expect.any(String) },
    ]);
    expect(
      resolveTagInputs([{ tag: 'x', value: 'y', type: 'date' }], ctx(), 'documents[3].tags')
        .problems[0]?.field,
    ).toBe('documents[3].tags[0].value');
  });

  it('refuses unknown locales', () => {
    expect(typeof resolveLocale('xx-invalid-')).toBe('string');
    expect(typeof resolveLocale('zh')).toBe('string');
    expect(resolveLocale('en-GB')).toMatchObject({ tag: 'en-GB' });
  });
});
