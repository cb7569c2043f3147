import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testDir } from '../helpers/test-dir.js';
import {
  DocumentJsonError,
  parseDocumentJson,
  readDocumentJson,
  settingsForTemplate,
} from '../../src/document/library/index.js';

function problemsOf(text: string): string[] {
  try {
    parseDocumentJson(text, 'document.json');
  } catch (err) {
    if (err instanceof DocumentJsonError) return err.problems;
    throw err;
  }
  throw new Error('parsed without a problem');
}

describe('document.json', () => {
  it('gives the fill options it sets, and nothing for what it leaves out', () => {
    const { meta, options } = parseDocumentJson(
      JSON.stringify({
        name: 'Quote',
        locale: 'en-GB',
        timeZone: 'Europe/London',
        delimiters: '{{ }}',
        fields: {
          valid_until: { type: 'date', format: 'D MMMM YYYY' },
          lines: { type: 'list', columns: { amount: { type: 'number', format: '#,##0.00' } } },
        },
      }),
      'document.json',
    );
    expect(meta.name).toBe('Quote');
    expect(options).toEqual({
      locale: 'en-GB',
      timeZone: 'Europe/London',
      delimiters: { start: '{{', end: '}}' },
      fields: {
        valid_until: { type: 'date', format: 'D MMMM YYYY' },
        lines: { type: 'list', columns: { amount: { type: 'number', format: '#,##0.00' } } },
      },
    });
    expect(parseDocumentJson('{"name": "Letter"}', 'document.json').options).toEqual({});
  });

  it('names every problem at once, each with its member', () => {
    expect(
      problemsOf(
        JSON.stringify({
          name: 'x',
          timezone: 'UTC',
          fields: { a: { type: 'dato' }, c: 3, d: { type: 'text', colour: 'red' } },
        }),
      ),
    ).toEqual([
      'timezone: unknown member (did you mean "timeZone"?)',
      'fields.a.type must be one of text, number, date, boolean, list',
      'fields.c must be an object',
      'fields.d.colour: unknown member',
    ]);
  });

  it('refuses settings fill would refuse: locale, time zone, declared formats, columns on a field that is not a list', () => {
    expect(
      problemsOf(
        JSON.stringify({
          locale: 'tlh',
          timeZone: 'Mars/Olympus',
          delimiters: '{{}}',
          current: '3',
          fields: {
            total: { type: 'number', columns: { x: { type: 'text' } } },
            due: { type: 'number', format: '#,##0.00.0' },
          },
        }),
      ),
    ).toEqual([
      'delimiters must be start and end separated by a space, such as "{{ }}"',
      expect.stringMatching(/^locale: .*tlh/),
      expect.stringMatching(/^timeZone: .*Mars\/Olympus/),
      'fields.total.columns: only a list has columns (this is number)',
      expect.stringMatching(/^fields\.due\.format: /),
      'current: "3" is not one of the versions',
    ]);
  });

  it('names what fill would refuse in the members that have their shape, beside what the schema refuses', () => {
    expect(problemsOf('{"timezone": "UTC", "locale": "english", "delimiters": 7}')).toEqual([
      'timezone: unknown member (did you mean "timeZone"?)',
      'delimiters must be a string',
      expect.stringMatching(/^locale: locale "english" is not supported/),
    ]);
  });

  it('reads who signs, and refuses a list of signers before the last or a signer without a role', () => {
    const signers = [
      { role: 'the landlord', name: 'landlord_name' },
      { role: 'each tenant', name: 'name', list: 'tenants' },
    ];
    expect(parseDocumentJson(JSON.stringify({ signers }), 'document.json').meta.signers).toEqual(
      signers,
    );
    expect(
      problemsOf(JSON.stringify({ signers: [signers[1], signers[0], { name: 'x', seat: 2 }] })),
    ).toEqual([
      'signers.2 must have required properties role',
      'signers.2.seat: unknown member',
      'signers.0.list: only the last signer may be a list (its rows come after the others)',
    ]);
  });

  it('refuses a version outside its folder and text that is not JSON', () => {
    expect(problemsOf('{"versions": {"1": "../other/template.docx"}}')).toEqual([
      'versions.1 must name a .docx file in this folder',
    ]);
    expect(problemsOf('{"name": ')[0]).toMatch(/^is not valid JSON: /);
    expect(problemsOf('[]')).toEqual(['document.json must be an object']);
  });

  it('reads a folder, and a template file through its folder; no file means no settings', async () => {
    const dir = testDir('docpipe-document-json-');
    expect(await readDocumentJson(dir)).toEqual({ meta: {}, options: {} });
    mkdirSync(join(dir, 'letter'));
    writeFileSync(join(dir, 'letter', 'document.json'), '{"locale": "en", "delimiters": "[[ ]]"}');
    const settings = await settingsForTemplate(join(dir, 'letter', 'v2.docx'));
    expect(settings.options).toEqual({ locale: 'en', delimiters: { start: '[[', end: ']]' } });
    writeFileSync(join(dir, 'letter', 'document.json'), '{"local": "en"}');
    await expect(readDocumentJson(join(dir, 'letter'))).rejects.toThrow(
      `${join(dir, 'letter', 'document.json')}: local: unknown member (did you mean "locale"?)`,
    );
  });
});
