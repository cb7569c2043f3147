import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { cli, docpipe, docpipeEnv, StartedDocpipe } from '../helpers/docpipe-start.js';
import { pdfText } from '../helpers/pdf-text.js';
import { waitUntil } from '../helpers/wait.js';
import { lease, leaseTags } from '../helpers/lease.js';
import { addKeyOwnerAt } from '../helpers/key-owner.js';

/**
 * `docpipe serve` as a machine that only takes requests: no office processes of its own, its
 * conversions done by the worker of a `docpipe start` on the same Redis and storage.
 */

const root = projectRoot();
const tags = leaseTags;

let start: StartedDocpipe;
let serve: ChildProcess;
let serveLog = '';
let dir: string;
let data: string;

function addressIn(log: string, message: string): string | undefined {
  for (const line of log.split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { msg?: string; http?: string };
    if (entry.msg?.startsWith(message)) return entry.http;
  }
  return undefined;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'docpipe-serve-'));
  // The embedded PostgreSQL runs as the postgres user when the tests run as root: it must be let
  // through the folder above its data folder (docs/database.md, "As root").
  chmodSync(dir, 0o711);
  data = join(dir, 'data');
  start = new StartedDocpipe(docpipeEnv(data, { DOCPIPE_LOG_FORMAT: 'json' }));
  await start.waitFor('docpipe started');
}, 120_000);

afterAll(async () => {
  if (serve && serve.exitCode === null) serve.kill('SIGKILL');
  await start?.killAll();
  rmSync(dir, { recursive: true, force: true });
});

describe('docpipe serve', () => {
  it('converts through the workers of another process and serves the PDF it made', async () => {
    const env = docpipeEnv(data, { DOCPIPE_LOG_FORMAT: 'json' });
    serve = spawn(process.execPath, [cli, 'serve'], { cwd: root, env, stdio: 'pipe' });
    serve.stderr!.on('data', (c: Buffer) => (serveLog += c.toString()));
    await waitUntil(
      () => addressIn(serveLog, 'docpipe serving HTTP') !== undefined || serve.exitCode !== null,
      60_000,
      'docpipe serve to listen',
    );
    const address = addressIn(serveLog, 'docpipe serving HTTP');
    expect(address, serveLog).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // serve has no office pool: its readiness checks what it has.
    const ready = (await (await fetch(`${address!}/readyz`)).json()) as {
      checks: Record<string, unknown>;
    };
    expect(Object.keys(ready.checks).sort()).toEqual(['database', 'redis', 'storage']);

    // The key's company and user, in the PostgreSQL of docpipe start that serve checks keys in.
    const owner = await addKeyOwnerAt(
      readFileSync(join(data, 'postgres.url'), 'utf8').trim(),
      'acme',
    );
    const created = docpipe(
      env,
      'keys',
      'create',
      '--company',
      'acme',
      '--user',
      owner.email,
      '--name',
      'serve',
    );
    expect(created.status, created.stderr).toBe(0);
    const key = created.stdout.trim();
    const response = await fetch(`${address!}/api/v2/document/convert`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        documents: [{ file: lease.toString('base64'), name: 'Lease' }],
        tags,
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { documents: { file: string; name: string }[] };
    expect(body.documents.map((d) => d.name)).toEqual(['Lease.pdf']);
    const pdf = await fetch(body.documents[0]!.file);
    expect(pdf.status).toBe(200);
    expect(pdfText(Buffer.from(await pdf.arrayBuffer()))).toContain(
      'Lejekontrakt nr. LK-2025-0042',
    );
    // The worker that converted it belongs to docpipe start.
    expect(start.lines().filter((l) => l.msg === 'document job done')).toHaveLength(1);
  });

  it('stops on SIGINT by itself: exit 0, having said so', async () => {
    const exited = new Promise<number | null>((resolve) => serve.once('exit', resolve));
    serve.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(serveLog).toContain('"msg":"stopped"');
  });

  it('refuses to run without a database, where it checks keys: exit 2, saying what to set', () => {
    const elsewhere = join(dir, 'elsewhere');
    const redisUrl = readFileSync(join(data, 'redis.url'), 'utf8').trim();
    const r = docpipe({ ...docpipeEnv(elsewhere), REDIS_URL: redisUrl, DATABASE_URL: '' }, 'serve');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      `docpipe: docpipe serve checks API keys in PostgreSQL, and found no PostgreSQL: DATABASE_URL is not set, and no "docpipe start" runs on the data folder ${elsewhere}`,
    );
  });

  it('names a database that does not answer and exits 3 (try again later)', () => {
    const redisUrl = readFileSync(join(data, 'redis.url'), 'utf8').trim();
    const r = docpipe(
      {
        ...docpipeEnv(join(dir, 'elsewhere')),
        REDIS_URL: redisUrl,
        DATABASE_URL: `postgresql://docpipe@/docpipe?host=${join(dir, 'no-postgres-here')}`,
      },
      'serve',
    );
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/^docpipe: cannot reach PostgreSQL at postgresql:/m);
    expect(r.stderr).not.toContain('    at ');
  });

  it('names an unreachable Redis and exits 3 (try again later), without a stack trace', () => {
    const r = docpipe({ ...docpipeEnv(data), REDIS_URL: 'redis://127.0.0.1:1' }, 'serve');
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('docpipe: cannot reach Redis at redis://127.0.0.1:1. Start it');
    expect(r.stderr).not.toContain('    at ');
  });
});
