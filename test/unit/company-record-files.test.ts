import { describe, expect, it } from 'vitest';
import {
  fillPlaceholders,
  parseMessageTemplate,
  parsePreset,
  placeholderProblems,
  presetSettingsProblems,
  RecordInvalidError,
} from '../../src/service/companies/index.js';

/** The checks of the preset and message template files, before anything reaches the database. */

function problemsOf(parse: () => unknown): string[] {
  try {
    parse();
  } catch (err) {
    if (err instanceof RecordInvalidError)
      return err.problems.map((p) => `${p.path}: ${p.message}`);
    throw err;
  }
  return [];
}

describe('preset settings (spec 2.2)', () => {
  it('accepts every member spec 2.2 lists', () => {
    expect(
      presetSettingsProblems({
        autoSend: false,
        language: 'da',
        expiresInDays: 30,
        reminders: { send: true, amount: 20, daysBetween: 365, autoSend: true },
        template: 2,
        message: 'Please sign',
        signingSchemas: ['urn:grn:authn:se:bankid', 'draw'],
        logo: 'https://docpipe.example/logo.png',
        integrations: { microsoft: { returnPath: '/x' } },
      }),
    ).toEqual([]);
  });

  it('refuses unknown members and wrong values with their paths, every one at once', () => {
    expect(
      presetSettingsProblems({
        lang: 'da',
        allowRecipientsViewOthers: true,
        expiresInDays: 0,
        reminders: { daysBetween: 1.5, send: 'yes' },
        integrations: { microsoft: { returnPath: 'x', tenant: 't' }, google: {} },
        language: 'zz',
        autoSend: null,
      }).map((p) => `${p.path}: ${p.message}`),
    ).toEqual([
      'settings.lang: unknown field (v2\'s "lang" is "language" in v3)',
      'settings.allowRecipientsViewOthers: unknown field (v3 does not accept settings.allowRecipientsViewOthers: the company defaults apply)',
      'settings.expiresInDays: must be an integer of at least 1 (got 0)',
      'settings.reminders.daysBetween: must be an integer from 1 to 365 (got 1.5)',
      'settings.reminders.send: must be true or false',
      'settings.integrations.microsoft.returnPath: must be a path beginning with "/" (got "x")',
      'settings.integrations.microsoft.tenant: unknown field',
      'settings.integrations.google: unknown field',
      'settings.language: locale "zz" is not supported (supported: da, en, sv, nb, nn, no, de, fi, with an optional region)',
      'settings.autoSend: must be true or false',
    ]);
    expect(presetSettingsProblems([])).toEqual([
      { path: 'settings', message: 'must be an object' },
    ]);
  });

  it('checks the file around the settings', () => {
    expect(problemsOf(() => parsePreset({ id: 'a b', settings: {}, extra: 1 }))).toEqual([
      'extra: unknown field',
      'id: must be 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit (got "a b")',
      'name: is required',
    ]);
    expect(problemsOf(() => parsePreset('x'))).toEqual([
      '(file): must be a JSON object',
      'name: is required',
      'settings: is required',
    ]);
    expect(parsePreset({ name: 'N', settings: { autoSend: true } })).toEqual({
      name: 'N',
      settings: { autoSend: true },
    });
  });
});

describe('message template placeholders', () => {
  it('names each unknown placeholder and unclosed brace with its line and column', () => {
    expect(placeholderProblems('{{ recipient.name }} {{signingUrl}}', 'body')).toEqual([]);
    expect(
      placeholderProblems('Hi {{name}},\n  see {{ case.url }} and {{case.title', 'body').map((p) =>
        p.message.replace(/ \(known: .*\)$/, ''),
      ),
    ).toEqual([
      'line 1, column 4: unknown placeholder {{name}}',
      'line 2, column 7: unknown placeholder {{case.url}}',
      'line 2, column 26: "{{" is not closed by "}}"',
    ]);
  });

  it('checks the file: members, a one-line subject, and the placeholders of both texts', () => {
    expect(
      problemsOf(() => parseMessageTemplate({ subject: 'a\nb {{x}}', body: '', footer: 'f' })),
    ).toEqual([
      'footer: unknown field',
      'subject: must be one line (an e-mail header)',
      expect.stringMatching(/^subject: line 2, column 3: unknown placeholder \{\{x\}\} \(known: /),
      'body: must not be empty',
    ]);
  });

  it('fills the known placeholders and leaves nothing else changed', () => {
    expect(
      fillPlaceholders('{{ recipient.name }}: {{signingUrl}} {{case.message}}{{other}}', {
        'recipient.name': 'Ann',
        signingUrl: 'https://s.example/x',
      }),
    ).toBe('Ann: https://s.example/x {{other}}');
  });
});
