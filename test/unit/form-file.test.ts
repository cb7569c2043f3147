import { describe, expect, it } from 'vitest';
import { FormFileError, parseFormFile } from '../../src/service/forms/index.js';

const minimal = { title: 'Lease', documents: [{ name: 'Lease', file: 'lease.docx' }] };

function problems(data: unknown, folder = 'lease'): { field: string; message: string }[] {
  try {
    parseFormFile(data, folder);
  } catch (err) {
    expect(err).toBeInstanceOf(FormFileError);
    return [...(err as FormFileError).problems];
  }
  throw new Error('the form.json was taken');
}

describe('form.json', () => {
  it('takes a minimal form: the id is the folder name, active, no folder, no tags or recipients', () => {
    expect(parseFormFile(minimal, 'lease-2026')).toEqual({
      id: 'lease-2026',
      title: 'Lease',
      folder: null,
      active: true,
      webflow: false,
      settings: {},
      tags: [],
      recipients: [],
      documents: [{ name: 'Lease', file: 'lease.docx' }],
    });
  });

  it('takes every member, fills a TagDefinition’s _id and name from its tag, keeps document flags', () => {
    const form = parseFormFile(
      {
        id: 'lease',
        title: 'Lease',
        folder: 'Leases',
        active: false,
        webflow: true,
        settings: { lang: 'en', reminders: { send: true, amount: 2 }, extra: 1 },
        tags: [
          { tag: 'tenant', type: 'text' },
          { _id: 't2', name: 'Rent', tag: ' rent ', type: 'number', value: 1200 },
          { tag: 'start', type: 'date', value: '2026-01-01' },
          { tag: 'pets', type: 'boolean', value: false },
        ],
        recipients: [{ name: 'Office', email: 'office@acme.example', signing: false }],
        documents: [
          { name: 'Lease', file: 'lease.docx', documentMustBeRead: true, signObligated: true },
          { name: 'Terms', file: 'terms.pdf' },
        ],
      },
      'ignored',
    );
    expect(form.id).toBe('lease');
    expect(form.folder).toBe('Leases');
    expect(form.active).toBe(false);
    expect(form.webflow).toBe(true);
    expect(form.tags).toEqual([
      { _id: 'tenant', name: 'tenant', tag: 'tenant', value: null, type: 'text' },
      { _id: 't2', name: 'Rent', tag: 'rent', value: 1200, type: 'number' },
      { _id: 'start', name: 'start', tag: 'start', value: '2026-01-01', type: 'date' },
      { _id: 'pets', name: 'pets', tag: 'pets', value: false, type: 'boolean' },
    ]);
    expect(form.documents[0]).toEqual({
      name: 'Lease',
      file: 'lease.docx',
      documentMustBeRead: true,
      signObligated: true,
    });
  });

  it('names every problem at its path, all at once', () => {
    const found = problems(
      {
        title: '',
        colour: 'red',
        active: 'yes',
        webflow: 1,
        settings: { reminders: { amount: 99 } },
        tags: [
          { tag: 'rent', type: 'money' },
          { tag: 'rent', type: 'number', value: true },
          { type: 'text' },
          { tag: 'lines', type: 'list' },
          { tag: 'x', type: 'text', default: 'a' },
        ],
        recipients: [{ email: 'no-name@acme.example' }, { name: 'Ann', cpr: '0101901234' }],
        documents: [{ name: 'Lease' }, { file: 'x.docx', mustRead: true }],
      },
      'lease',
    );
    const fields = found.map((p) => p.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'title',
        'colour',
        'active',
        'webflow',
        'settings.reminders.amount',
        'tags[0].type',
        'tags[1].tag',
        'tags[1].value',
        'tags[2].tag',
        'tags[3].type',
        'tags[4].default',
        'recipients[0].name',
        'recipients[1].cpr',
        'documents[0].file',
        'documents[1].name',
        'documents[1].mustRead',
      ]),
    );
    expect(found.find((p) => p.field === 'tags[1].tag')!.message).toContain('tags[0]');
    expect(found.find((p) => p.field === 'tags[3].type')!.message).toContain('list');
    expect(found.find((p) => p.field === 'colour')!.message).toBe('unknown field');
  });

  it('refuses a file without documents, a non-object, and a folder name that is no id', () => {
    expect(problems({ title: 'Lease' }).map((p) => p.field)).toEqual(['documents']);
    expect(problems({ title: 'Lease', documents: [] }).map((p) => p.field)).toEqual(['documents']);
    expect(problems([1, 2])).toEqual([{ field: '', message: 'must be a JSON object' }]);
    const id = problems(minimal, 'my lease');
    expect(id.map((p) => p.field)).toEqual(['id']);
    expect(id[0]!.message).toContain('"my lease"');
  });

  it('says which file is refused', () => {
    let err: unknown;
    try {
      parseFormFile({}, 'lease', 'forms/lease/form.json');
    } catch (e) {
      err = e;
    }
    expect((err as FormFileError).file).toBe('forms/lease/form.json');
    expect((err as Error).message).toMatch(/^forms\/lease\/form\.json is refused: /);
  });
});
