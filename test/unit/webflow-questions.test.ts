import { describe, expect, it } from 'vitest';
import { FormFileError, parseFormFile } from '../../src/service/forms/index.js';
import {
  checkAnswers,
  cprAnswerOf,
  questionsOf,
  type FlowForm,
} from '../../src/service/webflows/index.js';

/**
 * The web-flow answer page's questions (issue 36): form.json's question kinds (`email`, `phone`,
 * `cpr`, `choices`) read into TagDefinitions the templates still fill as text, the CPR number's
 * format check (10 digits, a date, no modulus 11), and the answers' checks with the pipeline's
 * own messages.
 */
const form = (tags: unknown[]) => ({
  title: 'Survey',
  documents: [{ name: 'Lease', file: 'lease.docx' }],
  tags,
});

function problems(data: unknown): { field: string; message: string }[] {
  try {
    parseFormFile(data, 'survey');
  } catch (err) {
    expect(err).toBeInstanceOf(FormFileError);
    return [...(err as FormFileError).problems];
  }
  throw new Error('the form.json was taken');
}

describe('form.json question kinds', () => {
  it('reads e-mail, phone and CPR as text tags with a kind, and choices on a text tag', () => {
    const read = parseFormFile(
      form([
        { tag: 'mail', type: 'email', name: 'E-mail' },
        { tag: 'tel', type: 'phone' },
        { tag: 'cpr', type: 'cpr' },
        { tag: 'pet', type: 'text', choices: ['Cat', 'Dog'], value: 'Dog' },
      ]),
      'survey',
    );
    expect(read.tags).toEqual([
      { _id: 'mail', name: 'E-mail', tag: 'mail', value: null, type: 'text', kind: 'email' },
      { _id: 'tel', name: 'tel', tag: 'tel', value: null, type: 'text', kind: 'phone' },
      { _id: 'cpr', name: 'cpr', tag: 'cpr', value: null, type: 'text', kind: 'cpr' },
      {
        _id: 'pet',
        name: 'pet',
        tag: 'pet',
        value: 'Dog',
        type: 'text',
        choices: ['Cat', 'Dog'],
      },
    ]);
  });

  it('refuses a bad kind, bad choices and a CPR default, every problem at its path', () => {
    expect(
      problems(
        form([
          { tag: 'a', type: 'mobile' },
          { tag: 'b', type: 'number', choices: ['1', '2'] },
          { tag: 'c', type: 'text', choices: [] },
          { tag: 'd', type: 'text', choices: ['x', 'x'] },
          { tag: 'e', type: 'text', choices: ['x', 'y'], value: 'z' },
          { tag: 'f', type: 'cpr', value: '0101901234' },
        ]),
      ),
    ).toEqual([
      {
        field: 'tags[0].type',
        message: 'must be one of text, number, date, boolean, email, phone, cpr',
      },
      { field: 'tags[1].choices', message: 'only a "text" tag may have choices' },
      { field: 'tags[2].choices', message: 'must be an array of 1 to 100 choices (strings)' },
      { field: 'tags[3].choices', message: 'choices[1] "x" is given twice' },
      { field: 'tags[4].choices', message: 'the default "z" is not one of the choices' },
      { field: 'tags[5].value', message: 'must be null: a "cpr" question has no default' },
    ]);
  });
});

describe('a CPR answer', () => {
  it('takes 10 digits with or without the dash whose first six are a date', () => {
    expect(cprAnswerOf('010190-1234')).toEqual({ cpr: '0101901234' });
    expect(cprAnswerOf(' 3112991234 ')).toEqual({ cpr: '3112991234' });
    // 29 February of a year divisible by four (2000, 2004, ...).
    expect(cprAnswerOf('290200-1234')).toEqual({ cpr: '2902001234' });
    // Modulus 11 is not asked: 0101901235 fails it and is taken.
    expect(cprAnswerOf('0101901235')).toEqual({ cpr: '0101901235' });
  });

  it('refuses what is not 10 digits, and a date that does not exist, never echoing the value', () => {
    const format = { problem: 'must be 10 digits (DDMMYYXXXX or DDMMYY-XXXX)' };
    const date = { problem: 'its first six digits must be a date that exists (DDMMYY)' };
    expect(cprAnswerOf('01019012345')).toEqual(format);
    expect(cprAnswerOf('010190-12a4')).toEqual(format);
    expect(cprAnswerOf('')).toEqual(format);
    expect(cprAnswerOf('3202901234')).toEqual(date);
    expect(cprAnswerOf('0113901234')).toEqual(date);
    expect(cprAnswerOf('0000901234')).toEqual(date);
    expect(cprAnswerOf('290201-1234')).toEqual(date);
    expect(cprAnswerOf('310490-1234')).toEqual(date);
  });
});

describe('checking answers', () => {
  const flow = {
    title: 'Survey',
    folder: null,
    settings: {},
    recipients: [],
    documents: [],
    tags: parseFormFile(
      form([
        { tag: 'rent', type: 'number', value: 1200 },
        { tag: 'start', type: 'date' },
        { tag: 'pets', type: 'boolean' },
        { tag: 'mail', type: 'email' },
        { tag: 'tel', type: 'phone' },
        { tag: 'cpr', type: 'cpr' },
        { tag: 'pet', type: 'text', choices: ['Cat', 'Dog'] },
      ]),
      'survey',
    ).tags,
  } satisfies FlowForm;
  const questions = questionsOf(flow);

  it('asks each kind with its field, required when it has no default', () => {
    expect(questions.map((q) => [q.tag, q.field, q.required])).toEqual([
      ['rent', 'number', false],
      ['start', 'date', true],
      ['pets', 'boolean', true],
      ['mail', 'email', true],
      ['tel', 'phone', true],
      ['cpr', 'cpr', true],
      ['pet', 'choice', true],
    ]);
  });

  it('takes good answers typed, with numbers as numbers and the CPR number apart', () => {
    const given = new Map([
      ['rent', '1250.50'],
      ['start', '2026-02-01'],
      ['pets', 'true'],
      ['mail', 'ann@example.com'],
      ['tel', '+45 12 34 56 78'],
      ['cpr', '010190-1234'],
      ['pet', 'Dog'],
    ]);
    const checked = checkAnswers(questions, given, 'en');
    expect(checked.problems).toEqual([]);
    expect(checked.writes).toEqual(
      expect.arrayContaining([
        { tag: 'rent', type: 'number', value: 1250.5 },
        { tag: 'start', type: 'date', value: '2026-02-01' },
        { tag: 'pets', type: 'boolean', value: true },
        { tag: 'mail', type: 'text', value: 'ann@example.com' },
        { tag: 'tel', type: 'text', value: '+45 12 34 56 78' },
        { tag: 'cpr', type: 'text', cpr: '0101901234' },
        { tag: 'pet', type: 'text', value: 'Dog' },
      ]),
    );
    expect(checked.writes).toHaveLength(7);
  });

  it('refuses every bad answer at once, number and date with the pipeline messages', () => {
    const checked = checkAnswers(
      questions,
      new Map([
        ['rent', 'a lot'],
        ['start', '2026-02-30'],
        ['pets', 'maybe'],
        ['mail', 'ann@'],
        ['tel', '12'],
        ['cpr', '3202901234'],
        ['pet', 'Fish'],
      ]),
      'en',
    );
    expect(checked.writes).toEqual([]);
    expect(checked.problems.map((p) => [p.tag, p.code, p.message])).toEqual([
      ['rent', 'number', 'is not a number as this page writes one (such as 1,200.50)'],
      ['start', 'date', '"2026-02-30" is not a date that exists'],
      ['pets', 'boolean', '"maybe" is not true or false'],
      ['mail', 'email', 'is not an e-mail address (name@example.com)'],
      ['tel', 'phone', 'is not a phone number (6 to 15 digits, + and spaces allowed)'],
      ['cpr', 'cpr', 'its first six digits must be a date that exists (DDMMYY)'],
      ['pet', 'choice', 'is not one of the choices offered'],
    ]);
  });

  it('reads numbers as the page language writes them, and refuses what it would have to guess', () => {
    const rent = (typed: string, locale: 'da' | 'en') =>
      checkAnswers(questions, new Map([['rent', typed]]), locale);
    // Danish: a point groups thousands, a comma is the decimal mark.
    expect(rent('8.500', 'da').writes).toEqual([{ tag: 'rent', type: 'number', value: 8500 }]);
    expect(rent('8.500,50', 'da').writes).toEqual([{ tag: 'rent', type: 'number', value: 8500.5 }]);
    expect(rent('72,5', 'da').writes).toEqual([{ tag: 'rent', type: 'number', value: 72.5 }]);
    expect(rent('1 250', 'da').writes).toEqual([{ tag: 'rent', type: 'number', value: 1250 }]);
    expect(rent('-1.000.000', 'da').writes).toEqual([
      { tag: 'rent', type: 'number', value: -1000000 },
    ]);
    // English: a comma groups, a point is the decimal mark.
    expect(rent('8,500', 'en').writes).toEqual([{ tag: 'rent', type: 'number', value: 8500 }]);
    expect(rent('8.5', 'en').writes).toEqual([{ tag: 'rent', type: 'number', value: 8.5 }]);
    // Neither a Danish 72.5 nor an English 72,5 is guessed at.
    for (const [typed, locale] of [
      ['72.5', 'da'],
      ['8.50', 'da'],
      ['72,5', 'en'],
      ['1,2345', 'en'],
      ['8.500,5.0', 'da'],
    ] as const) {
      const checked = rent(typed, locale);
      expect(checked.writes, typed).toEqual([]);
      expect(
        checked.problems.map((p) => [p.tag, p.code]),
        typed,
      ).toEqual([['rent', 'number']]);
    }
    expect(rent('72.5', 'da').problems[0]!.message).toContain('1.200,50');
  });

  it('clears an emptied answer, but keeps a CPR number the page never shows', () => {
    const checked = checkAnswers(
      questions,
      new Map([
        ['mail', '  '],
        ['cpr', ''],
      ]),
      'en',
    );
    expect(checked).toEqual({ writes: [{ tag: 'mail', clear: true }], problems: [] });
  });
});
