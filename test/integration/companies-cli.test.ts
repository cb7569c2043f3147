import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { MIGRATIONS } from '../../src/service/db/index.js';
import { docpipeInProcess } from '../helpers/cli-in-process.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * The operator's commands on the company records, through the built CLI, against the worker's
 * real PostgreSQL (a database of this file's own, empty, so the first command migrates it):
 * companies, users, folders, presets and message templates, each with its --json and its
 * refusals (unknown company, duplicate id and e-mail, a preset member and a placeholder with
 * where they are) and their exit statuses.
 */

const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
let database: TestDatabase;
let files: string;

beforeAll(async () => {
  database = await testDatabase({ migrated: false });
  files = mkdtempSync(join(tmpdir(), 'docpipe-companies-'));
});
afterAll(async () => {
  await database.close();
  rmSync(files, { recursive: true, force: true });
});

/** A docpipe command run in this process (test/helpers/cli-in-process.ts) on this file's database. */
function docpipe(...args: string[]) {
  return docpipeInProcess(
    { DATABASE_URL: database.url, DOCPIPE_DATA_DIR: testDir('docpipe-companies-data-') },
    ...args,
  );
}

/** The same through the built CLI in a process of its own, as an operator runs it. */
function spawned(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      DOCPIPE_DATA_DIR: testDir('docpipe-companies-data-'),
    },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function json(...args: string[]): Promise<unknown> {
  const r = await docpipe(...args, '--json');
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

function file(name: string, content: unknown): string {
  const path = join(files, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('docpipe companies', () => {
  it('migrates an empty database first, creates a company with its default folder, and lists it', async () => {
    // Through the built CLI: the first command an operator runs on an empty database.
    const r = spawned(
      'companies',
      'create',
      'acme',
      '--name',
      'Acme A/S',
      '--signing-domain',
      'Sign.Acme.example',
      '--language',
      'en-gb',
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      `docpipe: applied migrations ${Object.keys(MIGRATIONS).sort().join(', ')}\n`,
    );
    expect(r.stdout).toBe('created company acme ("Acme A/S") with its default folder "Default"\n');

    const created = (await json('companies', 'create', 'beta', '--name', 'Beta')) as {
      company: Record<string, unknown>;
      defaultFolder: Record<string, unknown>;
    };
    expect(created.company).toMatchObject({
      id: 'beta',
      name: 'Beta',
      disabled: false,
      signingDomain: null,
      defaultLanguage: null,
    });
    expect(created.defaultFolder).toMatchObject({
      company: 'beta',
      name: 'Default',
      isDefault: true,
    });

    expect(await json('companies', 'list')).toMatchObject([
      { id: 'acme', signingDomain: 'sign.acme.example', defaultLanguage: 'en-GB', disabled: false },
      { id: 'beta' },
    ]);
    const table = (await docpipe('companies', 'list')).stdout.split('\n');
    expect(table[0]).toMatch(/^ID\s+STATUS\s+LANGUAGE\s+SIGNING DOMAIN\s+CREATED\s+NAME$/);
    expect(table[1]).toMatch(/^acme\s+enabled\s+en-GB\s+sign\.acme\.example\s+\S+Z\s+Acme A\/S$/);
  });

  it('refuses a taken id (exit 1), a bad id, host or language by its flag (exit 2)', async () => {
    // The built CLI's own exit status, as a script sees it.
    const taken = spawned('companies', 'create', 'acme', '--name', 'Again');
    expect(taken.status).toBe(1);
    expect(taken.stderr).toBe(
      'docpipe: company acme already exists ("docpipe companies list" shows it)\n',
    );
    expect(
      JSON.parse((await docpipe('companies', 'create', 'acme', '--name', 'A', '--json')).stdout),
    ).toEqual({
      error: 'company-exists',
      message: 'company acme already exists',
    });

    const bad = await docpipe(
      'companies',
      'create',
      'no spaces',
      '--name',
      'X',
      '--signing-domain',
      'https://sign.x.example/',
      '--language',
      'xx',
    );
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('docpipe: the company is refused:\n');
    expect(bad.stderr).toContain('  <id>: company id must be 1 to 128 letters');
    expect(bad.stderr).toContain(
      '  --signing-domain: must be a host name such as sign.acme.example, without a scheme or path',
    );
    expect(bad.stderr).toContain('  --language: locale "xx" is not supported');
    expect(await json('companies', 'list')).toHaveLength(2);
  });

  it('disables and enables a company, saying when it already was', async () => {
    const off = await docpipe('companies', 'disable', 'beta');
    expect(off.status, off.stderr).toBe(0);
    expect(off.stdout).toMatch(
      /^disabled company beta: its API keys are refused \(company-disabled\)/,
    );
    expect(await json('companies', 'disable', 'beta')).toMatchObject({
      company: { id: 'beta', disabled: true },
      changed: false,
    });
    expect((await docpipe('companies', 'enable', 'beta')).stdout).toBe(
      'enabled company beta: its API keys work again\n',
    );
    expect((await docpipe('companies', 'enable', 'beta')).stdout).toBe(
      'company beta was already enabled\n',
    );
    const unknown = await docpipe('companies', 'disable', 'nope');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toBe(
      'docpipe: company nope does not exist: "docpipe companies list" shows the companies, "docpipe companies create" makes one\n',
    );
  });

  it("sets whether a case's sender gets the signed copy, on by default, and refuses a value not on or off", async () => {
    expect(await json('companies', 'list')).toMatchObject([
      { id: 'acme', sendSignedCopyToSender: true },
      { id: 'beta', sendSignedCopyToSender: true },
    ]);
    const off = await docpipe('companies', 'set', 'beta', '--signed-copy-to-sender', 'off');
    expect(off.status, off.stderr).toBe(0);
    expect(off.stdout).toBe('company beta: only the recipients of a case get its signed copy\n');
    expect(await json('companies', 'list')).toMatchObject([
      { id: 'acme', sendSignedCopyToSender: true },
      { id: 'beta', sendSignedCopyToSender: false },
    ]);
    expect(await json('companies', 'set', 'beta', '--signed-copy-to-sender', 'on')).toMatchObject({
      id: 'beta',
      sendSignedCopyToSender: true,
    });
    expect(
      (
        (await json(
          'companies',
          'create',
          'gamma',
          '--name',
          'G',
          '--signed-copy-to-sender',
          'off',
        )) as {
          company: unknown;
        }
      ).company,
    ).toMatchObject({ id: 'gamma', sendSignedCopyToSender: false });
    const bad = await docpipe('companies', 'set', 'beta', '--signed-copy-to-sender', 'maybe');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('  --signed-copy-to-sender: must be on or off (got "maybe")');
    const unknown = await docpipe('companies', 'set', 'nope', '--signed-copy-to-sender', 'on');
    expect(unknown.status).toBe(1);
  });
});

describe('docpipe users', () => {
  it('adds, lists and removes users; an e-mail address is one user whatever its case', async () => {
    const added = await docpipe(
      'users',
      'add',
      '--company',
      'acme',
      '--email',
      'Ann@Acme.example',
      '--name',
      'Ann Berg',
      '--admin',
    );
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).toMatch(
      /^added Ann@Acme\.example \("Ann Berg"\) to company acme as an admin\nsent the invitation e-mail to Ann@Acme\.example \(.+\.eml\)/,
    );
    expect(
      await json('users', 'add', '--company', 'acme', '--email', 'bo@acme.example', '--name', 'Bo'),
    ).toMatchObject({ company: 'acme', email: 'bo@acme.example', name: 'Bo', admin: false });

    const again = await docpipe(
      'users',
      'add',
      '--company',
      'acme',
      '--email',
      'ann@ACME.example',
      '--name',
      'A',
    );
    expect(again.status).toBe(1);
    expect(again.stderr).toBe(
      'docpipe: user ann@ACME.example already exists in company acme ("docpipe users list --company acme" shows them)\n',
    );
    // The same address may belong to another company.
    expect(
      await json(
        'users',
        'add',
        '--company',
        'beta',
        '--email',
        'ann@acme.example',
        '--name',
        'Ann',
      ),
    ).toMatchObject({ company: 'beta' });

    expect(
      ((await json('users', 'list', '--company', 'acme')) as { email: string }[]).map(
        (u) => u.email,
      ),
    ).toEqual(['Ann@Acme.example', 'bo@acme.example']);
    const table = (await docpipe('users', 'list', '--company', 'acme')).stdout.split('\n');
    expect(table[0]).toMatch(/^EMAIL\s+ADMIN\s+CREATED\s+NAME$/);
    expect(table[1]).toMatch(/^Ann@Acme\.example\s+yes\s+\S+Z\s+Ann Berg$/);

    const removed = await docpipe(
      'users',
      'remove',
      '--company',
      'acme',
      '--email',
      'ANN@acme.EXAMPLE',
    );
    expect(removed.status, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(
      /^removed Ann@Acme\.example from company acme; API keys made for this user are refused \(key-has-no-user\)/,
    );
    expect(((await json('users', 'list', '--company', 'acme')) as unknown[]).length).toBe(1);
    expect(((await json('users', 'list', '--company', 'beta')) as unknown[]).length).toBe(1);
  });

  it('refuses an unknown company, an unknown user and a bad address', async () => {
    const unknown = await docpipe(
      'users',
      'add',
      '--company',
      'nope',
      '--email',
      'a@b.example',
      '--name',
      'A',
    );
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(
      /^docpipe: company nope does not exist: "docpipe companies list"/,
    );
    expect((await docpipe('users', 'list', '--company', 'nope')).status).toBe(1);
    expect(
      JSON.parse((await docpipe('users', 'list', '--company', 'nope', '--json')).stdout),
    ).toEqual({
      error: 'company-not-found',
      message: 'company nope does not exist',
    });

    const nobody = await docpipe(
      'users',
      'remove',
      '--company',
      'acme',
      '--email',
      'zed@acme.example',
    );
    expect(nobody.status).toBe(1);
    expect(nobody.stderr).toBe(
      'docpipe: user zed@acme.example does not exist in company acme ("docpipe users list --company acme" shows them)\n',
    );

    const bad = await docpipe(
      'users',
      'add',
      '--company',
      'acme',
      '--email',
      'not an address',
      '--name',
      ' ',
    );
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(
      'docpipe: the user is refused:\n' +
        '  --email: must be an e-mail address such as ann@acme.example (got "not an address")\n' +
        '  --name: must not be empty\n',
    );
    const flag = await docpipe('users', 'list', '--company', 'a b');
    expect(flag.status).toBe(2);
    expect(flag.stderr).toMatch(/^docpipe: --company must be 1 to 128 letters/);
  });
});

describe('docpipe folders', () => {
  it('adds and lists folders, the default first, and refuses a taken name or unknown company', async () => {
    const added = (await json('folders', 'add', '--company', 'acme', 'Leases')) as { id: string };
    expect(added).toMatchObject({ company: 'acme', name: 'Leases', isDefault: false });
    expect((await docpipe('folders', 'add', '--company', 'acme', 'Archive')).stdout).toMatch(
      /^added folder "Archive" \(id [0-9a-f-]{36}\) to company acme\n$/,
    );
    expect(
      ((await json('folders', 'list', '--company', 'acme')) as { name: string }[]).map(
        (f) => f.name,
      ),
    ).toEqual(['Default', 'Archive', 'Leases']);
    const table = (await docpipe('folders', 'list', '--company', 'acme')).stdout.split('\n');
    expect(table[0]).toMatch(/^ID\s+DEFAULT\s+CREATED\s+NAME$/);
    expect(table[1]).toMatch(/^\S+\s+yes\s+\S+Z\s+Default$/);

    const taken = await docpipe('folders', 'add', '--company', 'acme', 'Leases');
    expect(taken.status).toBe(1);
    expect(taken.stderr).toBe(
      'docpipe: folder "Leases" already exists in company acme ("docpipe folders list --company acme" shows them)\n',
    );
    const unknown = await docpipe('folders', 'add', '--company', 'nope', 'Leases');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/^docpipe: company nope does not exist/);
    expect(((await json('folders', 'list', '--company', 'beta')) as unknown[]).length).toBe(1);
  });
});

describe('docpipe presets', () => {
  it('adds a preset file and lists it', async () => {
    const preset = file('lease.json', {
      id: 'lease',
      name: 'Lease defaults',
      settings: {
        language: 'en',
        expiresInDays: 14,
        reminders: { send: true, amount: 3, daysBetween: 7 },
        signingSchemas: ['urn:grn:authn:dk:mitid:substantial', 'draw'],
        integrations: { microsoft: { returnPath: '/sites/leases' } },
      },
    });
    const r = await docpipe('presets', 'add', '--company', 'acme', preset);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('added preset "Lease defaults" (presetId lease) to company acme\n');
    expect(await json('presets', 'list', '--company', 'acme')).toMatchObject([
      { id: 'lease', company: 'acme', name: 'Lease defaults', settings: { expiresInDays: 14 } },
    ]);
    expect((await docpipe('presets', 'list', '--company', 'acme')).stdout).toMatch(
      /^ID\s+CREATED\s+NAME\nlease\s+\S+Z\s+Lease defaults\n$/,
    );
    const again = await docpipe('presets', 'add', '--company', 'acme', preset);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/^docpipe: preset lease already exists in company acme/);
    // Another company may use the same id.
    expect(await json('presets', 'add', '--company', 'beta', preset)).toMatchObject({
      company: 'beta',
    });
  });

  it('refuses members spec 2.2 does not list, and wrong values, each with its path (exit 2)', async () => {
    const bad = file('bad-preset.json', {
      name: 'Bad',
      colour: 'red',
      settings: {
        deletion: { autoDelete: true },
        reminders: { amount: 30, every: 2 },
        signingSchemas: ['urn:grn:authn:dk:nemid'],
      },
    });
    const r = await docpipe('presets', 'add', '--company', 'acme', bad);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `docpipe: ${bad}: the preset is refused:\n` +
        '  colour: unknown field\n' +
        '  settings.deletion: unknown field (v3 does not accept settings.deletion: the company defaults apply)\n' +
        '  settings.reminders.amount: must be an integer from 1 to 20 (got 30)\n' +
        '  settings.reminders.every: unknown field\n' +
        '  settings.signingSchemas: holds unknown signing schemes "urn:grn:authn:dk:nemid" ' +
        '(known: urn:grn:authn:dk:mitid:low, urn:grn:authn:dk:mitid:substantial, urn:grn:authn:dk:mitid:business, ' +
        'urn:grn:authn:se:bankid, urn:grn:authn:de:personalausweis, draw)\n',
    );
    expect(
      JSON.parse((await docpipe('presets', 'add', '--company', 'acme', bad, '--json')).stdout),
    ).toMatchObject({
      error: 'validation-failed',
      details: [
        { field: 'colour', message: 'unknown field' },
        { field: 'settings.deletion' },
        {},
        {},
        {},
      ],
    });
    const notJson = await docpipe(
      'presets',
      'add',
      '--company',
      'acme',
      file('broken.json', '{"name":'),
    );
    expect(notJson.status).toBe(2);
    expect(notJson.stderr).toMatch(/broken\.json is not valid JSON/);
    expect(((await json('presets', 'list', '--company', 'acme')) as unknown[]).length).toBe(1);
  });
});

describe('docpipe message-templates', () => {
  it('adds a template file and lists it', async () => {
    const template = file('welcome.json', {
      id: 'welcome',
      name: 'Welcome',
      subject: '{{ case.title }}: please sign',
      body: 'Dear {{recipient.name}},\n\n{{sender.name}} asks you to sign: {{signingUrl}}\n',
    });
    const r = await docpipe('message-templates', 'add', '--company', 'acme', template);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      'added message template welcome to company acme: "{{ case.title }}: please sign"\n',
    );
    expect(await json('message-templates', 'list', '--company', 'acme')).toMatchObject([
      { id: 'welcome', company: 'acme', name: 'Welcome', subject: '{{ case.title }}: please sign' },
    ]);
    expect((await docpipe('message-templates', 'list', '--company', 'acme')).stdout).toMatch(
      /^ID\s+CREATED\s+NAME\s+SUBJECT\nwelcome\s+\S+Z\s+Welcome\s+\{\{ case\.title \}\}: please sign\n$/,
    );
    const again = await docpipe('message-templates', 'add', '--company', 'acme', template);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(
      /^docpipe: message template welcome already exists in company acme/,
    );
    expect((await docpipe('message-templates', 'list', '--company', 'beta')).stderr).toBe(
      'docpipe: company beta has no message templates; add one with: docpipe message-templates add --company beta <file.json>\n',
    );
  });

  it('refuses an unknown placeholder with its line and column, and an unknown company', async () => {
    const bad = file('bad-template.json', {
      subject: 'Hi',
      body: 'Dear {{recipient.name}},\nyour code: {{recipient.cpr}}\n',
    });
    const r = await docpipe('message-templates', 'add', '--company', 'acme', bad);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^docpipe: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the message template is refused:\n` +
          '  body: line 2, column 12: unknown placeholder \\{\\{recipient\\.cpr\\}\\} \\(known: recipient\\.name, ',
      ),
    );
    const unknown = await docpipe(
      'message-templates',
      'add',
      '--company',
      'nope',
      file('ok.json', { subject: 'Hi', body: 'Hello' }),
    );
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/^docpipe: company nope does not exist/);
  });
});
