import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { lastMailTo, mails } from './account-client.js';

/**
 * `docpipe users add` sends the new member the dashboard's invitation e-mail (into the .eml
 * folder without SMTP), its link on the configured public URL; `--no-invite` sends none.
 */
const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
let database: TestDatabase;
let dataDir: string;

beforeAll(async () => {
  database = await testDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'docpipe-users-invite-'));
});
afterAll(async () => {
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function docpipe(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      DOCPIPE_DATA_DIR: dataDir,
      DOCPIPE_PUBLIC_URL: 'https://docpipe.example',
    },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('docpipe users add', () => {
  it('sends the invitation e-mail with its link, and says so', async () => {
    expect(docpipe('companies', 'create', 'acme', '--name', 'Acme A/S').status).toBe(0);
    const r = docpipe(
      'users',
      'add',
      '--company',
      'acme',
      '--email',
      'ann@acme.example',
      '--name',
      'Ann',
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^added ann@acme\.example \("Ann"\) to company acme\n/);
    expect(r.stdout).toMatch(/sent the invitation e-mail to ann@acme\.example \(.+\.eml\)/);
    const { mail, link } = await lastMailTo(
      join(dataDir, 'mail'),
      'ann@acme.example',
      '/user/invitation/',
    );
    expect(mail.subject).toBe('Du er inviteret til Acme A/S på docpipe');
    expect(link).toMatch(/^https:\/\/docpipe\.example\/user\/invitation\/[A-Za-z0-9_-]{43}$/);
    const links = await database.db.selectFrom('login_links').select('purpose').execute();
    expect(links).toEqual([{ purpose: 'invite' }]);
  });

  it('sends none with --no-invite, and tells the JSON whether it sent one', async () => {
    const before = (await mails(join(dataDir, 'mail'))).length;
    const r = docpipe(
      'users',
      'add',
      '--company',
      'acme',
      '--email',
      'bo@acme.example',
      '--name',
      'Bo',
      '--no-invite',
      '--json',
    );
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      email: 'bo@acme.example',
      invitation: { sent: false },
    });
    expect((await mails(join(dataDir, 'mail'))).length).toBe(before);
  });
});
