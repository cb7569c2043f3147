import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, relative } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it, onTestFinished } from 'vitest';
import { serverUser } from '../../src/platform/postgres/index.js';
import { docpipe, docpipeEnv, redisPid, StartedDocpipe } from '../helpers/docpipe-start.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * `docpipe start` keeps its data folder to itself (issue 31): an earlier docpipe's open folder
 * is closed, everything written into it is its owner's alone, the embedded Redis asks for a
 * password that only the data folder holds, and DOCPIPE_SIGNING_SECRET stays out of Redis.
 */

const SECRET = 'a-signing-secret-that-must-stay-out-of-redis';

/** Every file and folder under `dir` that a user other than its owner may reach, with its mode. */
function openEntries(dir: string, skip: string[]): string[] {
  const open: string[] = [];
  const walk = (path: string) => {
    const s = lstatSync(path);
    if (s.isSymbolicLink()) return;
    if ((s.mode & 0o077) !== 0)
      open.push(`${relative(dir, path) || '.'} ${(s.mode & 0o777).toString(8)}`);
    if (s.isDirectory())
      for (const name of readdirSync(path))
        if (!skip.includes(join(relative(dir, path), name))) walk(join(path, name));
  };
  walk(dir);
  return open;
}

/** What Redis on `port` answers a client that has not given the password. */
function withoutPassword(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${command}\r\n`));
    socket.once('data', (answer) => {
      socket.destroy();
      resolve(answer.toString());
    });
    socket.once('error', reject);
  });
}

/** `docpipe start` on `data` until it has started; stopped with Ctrl-C when the test ends. */
async function started(data: string, extra: Record<string, string> = {}): Promise<StartedDocpipe> {
  const start = new StartedDocpipe(docpipeEnv(data, extra));
  onTestFinished(async () => {
    if (start.running) start.ctrlC();
    await Promise.race([start.exited, new Promise((r) => setTimeout(r, 30_000))]);
    await start.killAll();
  });
  await start.waitFor('docpipe started');
  return start;
}

/** The embedded Redis of `data`, through the URL its `docpipe start` wrote down. */
function redisOf(data: string): Redis {
  const redis = new Redis(readFileSync(join(data, 'redis.url'), 'utf8').trim(), {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
  });
  redis.on('error', () => undefined);
  onTestFinished(() => redis.disconnect());
  return redis;
}

describe('docpipe start keeps its data folder to itself', () => {
  it('closes what an earlier docpipe left open, and writes nothing another user can read', async () => {
    const data = testDir('docpipe-private-');
    // What an earlier docpipe left with the usual umask: folders 0755, files 0644.
    chmodSync(data, 0o755);
    const oldDocument = join(data, 'storage', 'companies', 'acme', 'contract.pdf');
    mkdirSync(join(data, 'storage', 'companies', 'acme'), { recursive: true, mode: 0o755 });
    writeFileSync(oldDocument, '%PDF-1.7 an earlier docpipe stored this', { mode: 0o644 });
    mkdirSync(join(data, 'mail'), { mode: 0o755 });
    writeFileSync(join(data, 'mail', 'old.eml'), 'Subject: sign here\n', { mode: 0o644 });
    writeFileSync(join(data, 'redis.url'), 'redis://127.0.0.1:1\n', { mode: 0o644 });
    chmodSync(oldDocument, 0o644);
    expect(openEntries(data, [])).toHaveLength(8);

    const start = await started(data, { DOCPIPE_SIGNING_SECRET: SECRET });
    // A stored document written now, through the URL file, from another terminal.
    const r = docpipe(
      docpipeEnv(data),
      'enqueue',
      'templates/lease/template.docx',
      '--tags',
      'templates/lease/fixtures/basic.tags.json',
      '--json',
    );
    expect(r.status, r.stderr).toBe(0);
    const { result } = JSON.parse(r.stdout) as { result: { key: string } };
    expect(lstatSync(join(data, 'storage', result.key)).mode & 0o777).toBe(0o600);

    // The embedded PostgreSQL's folder is its own (0700), and its user may pass through the
    // data folder when docpipe is root: search permission for its group, nothing more.
    const user = await serverUser();
    const top = lstatSync(data);
    if (user.switched && (top.mode & 0o070) !== 0) {
      expect(top.gid).toBe(user.gid);
      expect(top.mode & 0o777).toBe(0o710);
    } else expect(top.mode & 0o777).toBe(0o700);
    expect(openEntries(data, ['postgres']).filter((e) => !e.startsWith('. '))).toEqual([]);
    expect(start.log).toContain('the data folder was open to other users');

    // The Redis asks for the password the URL file carries; its command line does not show it.
    const url = new URL(readFileSync(join(data, 'redis.url'), 'utf8').trim());
    expect(url.password).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(join(data, 'redis', 'redis.password'), 'utf8').trim()).toBe(url.password);
    expect(await withoutPassword(Number(url.port), 'GET docpipe:signing-secret')).toMatch(
      /^-NOAUTH/,
    );
    const cmdline = readFileSync(`/proc/${redisPid(data)}/cmdline`, 'utf8');
    expect(cmdline).toContain('redis-server');
    expect(cmdline).not.toContain(url.password);
    expect(start.log).not.toContain(url.password);

    // DOCPIPE_SIGNING_SECRET set: no secret in Redis, nor in its append-only file.
    const redis = redisOf(data);
    await redis.connect();
    expect(await redis.exists('docpipe:signing-secret')).toBe(0);
    expect((await redis.keys('docpipe:*')).length).toBeGreaterThan(0);
    const aof = join(data, 'redis', 'appendonlydir');
    const written = readdirSync(aof).map((f) => readFileSync(join(aof, f), 'latin1'));
    expect(written.join('').length).toBeGreaterThan(0);
    expect(written.join('')).not.toContain(SECRET);
    expect(written.join('')).not.toContain('signing-secret');
  }, 180_000);

  it('without DOCPIPE_SIGNING_SECRET, keeps the secret it makes in Redis, behind the password', async () => {
    const data = testDir('docpipe-private-');
    await started(data);
    const redis = redisOf(data);
    await redis.connect();
    expect(await redis.get('docpipe:signing-secret')).toMatch(/^[0-9a-f]{64}$/);
    const aof = join(data, 'redis', 'appendonlydir');
    for (const file of readdirSync(aof))
      expect(lstatSync(join(aof, file)).mode & 0o777, file).toBe(0o600);
    expect(lstatSync(join(data, 'redis')).mode & 0o777).toBe(0o700);
  }, 180_000);
});
