import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import { InputError } from '../../src/base/files/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import {
  DocumentJsonError,
  FieldDeclarationSchema,
  FIELD_TYPES,
  FolderLibrary,
  locateTemplate,
  resolveTemplate,
} from '../../src/document/library/index.js';
import { rejectionOf } from '../helpers/failure.js';
import { testDir } from '../helpers/test-dir.js';

/** One template and its settings, whichever way it is named: a file, its folder, its library id. */

const templates = join(projectRoot(), 'templates');
const nda = join(templates, 'nda');
const ndaJson = JSON.parse(readFileSync(join(nda, 'document.json'), 'utf8')) as {
  name: string;
  locale: string;
  timeZone: string;
  fields: Record<string, unknown>;
};
const ndaSettings = {
  locale: ndaJson.locale,
  timeZone: ndaJson.timeZone,
  delimiters: { start: '{{', end: '}}' },
  fields: ndaJson.fields,
};

describe('resolveTemplate', () => {
  it('gives a template file the settings of its folder’s document.json', async () => {
    const t = await resolveTemplate({ path: join(nda, 'template.docx') });
    expect(t.settings).toEqual(ndaSettings);
    expect(t.bytes).toEqual(readFileSync(join(nda, 'template.docx')));
    expect(t.file).toBe(join(nda, 'template.docx'));
    // A file is named by its caller; only a document (folder or id) has a name of its own.
    expect(t.name).toBeUndefined();
  });

  it('reads a library folder’s current version, with its name', async () => {
    const t = await resolveTemplate({ path: nda });
    expect(t).toMatchObject({ settings: ndaSettings, name: ndaJson.name });
    expect(t.file).toBe(join(nda, 'template.docx'));
  });

  it('reads a library id from the library, with the same settings as its folder', async () => {
    const library = new FolderLibrary(templates);
    const byId = await resolveTemplate({ documentId: 'nda' }, { library });
    const byPath = await resolveTemplate({ path: nda });
    expect(byId).toMatchObject({ documentId: 'nda', versionId: '1', name: ndaJson.name });
    expect(byId.settings).toEqual(byPath.settings);
    expect(byId.bytes).toEqual(byPath.bytes);
  });

  it('names the field of a library id that is not there', async () => {
    const library = new FolderLibrary(templates);
    const err = await rejectionOf(
      resolveTemplate({ documentId: 'no-such-document' }, { library, field: 'documents[2]' }),
      DocpipeError,
    );
    expect(err.slug).toBe('document-not-found');
    expect(err.details[0]!.field).toBe('documents[2].documentId');
  });

  it('gives a template without document.json no settings', async () => {
    const dir = testDir('resolve-plain-');
    writeFileSync(join(dir, 'a.docx'), 'bytes');
    expect((await locateTemplate(join(dir, 'a.docx'))).settings).toEqual({});
  });

  it('refuses a file past the size limit unread, naming the field', async () => {
    const err = await rejectionOf(
      resolveTemplate(
        { path: join(nda, 'template.docx') },
        { maxBytes: 10, field: 'documents[0]' },
      ),
      DocpipeError,
    );
    expect(err.slug).toBe('unsupported-file-type');
    expect(err.details[0]).toMatchObject({ field: 'documents[0]' });
    expect(err.details[0]!.message).toMatch(/^too-large: /);
  });

  it('says a file that is not there is bad input, and a broken document.json every problem', async () => {
    await rejectionOf(resolveTemplate({ path: join(nda, 'gone.docx') }), InputError);
    const dir = testDir('resolve-broken-');
    mkdirSync(join(dir, 'doc'));
    writeFileSync(join(dir, 'doc', 'document.json'), '{"timezone": "UTC", "locale": 3}');
    const err = await rejectionOf(resolveTemplate({ path: join(dir, 'doc') }), DocumentJsonError);
    expect(err.problems).toHaveLength(2);
  });
});

describe('FieldDeclarationSchema', () => {
  it('takes every field type, and only those', () => {
    const check = Compile(FieldDeclarationSchema);
    for (const type of FIELD_TYPES) expect(check.Check({ type })).toBe(true);
    expect(check.Check({ type: 'money' })).toBe(false);
  });
});
