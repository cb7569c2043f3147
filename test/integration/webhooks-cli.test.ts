import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { CompanyRepository } from '../../src/service/companies/index.js';
import { dispatchEvent } from '../../src/service/webhooks/index.js';
import { docpipeInProcess } from '../helpers/cli-in-process.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { testDir } from '../helpers/test-dir.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * `docpipe webhooks` through the built CLI against a real PostgreSQL: add (the secret printed
 * once), list, runs, replay (the try made by the command, to a receiver on loopback), enable,
 * disable and remove, with --json and their refusals and exit statuses. The commands run as
 * child processes without blocking this process, which serves the receiver.
 */

const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
let database: TestDatabase;
let receiver: WebhookReceiver;

beforeAll(async () => {
  database = await testDatabase();
  await new CompanyRepository(database.db).create({ id: 'acme', name: 'Acme' });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await database?.close();
});

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** This file's environment for docpipe: its database, and private destinations refused. */
function webhooksEnv(env: Record<string, string>): Record<string, string> {
  return {
    DATABASE_URL: database.url,
    DOCPIPE_DATA_DIR: testDir('docpipe-webhooks-data-'),
    DOCPIPE_WEBHOOK_ALLOW_PRIVATE: '',
    ...env,
  };
}

/** A docpipe command run in this process (test/helpers/cli-in-process.ts). */
function docpipe(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return docpipeInProcess(webhooksEnv(env), ...args);
}

/** The same through the built CLI in a process of its own: its exit status as a script sees it. */
function spawned(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [cli, ...args],
      { cwd: root, encoding: 'utf8', env: { ...process.env, ...webhooksEnv(env) } },
      (_err, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
    );
  });
}

async function json(args: string[], env?: Record<string, string>): Promise<unknown> {
  const r = await docpipe([...args, '--json'], env);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('docpipe webhooks', () => {
  it('adds a webhook and prints its secret once; list shows header names, never the secret', async () => {
    const added = (await json([
      'webhooks',
      'add',
      '--company',
      'acme',
      '--url',
      `${receiver.url}/in`,
      '--trigger',
      'case.created',
      '--trigger',
      'case.signed',
      '--header',
      'X-Key: shared-value',
      '--method',
      'put',
    ])) as { webhook: Record<string, unknown>; secret: string };
    expect(added.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(added.webhook).toMatchObject({
      company: 'acme',
      url: `${receiver.url}/in`,
      method: 'PUT',
      active: true,
      triggers: ['case.created', 'case.signed'],
      headers: ['X-Key'],
    });

    const text = await docpipe([
      'webhooks',
      'add',
      '--company',
      'acme',
      '--url',
      'https://hooks.example/x',
      '--trigger',
      '*',
      '--inactive',
    ]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /^added webhook [0-9a-f-]{36} to company acme: POST https:\/\/hooks\.example\/x \(\*\), disabled\nsecret: [A-Za-z0-9_-]{43}\n/,
    );

    const list = await docpipe(['webhooks', 'list', '--company', 'acme', '--json']);
    expect(list.status).toBe(0);
    expect(list.stdout).not.toContain(added.secret);
    expect(list.stdout).not.toContain('shared-value');
    expect(JSON.parse(list.stdout)).toMatchObject([
      { id: added.webhook.id, headers: ['X-Key'], active: true },
      { url: 'https://hooks.example/x', active: false, triggers: ['*'] },
    ]);
    const table = (await docpipe(['webhooks', 'list'])).stdout.split('\n');
    expect(table[0]).toMatch(/^ID\s+COMPANY\s+STATE\s+METHOD\s+TRIGGERS\s+URL$/);
    expect(table[1]).toMatch(
      new RegExp(
        `^${String(added.webhook.id)}\\s+acme\\s+enabled\\s+PUT\\s+case\\.created,case\\.signed\\s+http://127`,
      ),
    );
    expect(table[2]).toMatch(/\s+acme\s+disabled\s+POST\s+\*\s+https:\/\/hooks\.example\/x$/);
  });

  it('refuses a bad URL, header (framing, X-Docpipe-, not ASCII), method and trigger by their flags (exit 2), an unknown company (exit 1)', async () => {
    const bad = await docpipe([
      'webhooks',
      'add',
      '--company',
      'acme',
      '--url',
      'ftp://u:p@x.example/',
      '--trigger',
      'case.exploded',
      '--header',
      'Host: evil.example',
      '--header',
      'X-Docpipe-Tenant: acme',
      '--header',
      'X-City: Łódź',
      '--method',
      'GET',
      '--json',
    ]);
    expect(bad.status).toBe(2);
    expect(JSON.parse(bad.stdout)).toEqual({
      error: 'validation-failed',
      details: [
        { field: '--url', message: 'must be http or https (got ftp)' },
        {
          field: '--url',
          message: 'must not hold credentials (user:password@); send them in a --header',
        },
        { field: '--method', message: 'must be POST, PUT or PATCH (got "GET")' },
        {
          field: '--trigger',
          message: expect.stringMatching(/^"case\.exploded" is no trigger: give case\.created, /),
        },
        { field: '--header', message: 'Host is set by docpipe (it frames or routes the request)' },
        {
          field: '--header',
          message:
            "X-Docpipe-Tenant: the X-Docpipe- headers are docpipe's own (a receiver trusts them to come from docpipe); choose another name",
        },
        {
          field: '--header',
          message:
            'X-City\'s value holds "Ł" (U+0141): a header value is printable ASCII; percent-encode or base64 the text',
        },
      ],
    });
    expect(bad.stderr).toMatch(
      /^docpipe: the webhook is refused:\n {2}--url: must be http or https/,
    );

    const nobody = await docpipe([
      'webhooks',
      'add',
      '--company',
      'nobody',
      '--url',
      'https://x.example/',
      '--trigger',
      '*',
    ]);
    expect(nobody.status).toBe(1);
    expect(nobody.stderr).toMatch(/^docpipe: company nobody does not exist/);
  });

  // Nine docpipe commands, each a process that starts Node and opens the database: minutes on a
  // loaded two-core machine.
  it('lists runs, replays a failed delivery (refused to loopback unless allowed), and removes the webhook', async () => {
    const added = (await json([
      'webhooks',
      'add',
      '--company',
      'acme',
      '--url',
      `${receiver.url}/runs`,
      '--trigger',
      'recipient.signed',
    ])) as { webhook: { id: string } };
    receiver.script(500);
    const event = {
      id: randomUUID(),
      company: 'acme',
      caseId: null,
      trigger: 'recipient.signed',
      payload: { trigger: 'recipient.signed', case: { _id: 'c1', updatedAt: 'now' } },
    };
    const settings = {
      backoffMs: 50,
      retryForMs: 1,
      allowPrivate: true,
      timeoutMs: 5000,
      concurrency: 2,
    };
    const out = await dispatchEvent({ db: database.db, settings }, event);
    expect(out.result.error).toBe(`${receiver.url}/runs: 500 Internal Server Error`);

    const runs = (await json(['webhooks', 'runs', added.webhook.id])) as {
      deliveryId: string;
      attempt: number;
      status: number;
      error: string;
      deliveryStatus: string;
    }[];
    expect(runs).toMatchObject([
      { attempt: 1, status: 500, error: '500 Internal Server Error', deliveryStatus: 'failed' },
    ]);
    const deliveryId = runs[0]!.deliveryId;
    const table = (await docpipe(['webhooks', 'runs', added.webhook.id])).stdout.split('\n');
    expect(table[0]).toMatch(/^TIME\s+DELIVERY\s+TRIGGER\s+ATTEMPT\s+DURATION\s+RESULT$/);
    expect(table[1]).toMatch(
      new RegExp(
        `^\\S+Z\\s+${deliveryId}\\s+recipient\\.signed\\s+1\\s+\\d+ ms\\s+500 Internal Server Error$`,
      ),
    );

    const refused = await docpipe(['webhooks', 'replay', deliveryId]);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toMatch(
      new RegExp(
        `^delivery ${deliveryId}: try 2 to ${receiver.url}/runs: not delivered: refused: 127\\.0\\.0\\.1 is a loopback address; set DOCPIPE_WEBHOOK_ALLOW_PRIVATE=true to allow private destinations \\(\\d+ ms\\)\n$`,
      ),
    );
    const before = receiver.requests.length;
    const replayed = (await json(['webhooks', 'replay', deliveryId], {
      DOCPIPE_WEBHOOK_ALLOW_PRIVATE: 'true',
    })) as Record<string, unknown>;
    expect(replayed).toMatchObject({ deliveryId, attempt: 3, ok: true, status: 200 });
    expect(receiver.requests.length).toBe(before + 1);
    expect(receiver.requests.at(-1)!.body).toBe(JSON.stringify(event.payload));

    const again = await docpipe(['webhooks', 'replay', deliveryId, '--json']);
    expect(again.status).toBe(1);
    expect(JSON.parse(again.stdout)).toEqual({
      error: 'replay-refused',
      message: `delivery ${deliveryId} succeeded already; replay it again with --force`,
    });

    expect(await json(['webhooks', 'disable', added.webhook.id])).toMatchObject({ active: false });
    expect((await docpipe(['webhooks', 'enable', added.webhook.id])).stdout).toBe(
      `webhook ${added.webhook.id} is enabled\n`,
    );
    expect(await json(['webhooks', 'remove', added.webhook.id])).toMatchObject({
      id: added.webhook.id,
    });
    const gone = await docpipe(['webhooks', 'runs', added.webhook.id, '--json']);
    expect(gone.status).toBe(1);
    expect(JSON.parse(gone.stdout)).toEqual({
      error: 'webhook-not-found',
      message: `webhook ${added.webhook.id} does not exist`,
    });
    expect((await spawned(['webhooks', 'remove', 'not-an-id'])).status).toBe(1);
    expect((await docpipe(['webhooks', 'replay', randomUUID()])).status).toBe(1);
  }, 180_000);
});
