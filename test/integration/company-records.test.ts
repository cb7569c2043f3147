import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CompanyRepository,
  FolderRepository,
  MessageTemplateRepository,
  PresetRepository,
  RecordExistsError,
  RecordInvalidError,
  RecordNotFoundError,
  UserRepository,
} from '../../src/service/companies/index.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';

/**
 * The company records' repositories on a real PostgreSQL (a migrated database of this file's
 * own): what one company owns is never listed or found for another, and the typed errors.
 */

let database: TestDatabase;
let companies: CompanyRepository;
let users: UserRepository;
let folders: FolderRepository;
let presets: PresetRepository;
let templates: MessageTemplateRepository;

beforeAll(async () => {
  database = await testDatabase();
  const { db } = database;
  companies = new CompanyRepository(db);
  users = new UserRepository(db);
  folders = new FolderRepository(db);
  presets = new PresetRepository(db);
  templates = new MessageTemplateRepository(db);
  await companies.create({ id: 'a', name: 'A' });
  await companies.create({ id: 'b', name: 'B' });
});
afterAll(async () => {
  await database.close();
});

describe('company isolation', () => {
  it("never lists or finds one company's folders, presets, templates or users for another", async () => {
    const folder = await folders.add('a', 'Leases');
    const preset = await presets.add('a', { id: 'p1', name: 'P', settings: { autoSend: true } });
    const template = await templates.add('a', { id: 't1', subject: 'S', body: 'B' });
    const user = await users.add('a', { email: 'ann@a.example', name: 'Ann' });

    expect((await folders.list('a')).map((f) => f.name)).toEqual(['Default', 'Leases']);
    expect((await folders.list('b')).map((f) => f.name)).toEqual(['Default']);
    expect(await presets.list('b')).toEqual([]);
    expect(await templates.list('b')).toEqual([]);
    expect(await users.list('b')).toEqual([]);

    expect(await folders.find('b', folder.id)).toBeUndefined();
    expect(await folders.find('b', 'Leases')).toBeUndefined();
    expect(await presets.find('b', preset.id)).toBeUndefined();
    expect(await templates.find('b', template.id)).toBeUndefined();
    expect(await users.findByEmail('b', 'ann@a.example')).toBeUndefined();
    expect(await users.findById('b', user.id)).toBeUndefined();
    await expect(users.remove('b', 'ann@a.example')).rejects.toBeInstanceOf(RecordNotFoundError);

    // The same ones in their own company.
    expect(await folders.find('a', 'Leases')).toEqual(folder);
    expect(await folders.find('a', folder.id)).toEqual(folder);
    expect(await presets.find('a', 'p1')).toEqual(preset);
    expect(await templates.find('a', 't1')).toEqual(template);
    expect(await users.findByEmail('a', 'ANN@A.EXAMPLE')).toEqual(user);
    expect(await users.findById('a', user.id)).toEqual(user);
    expect(await users.findById('a', 'not-a-uuid')).toBeUndefined();
  });

  it('gives each company its own default folder, and ids unique per company only', async () => {
    const [a, b] = [await folders.defaultFolder('a'), await folders.defaultFolder('b')];
    expect(a).toMatchObject({ company: 'a', name: 'Default', isDefault: true });
    expect(b).toMatchObject({ company: 'b', name: 'Default', isDefault: true });
    expect(a.id).not.toBe(b.id);
    await presets.add('b', { id: 'p1', name: 'P', settings: {} });
    await templates.add('b', { id: 't1', subject: 'S', body: 'B' });
    expect((await presets.list('b')).map((p) => p.company)).toEqual(['b']);
    expect((await templates.list('a')).map((t) => t.company)).toEqual(['a']);
  });
});

describe('typed errors', () => {
  it('names what exists, what is absent, and every problem of an input', async () => {
    await expect(companies.create({ id: 'a', name: 'Again' })).rejects.toMatchObject(
      new RecordExistsError('company', 'a'),
    );
    await expect(folders.add('a', 'Leases')).rejects.toMatchObject({
      name: 'RecordExistsError',
      message: 'folder "Leases" already exists in company a',
    });
    await expect(presets.add('a', { name: 'P', settings: {} })).rejects.toMatchObject({
      message: 'preset "P" already exists in company a',
    });
    await expect(folders.list('z')).rejects.toMatchObject(new RecordNotFoundError('company', 'z'));
    await expect(templates.add('z', { subject: 'S', body: 'B' })).rejects.toMatchObject({
      name: 'RecordNotFoundError',
      kind: 'company',
    });
    await expect(companies.get('z')).rejects.toBeInstanceOf(RecordNotFoundError);
    const invalid = await companies
      .create({ id: '-x', name: '', signingDomain: 'a b', defaultLanguage: 'klingon' })
      .catch((err: unknown) => err);
    expect(invalid).toBeInstanceOf(RecordInvalidError);
    expect((invalid as RecordInvalidError).problems.map((p) => p.path)).toEqual([
      'id',
      'name',
      'signingDomain',
      'defaultLanguage',
    ]);
    // Nothing was written by the refused creations.
    expect((await companies.list()).map((c) => c.id)).toEqual(['a', 'b']);
  });

  it('disables and enables, telling a change from a repeat', async () => {
    expect(await companies.setDisabled('b', true)).toMatchObject({
      changed: true,
      company: { disabled: true },
    });
    expect(await companies.setDisabled('b', true)).toMatchObject({ changed: false });
    expect(await companies.setDisabled('b', false)).toMatchObject({
      changed: true,
      company: { disabled: false },
    });
    await expect(companies.setDisabled('z', true)).rejects.toBeInstanceOf(RecordNotFoundError);
  });
});
