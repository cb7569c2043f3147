import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../src/service/keys/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { socketUrl } from '../../src/platform/postgres/index.js';
import { addKeyOwner, type KeyOwner } from '../helpers/key-owner.js';
import { docpipeInProcess } from '../helpers/cli-in-process.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';

/**
 * `docpipe keys` as an operator runs it: the built CLI against a real PostgreSQL (a database of
 * this file's own, DATABASE_URL), each test on companies of its own; the keys it prints are
 * checked with the key store the HTTP server uses.
 */

const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
const data = mkdtempSync(join(tmpdir(), 'docpipe-keys-cli-'));
let t: TestDatabase;
let store: KeyStore;

beforeAll(async () => {
  t = await testDatabase();
  store = new KeyStore({ db: t.db, databaseUrl: t.url });
});
afterAll(async () => {
  await t.close();
  rmSync(data, { recursive: true, force: true });
});

/** This file's environment for `docpipe keys`: no Redis, no database unless `env` gives one. */
function keysEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return { REDIS_URL: undefined, DATABASE_URL: undefined, DOCPIPE_DATA_DIR: data, ...env };
}

/** `docpipe keys` run in this process (test/helpers/cli-in-process.ts). */
function docpipe(env: Record<string, string | undefined>, ...args: string[]) {
  return docpipeInProcess(keysEnv(env), 'keys', ...args);
}

/** The same through the built CLI in a process of its own: its exit status as a script sees it. */
function spawned(env: Record<string, string | undefined>, ...args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'keys', ...args], {
    encoding: 'utf8',
    cwd: root,
    env: { ...process.env, ...keysEnv(env) },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

let companies = 0;
/**
 * A company of the test's own with a user (and `more` users or companies as asked), the CLI on
 * the file's database, and the key store the server would open on it.
 */
async function fresh() {
  const owner = await addKeyOwner(t.db, `cli-${++companies}`);
  const run = (...args: string[]) => docpipe({ DATABASE_URL: t.url }, ...args);
  /** `keys create` for the owner, with more flags. */
  const create = (...flags: string[]) =>
    run('create', '--company', owner.company, '--user', owner.email, ...flags);
  return { owner, run, create };
}

describe('docpipe keys', () => {
  it('create prints the key alone on stdout, once, and says it cannot be shown again', async () => {
    const { owner, create } = await fresh();
    const r = await create('--name', 'billing server');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^dp_live_[0-9a-f]{16}_[0-9a-f]{64}\n$/);
    const key = r.stdout.trim();
    const id = key.slice(8, 24);
    expect(r.stderr).toBe(
      `docpipe: API key ${id} of ${owner.email} in company ${owner.company} ("billing server"), does not expire.\n` +
        'Store the key now: it is shown only this once and cannot be shown again.\n',
    );
    expect(await store.verify(key)).toEqual({
      ok: true,
      identity: { id, company: owner.company, name: 'billing server', userId: owner.userId },
    });
  });

  it('create --json --expires 90d gives the record and the key, expiring in 90 days', async () => {
    const { owner, create } = await fresh();
    const r = await create('--expires', '90d', '--json');
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, string>;
    expect(Object.keys(out).sort()).toEqual([
      'company',
      'createdAt',
      'expiresAt',
      'id',
      'key',
      'name',
      'user',
      'userId',
    ]);
    // Without --name, the key has the default name, not its user's e-mail again.
    expect(out).toMatchObject({
      company: owner.company,
      name: 'API key',
      user: owner.email,
      userId: owner.userId,
    });
    expect(Date.parse(out.expiresAt!) - Date.parse(out.createdAt!)).toBe(90 * 86_400_000);
    expect(r.stderr).toContain('cannot be shown again');
    expect(r.stderr).toContain(`in company ${owner.company}, expires `);
    expect(r.stderr.split(owner.email)).toHaveLength(2);
    expect((await store.verify(out.key!)).ok).toBe(true);
  });

  it('list shows every key with its user, status and times, never a key', async () => {
    const { owner, run, create } = await fresh();
    const other = await addKeyOwner(t.db, `cli-other-${companies}`);
    const gone: KeyOwner = await addKeyOwner(t.db, owner.company, 'gone@cli.example');
    const a = await create('--name', 'first one', '--json');
    const b = await run(
      'create',
      '--company',
      other.company,
      '--user',
      other.email,
      '--name',
      'second',
      '--expires',
      '12h',
    );
    const c = await run(
      'create',
      '--company',
      owner.company,
      '--user',
      gone.email,
      '--name',
      'third',
    );
    const first = JSON.parse(a.stdout) as { id: string; key: string };
    const second = b.stdout.trim();
    const third = c.stdout.trim();
    expect((await run('revoke', first.id)).status).toBe(0);
    await t.db.deleteFrom('users').where('id', '=', gone.userId).execute();

    const text = await run('list');
    expect(text.status, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    const mine = (id: string) => lines.find((l) => l.startsWith(id));
    expect(lines[0]).toMatch(/^ID\s+COMPANY\s+USER\s+STATUS\s+CREATED\s+EXPIRES\s+REVOKED\s+NAME$/);
    expect(mine(first.id)).toMatch(
      new RegExp(
        `^${first.id}  ${owner.company}\\s+${owner.email}\\s+revoked  \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ  never\\s+\\d{4}-\\S+Z  first one$`,
      ),
    );
    expect(mine(second.slice(8, 24))).toMatch(
      new RegExp(`  ${other.company}\\s+${other.email}\\s+active\\s+\\S+Z  \\S+Z  -\\s+second$`),
    );
    expect(mine(third.slice(8, 24))).toMatch(/\(removed\)\s+no-user\s+\S+Z {2}never\s+-\s+third$/);

    const json = await run('list', '--company', owner.company, '--json');
    const listed = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(listed.map((k) => Object.keys(k).sort())).toEqual([
      ['company', 'createdAt', 'id', 'name', 'revokedAt', 'user', 'userId'],
      ['company', 'createdAt', 'id', 'name'],
    ]);
    for (const out of [text.stdout, json.stdout]) {
      for (const k of [first.key, second, third]) expect(out).not.toContain(k.slice(20));
    }
    const only = JSON.parse(
      (await run('list', '--company', other.company, '--json')).stdout,
    ) as unknown[];
    expect(only).toEqual([expect.objectContaining({ company: other.company, name: 'second' })]);
  });

  it('list says so when there are no keys', async () => {
    const { owner, run } = await fresh();
    const r = await run('list', '--company', owner.company);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^docpipe: no API keys for company cli-\d+; create one with: docpipe keys create --company <id> --user <email>/,
    );
    expect((await run('list', '--company', owner.company, '--json')).stdout).toBe('[]\n');
  });

  it('revoke stops a key, says so when it was already revoked, and refuses an unknown id', async () => {
    const { run, create } = await fresh();
    const key = (await create('--name', 'old')).stdout.trim();
    const id = key.slice(8, 24);
    const r = await run('revoke', id);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `revoked API key ${id}: requests with it fail with 401 within 5 seconds on every server\n`,
    );
    expect(await store.verify(key)).toEqual({ ok: false, reason: 'revoked' });
    const again = await run('revoke', id);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(
      new RegExp(`^API key ${id} was already revoked at \\d{4}-\\S+Z\\n$`),
    );
    const unknown = await run('revoke', '0123456789abcdef');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no API key with id 0123456789abcdef');
    const whole = await run('revoke', key);
    expect(whole.status).toBe(2);
    expect(whole.stderr).toContain('is not a key id: ids are 16 characters');
  });

  it('is bad usage (exit 2) for a bad lifetime, company, user or name, and creates nothing', async () => {
    const { owner, run } = await fresh();
    await addKeyOwner(t.db, `cli-off-${companies}`);
    await t.db
      .updateTable('companies')
      .set({ disabled: true })
      .where('id', '=', `cli-off-${companies}`)
      .execute();
    const cases: [string[], string][] = [
      [['--expires', '90x'], '--expires: "90x" is not a duration'],
      [['--expires', '0d'], '--expires: "0d" is no time at all'],
      [['--company', 'acme corp'], '--company: must be 1 to 128 letters'],
      [['--user', 'nobody'], '--user: must be the e-mail of a user of the company'],
      [['--name', ' '], '--name: must be a non-empty text'],
      [['--company', 'no-such-co'], '--company: no company no-such-co: create it first'],
      [
        ['--company', `cli-off-${companies}`],
        `--company: company cli-off-${companies} is disabled, and its keys are refused: enable it first`,
      ],
      [['--user', 'stranger@x.example'], `--user: no user stranger@x.example in company`],
    ];
    for (const [flags, message] of cases) {
      const base = { '--company': owner.company, '--user': owner.email } as Record<string, string>;
      for (let i = 0; i < flags.length; i += 2) base[flags[i]!] = flags[i + 1]!;
      const r = await run('create', ...Object.entries(base).flat());
      expect(r.status, flags.join(' ')).toBe(2);
      expect(r.stderr, flags.join(' ')).toContain(message);
      expect(r.stdout).toBe('');
    }
    const missing = await run('create', '--company', owner.company);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("required option '--user <email>' not specified");
    expect(await store.list({ company: owner.company })).toEqual([]);
  });

  it('is exit 2 without a database and exit 3 when PostgreSQL does not answer', () => {
    const none = spawned({}, 'list');
    expect(none.status).toBe(2);
    expect(none.stderr).toContain(
      `docpipe: no PostgreSQL: DATABASE_URL is not set, and no "docpipe start" runs on the data folder ${data} `,
    );
    const nowhere = socketUrl(join(data, 'nowhere'), 'docpipe', 'docpipe');
    const down = spawned({ DATABASE_URL: nowhere }, 'create', '--company', 'a', '--user', 'b@c.d');
    expect(down.status).toBe(3);
    expect(down.stderr).toMatch(/^docpipe: cannot reach PostgreSQL at postgresql:/);
    expect(down.stdout).toBe('');
  });
});
