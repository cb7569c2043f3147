import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../../src/service/keys/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { freePort } from '../../src/platform/embedded/index.js';
import { startRedisOnly, type Lane, type RedisOnly } from '../helpers/queue-stack.js';

/**
 * `docpipe keys` as an operator runs it: the built CLI against a private redis-server, each test
 * on a queue prefix of its own; the keys it prints are checked with the key store the HTTP
 * server uses.
 */

const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
const data = mkdtempSync(join(tmpdir(), 'docpipe-keys-cli-'));
let redis: RedisOnly;

beforeAll(async () => {
  redis = await startRedisOnly();
});
afterAll(async () => {
  await redis.close();
  rmSync(data, { recursive: true, force: true });
});

function docpipe(env: Record<string, string | undefined>, ...args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'keys', ...args], {
    encoding: 'utf8',
    cwd: root,
    env: { ...process.env, REDIS_URL: undefined, DOCPIPE_DATA_DIR: data, ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A lane, the CLI on its prefix, and the key store the server would open on it. */
async function onLane() {
  const lane: Lane = await redis.lane();
  const env = { REDIS_URL: redis.url, DOCPIPE_QUEUE_PREFIX: lane.prefix };
  const store = new KeyStore({ redis: lane.connection, prefix: lane.prefix });
  return { lane, store, run: (...args: string[]) => docpipe(env, ...args) };
}

describe('docpipe keys', () => {
  it('create prints the key alone on stdout, once, and says it cannot be shown again', async () => {
    const { store, run } = await onLane();
    const r = run('create', '--company', 'acme', '--name', 'billing server');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^dp_[0-9a-f]{16}_[0-9a-f]{64}\n$/);
    const key = r.stdout.trim();
    const id = key.slice(3, 19);
    expect(r.stderr).toBe(
      `docpipe: API key ${id} for company acme ("billing server"), does not expire.\n` +
        'Store the key now: it is shown only this once and cannot be shown again.\n',
    );
    expect(await store.verify(key)).toEqual({
      ok: true,
      identity: { id, company: 'acme', name: 'billing server' },
    });
  });

  it('create --json --expires 90d gives the record and the key, expiring in 90 days', async () => {
    const { store, run } = await onLane();
    const r = run('create', '--company', 'acme', '--name', 'ci', '--expires', '90d', '--json');
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, string>;
    expect(Object.keys(out).sort()).toEqual([
      'company',
      'createdAt',
      'expiresAt',
      'id',
      'key',
      'name',
    ]);
    expect(out).toMatchObject({ company: 'acme', name: 'ci' });
    expect(Date.parse(out.expiresAt!) - Date.parse(out.createdAt!)).toBe(90 * 86_400_000);
    expect(r.stderr).toContain('cannot be shown again');
    expect((await store.verify(out.key!)).ok).toBe(true);
  });

  it('list shows every key with its status and times, never a key', async () => {
    const { run } = await onLane();
    const a = run('create', '--company', 'acme', '--name', 'first one', '--json');
    const b = run('create', '--company', 'globex', '--name', 'second', '--expires', '12h');
    const first = JSON.parse(a.stdout) as { id: string; key: string };
    const second = b.stdout.trim();
    expect(run('revoke', first.id).status).toBe(0);

    const text = run('list');
    expect(text.status, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^ID\s+COMPANY\s+STATUS\s+CREATED\s+EXPIRES\s+REVOKED\s+NAME$/);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${first.id}  acme\\s+revoked  \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ  never\\s+\\d{4}-\\S+Z  first one$`,
      ),
    );
    expect(lines[2]).toMatch(
      new RegExp(`^${second.slice(3, 19)}  globex\\s+active\\s+\\S+Z  \\S+Z  -\\s+second$`),
    );

    const json = run('list', '--json');
    const listed = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(listed.map((k) => Object.keys(k).sort())).toEqual([
      ['company', 'createdAt', 'id', 'name', 'revokedAt'],
      ['company', 'createdAt', 'expiresAt', 'id', 'name'],
    ]);
    for (const out of [text.stdout, json.stdout]) {
      expect(out).not.toContain(first.key.slice(20));
      expect(out).not.toContain(second.slice(20));
    }
    const only = JSON.parse(run('list', '--company', 'globex', '--json').stdout) as unknown[];
    expect(only).toEqual([expect.objectContaining({ company: 'globex', name: 'second' })]);
  });

  it('list says so when there are no keys', async () => {
    const { run } = await onLane();
    const r = run('list');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^docpipe: no API keys; create one with: docpipe keys create/);
    expect(run('list', '--json').stdout).toBe('[]\n');
  });

  it('revoke stops a key, says so when it was already revoked, and refuses an unknown id', async () => {
    const { store, run } = await onLane();
    const key = run('create', '--company', 'acme', '--name', 'old').stdout.trim();
    const id = key.slice(3, 19);
    const r = run('revoke', id);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `revoked API key ${id}: requests with it fail with 401 within 5 seconds on every server\n`,
    );
    expect(await store.verify(key)).toEqual({ ok: false, reason: 'revoked' });
    const again = run('revoke', id);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(
      new RegExp(`^API key ${id} was already revoked at \\d{4}-\\S+Z\\n$`),
    );
    const unknown = run('revoke', '0123456789abcdef');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no API key with id 0123456789abcdef');
    const whole = run('revoke', key);
    expect(whole.status).toBe(2);
    expect(whole.stderr).toContain('is not a key id: ids are 16 characters');
  });

  it('is bad usage (exit 2) for a bad lifetime, company or name, and creates nothing', async () => {
    const { store, run } = await onLane();
    const cases: [string[], string][] = [
      [['--expires', '90x'], '--expires: "90x" is not a duration'],
      [['--expires', '0d'], '--expires: "0d" is no time at all'],
      [['--company', 'acme corp'], '--company: must be 1 to 128 letters'],
      [['--name', ' '], '--name: must be a non-empty text'],
    ];
    for (const [flags, message] of cases) {
      const base = { '--company': 'acme', '--name': 'n' } as Record<string, string>;
      for (let i = 0; i < flags.length; i += 2) base[flags[i]!] = flags[i + 1]!;
      const r = run('create', ...Object.entries(base).flat());
      expect(r.status, flags.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stdout).toBe('');
    }
    const missing = run('create', '--company', 'acme');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("required option '--name <name>' not specified");
    expect(await store.list()).toEqual([]);
  });

  it('is exit 2 without a Redis and exit 3 when Redis does not answer', async () => {
    const none = docpipe({}, 'list');
    expect(none.status).toBe(2);
    expect(none.stderr).toContain(
      `docpipe: no Redis: REDIS_URL is not set, and no "docpipe start" runs on the data folder ${data} `,
    );
    const port = await freePort();
    const down = docpipe(
      { REDIS_URL: `redis://127.0.0.1:${port}` },
      'create',
      '--company',
      'a',
      '--name',
      'b',
    );
    expect(down.status).toBe(3);
    expect(down.stderr).toContain(`cannot reach Redis at redis://127.0.0.1:${port}`);
    expect(down.stdout).toBe('');
  });
});
