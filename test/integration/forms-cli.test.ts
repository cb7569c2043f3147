import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { formsFolder } from '../../src/service/forms/index.js';
import { leaseDocx, leaseFormFolder } from '../fixtures/forms/form-folder.js';
import { docpipeInProcess } from '../helpers/cli-in-process.js';
import { para } from '../helpers/docx-builder.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';

/**
 * `docpipe forms import` and `forms list` through the built CLI, against the worker's real
 * PostgreSQL and the data folder's local storage: a form imported with its templates stored and
 * its row written, re-imported in place (the old templates removed), listed; and each refusal
 * (a template tag the form does not define, a bad form.json member, a missing, foreign or
 * unreadable template, a folder the company lacks, no such company) naming the file and field,
 * and leaving the rows and the storage as they were.
 */

const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
let database: TestDatabase;
let dir: string;
let dataDir: string;

beforeAll(async () => {
  database = await testDatabase();
  dir = mkdtempSync(join(tmpdir(), 'docpipe-forms-cli-'));
  dataDir = join(dir, 'data');
  mkdirSync(dataDir);
  const acme = await docpipe('companies', 'create', 'acme', '--name', 'Acme');
  expect(acme.status, acme.stderr).toBe(0);
  expect((await docpipe('companies', 'create', 'globex', '--name', 'Globex')).status).toBe(0);
  expect((await docpipe('folders', 'add', '--company', 'acme', 'Leases')).status).toBe(0);
});
afterAll(async () => {
  await database?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A docpipe command run in this process (test/helpers/cli-in-process.ts) on this file's database. */
function docpipe(...args: string[]) {
  return docpipeInProcess({ DATABASE_URL: database.url, DOCPIPE_DATA_DIR: dataDir }, ...args);
}

/** The same through the built CLI in a process of its own, as an operator runs it. */
function spawned(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    cwd: root,
    env: { ...process.env, DATABASE_URL: database.url, DOCPIPE_DATA_DIR: dataDir },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The stored template keys of a company's forms. */
async function stored(company: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of new LocalStorage(join(dataDir, 'storage')).list(formsFolder(company)))
    keys.push(o.key);
  return keys.sort();
}

/** Every forms row and every stored template: what a refusal must leave as it was. */
async function footprint() {
  const rows = await database.db
    .selectFrom('forms')
    .selectAll()
    .orderBy('company_id')
    .orderBy('id')
    .execute();
  return { rows, acme: await stored('acme'), globex: await stored('globex') };
}

let n = 0;
/** A fresh copy of the lease form in a folder of its own. */
const folderOf = (options: Parameters<typeof leaseFormFolder>[1] = {}) => {
  const parent = join(dir, `f${++n}`);
  mkdirSync(parent);
  return leaseFormFolder(parent, options);
};

describe('docpipe forms import', () => {
  it('imports the folder: the id from its name, the templates stored, the row written', async () => {
    const folder = await folderOf();
    const r = await docpipe('forms', 'import', folder, '--company', 'acme', '--json');
    expect(r.status, r.stderr).toBe(0);
    const form = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(form).toMatchObject({
      id: 'lease',
      company: 'acme',
      title: 'Lease agreement',
      folder: null,
      active: true,
      webflow: false,
      replaced: false,
      settings: { lang: 'en', reminders: { send: true, amount: 2, daysBetween: 3 } },
      tags: [
        { _id: 't-tenant', name: 'Tenant', tag: 'tenant', value: null, type: 'text' },
        { _id: 't-rent', name: 'Monthly rent', tag: 'rent', value: 1200, type: 'number' },
        { _id: 't-start', name: 'Start date', tag: 'start', value: '2026-01-01', type: 'date' },
      ],
      recipients: [{ name: 'Acme office', email: 'office@acme.example', signing: false }],
    });
    expect(form.documents).toEqual([
      {
        name: 'Lease',
        file: 'lease.docx',
        type: 'docx',
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
        bytes: leaseDocx().length,
        documentMustBeRead: true,
      },
      expect.objectContaining({ name: 'Terms', file: 'terms.pdf', type: 'pdf' }),
    ]);
    const keys = await stored('acme');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^forms\/61636d65\/[0-9a-f-]{36}\/0\.docx$/);
    expect(keys[1]).toMatch(/^forms\/61636d65\/[0-9a-f-]{36}\/1\.pdf$/);
    const rows = await database.db.selectFrom('forms').select(['company_id', 'id']).execute();
    expect(rows).toEqual([{ company_id: 'acme', id: 'lease' }]);
  });

  it('re-imports the same id in place: one row, its creation kept, the old templates removed', async () => {
    const before = await footprint();
    const folder = await folderOf({
      edit: (f) => {
        f.title = 'Lease agreement 2027';
        f.folder = 'Leases';
      },
    });
    const r = await docpipe('forms', 'import', folder, '--company', 'acme');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      'replaced form "Lease agreement 2027" (id lease, 2 documents, 3 tags) in company acme\n',
    );
    const after = await footprint();
    expect(after.rows).toHaveLength(1);
    expect(after.rows[0]).toMatchObject({ title: 'Lease agreement 2027', folder_name: 'Leases' });
    expect(after.rows[0]!.created_at).toEqual(before.rows[0]!.created_at);
    expect(after.acme).toHaveLength(2);
    expect(after.acme.some((k) => before.acme.includes(k))).toBe(false);
  });

  it('takes the id form.json gives, and imports for one company only', async () => {
    const folder = await folderOf({ name: 'whatever', edit: (f) => (f.id = 'Lease-B') });
    expect((await docpipe('forms', 'import', folder, '--company', 'globex')).status).toBe(0);
    const list = JSON.parse(
      (await docpipe('forms', 'list', '--company', 'globex', '--json')).stdout,
    ) as {
      _id: string;
      folder: string;
    }[];
    expect(list.map((f) => [f._id, f.folder])).toEqual([['Lease-B', 'Default']]);
    expect((await stored('globex')).every((k) => k.startsWith('forms/676c6f626578/'))).toBe(true);
  });

  describe('refuses, naming the file and the field, and writes nothing', () => {
    async function refused(folder: string, company = 'acme') {
      const before = await footprint();
      const r = await docpipe('forms', 'import', folder, '--company', company);
      const json = await docpipe('forms', 'import', folder, '--company', company, '--json');
      expect(await footprint()).toEqual(before);
      return { ...r, json: json.stdout === '' ? undefined : (JSON.parse(json.stdout) as unknown) };
    }

    it('a template with a tag the form does not define (lint: undeclared_tag)', async () => {
      const folder = await folderOf({
        docx: leaseDocx(para('Lease for {tenant}, deposit {deposit}, rent {rent}.')),
      });
      const r = await refused(folder);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`docpipe: ${join(folder, 'form.json')}: the form is refused`);
      expect(r.stderr).toMatch(
        /documents\[0\]\.file: lease\.docx: body ¶1: undeclared_tag: The tag "\{deposit\}" is not among form\.json's tags/,
      );
      expect(r.json).toMatchObject({
        error: 'validation-failed',
        file: join(folder, 'form.json'),
        details: [{ field: 'documents[0].file' }],
      });
    });

    it('a broken tag, a bad member, a missing and a foreign template, every one at once', async () => {
      const folder = await folderOf({
        docx: leaseDocx(para('Lease for {tenant')),
        edit: (f) => {
          (f.tags as { type: string }[])[0]!.type = 'money';
          (f.documents as { file: string }[])[1]!.file = 'missing.pdf';
          (f.documents as unknown[]).push({ name: 'Out', file: '../secret.docx' });
        },
      });
      const r = await refused(folder);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('tags[0].type: must be one of text, number, date, boolean');
      // The tags are refused first: the templates are checked once form.json is sound.
      const json = r.json as { details: { field: string; message: string }[] };
      expect(json.details.map((d) => d.field)).toEqual(['tags[0].type']);

      const second = await folderOf({
        docx: leaseDocx(para('Lease for {tenant')),
        edit: (f) => {
          (f.documents as { file: string }[])[1]!.file = 'missing.pdf';
          (f.documents as unknown[]).push({ name: 'Out', file: '../secret.docx' });
        },
      });
      const all = (await refused(second)).json as { details: { field: string; message: string }[] };
      expect(all.details.map((d) => [d.field, d.message.split(':')[0]])).toEqual([
        ['documents[0].file', 'lease.docx'],
        ['documents[1].file', 'missing.pdf'],
        ['documents[2].file', '../secret.docx'],
      ]);
      expect(all.details[0]!.message).toContain('unclosed_tag');
      expect(all.details[1]!.message).toContain('does not exist in the form folder');
      expect(all.details[2]!.message).toContain('inside the form folder');
    });

    it('a template that is no .docx or PDF, and one linked from outside the folder', async () => {
      const folder = await folderOf({ docx: Buffer.from('just some text, no document') });
      const r = await refused(folder);
      expect(r.stderr).toMatch(/documents\[0\]\.file: lease\.docx: is not a PDF or a \.docx/);

      const outside = join(dir, 'outside.pdf');
      writeFileSync(outside, 'x');
      const linked = await folderOf({
        edit: (f) => ((f.documents as { file: string }[])[1]!.file = 'linked.pdf'),
      });
      symlinkSync(outside, join(linked, 'linked.pdf'));
      expect((await refused(linked)).stderr).toMatch(
        /documents\[1\]\.file: linked\.pdf: leads out of the form folder/,
      );
    });

    it('a folder the company does not have, an unknown company, no folder, no form.json', async () => {
      const folder = await folderOf({ edit: (f) => (f.folder = 'Nope') });
      const r = await refused(folder);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('folder: company acme has no folder "Nope"');

      const company = await refused(await folderOf(), 'nobody');
      expect(company.status).toBe(1);
      expect(company.stderr).toContain('company nobody does not exist');

      const none = await refused(join(dir, 'no-such-folder'));
      expect(none.status).toBe(2);
      expect(none.stderr).toContain('is not a folder');

      const empty = join(dir, 'empty');
      mkdirSync(empty);
      const noFile = await refused(empty);
      expect(noFile.status).toBe(2);
      expect(noFile.stderr).toContain(join(empty, 'form.json'));
    });

    it('a refused re-import leaves the form in use as it was', async () => {
      const folder = await folderOf({
        edit: (f) => (f.title = 'Never'),
        docx: leaseDocx(para('{unknown}')),
      });
      await refused(folder);
      const row = await database.db
        .selectFrom('forms')
        .select('title')
        .where('company_id', '=', 'acme')
        .where('id', '=', 'lease')
        .executeTakeFirstOrThrow();
      expect(row.title).toBe('Lease agreement 2027');
    });
  });
});

describe('docpipe forms list', () => {
  it('lists a company’s forms as a table and as JSON without storage internals', async () => {
    const r = await docpipe('forms', 'list', '--company', 'acme');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ID\s+UPDATED\s+ACTIVE\s+WEBFLOW\s+DOCUMENTS\s+TITLE\n/);
    expect(r.stdout).toMatch(/\nlease\s+\S+\s+yes\s+no\s+2\s+Lease agreement 2027\n$/);
    const json = (await docpipe('forms', 'list', '--company', 'acme', '--json')).stdout;
    expect(JSON.parse(json)).toMatchObject([
      {
        _id: 'lease',
        companyId: 'acme',
        folder: 'Leases',
        documents: [
          { name: 'Lease', type: 'docx', documentMustBeRead: true },
          { name: 'Terms', type: 'pdf' },
        ],
      },
    ]);
    expect(json).not.toMatch(/forms\/|storageKey|sha256/);
  });

  it('says when a company has none, and refuses an unknown company', async () => {
    await docpipe('companies', 'create', 'empty-co', '--name', 'Empty');
    const none = await docpipe('forms', 'list', '--company', 'empty-co');
    expect(none.status).toBe(0);
    expect(none.stderr).toContain('company empty-co has no forms');
    // The built CLI's own exit status, as a script sees it.
    expect(spawned('forms', 'list', '--company', 'nobody').status).toBe(1);
  });

  it('shows whether a form can start web-flows (form.json "webflow", stored on the row)', async () => {
    await docpipe('companies', 'create', 'flow-co', '--name', 'Flow');
    const folder = await folderOf({ edit: (f) => (f.webflow = true) });
    const r = await docpipe('forms', 'import', folder, '--company', 'flow-co', '--json');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'lease', active: true, webflow: true });
    const row = await database.db
      .selectFrom('forms')
      .select('webflow')
      .where('company_id', '=', 'flow-co')
      .where('id', '=', 'lease')
      .executeTakeFirstOrThrow();
    expect(row.webflow).toBe(true);
    const list = await docpipe('forms', 'list', '--company', 'flow-co');
    expect(list.stdout).toMatch(/\nlease\s+\S+\s+yes\s+yes\s+2\s+Lease agreement\n$/);
  });
});

describe('the example form (examples/forms/lease, docs/forms.md)', () => {
  it('imports as docs/forms.md says, its tags and their defaults read from form.json', async () => {
    expect((await docpipe('companies', 'create', 'initech', '--name', 'Initech')).status).toBe(0);
    // Through the built CLI, as the operator of docs/forms.md runs it.
    const r = spawned(
      'forms',
      'import',
      join(root, 'examples', 'forms', 'lease'),
      '--company',
      'initech',
      '--json',
    );
    expect(r.status, r.stderr).toBe(0);
    const form = JSON.parse(r.stdout) as {
      id: string;
      tags: { tag: string; value: unknown }[];
      documents: { type: string }[];
    };
    expect(form.id).toBe('lease');
    expect(form.tags.find((t) => t.tag === 'signing_city')?.value).toBe('Aarhus');
    expect(form.tags.find((t) => t.tag === 'tenant_name')?.value).toBeNull();
    expect(form.documents.map((d) => d.type)).toEqual(['docx']);
  });
});
