import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { freePort } from '../../src/platform/embedded/index.js';
import { sweepLockKey } from '../../src/jobs/retention/index.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import { sha, upload, render, queueJobNeeding } from '../helpers/stored-keys.js';
import { docpipeInProcess } from '../helpers/cli-in-process.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * `docpipe storage` as an operator runs it: the built CLI on a real data folder, against a
 * private redis-server, each test on a queue prefix and data folder of its own.
 */

const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
const DAY = 86_400_000;
let redis: RedisOnly;

beforeAll(async () => {
  redis = await startRedisOnly();
});
afterAll(async () => {
  await redis.close();
});

/** A data folder whose storage holds objects of the given ages (in days) and sizes. */
function dataFolder(objects: [key: string, days: number, bytes: number][]) {
  const data = testDir('docpipe-storage-cli-');
  const storage = join(data, 'storage');
  for (const [key, days, bytes] of objects) {
    const path = join(storage, key);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, Buffer.alloc(bytes, 1));
    const at = new Date(Date.now() - days * DAY);
    utimesSync(path, at, at);
  }
  const files = () =>
    readdirSync(storage, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(storage.length + 1))
      .sort();
  return { data, files };
}

/** This file's environment for `docpipe storage`: no Redis or S3 unless given, retention set. */
function storageEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return {
    REDIS_URL: undefined,
    DOCPIPE_STORAGE: undefined,
    DOCPIPE_RETENTION_UPLOADS: '30d',
    DOCPIPE_RETENTION_RENDERS: '7d',
    ...env,
  };
}

/** `docpipe storage` run in this process (test/helpers/cli-in-process.ts). */
function docpipe(env: Record<string, string | undefined>, ...args: string[]) {
  return docpipeInProcess(storageEnv(env), 'storage', ...args);
}

/** The same through the built CLI in a process of its own: its exit status as a script sees it. */
function spawned(env: Record<string, string | undefined>, ...args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'storage', ...args], {
    encoding: 'utf8',
    cwd: root,
    env: { ...process.env, ...storageEnv(env) },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const OBJECTS: [string, number, number][] = [
  [upload(1), 40, 1000],
  [`${upload(1)}.meta.json`, 40, 20],
  [upload(2), 40, 3000], // needed by a waiting job
  [upload(3), 2, 500],
  [render(4), 10, 2000],
  [render(5), 10, 4000],
  [render(5).replace(/\.pdf$/, '.kept'), 1, 0], // reused yesterday
  [render(6), 1, 100],
  [`uploads/${sha(7)}.bin`, 31, 700],
  ['health/leftover.probe', 90, 5],
];

describe('docpipe storage', () => {
  it('stats --json, sweep --dry-run, sweep, stats: what is past its age goes, the rest stays', async () => {
    const lane = await redis.lane();
    const { data, files } = dataFolder(OBJECTS);
    const env = { DOCPIPE_DATA_DIR: data, REDIS_URL: redis.url, DOCPIPE_QUEUE_PREFIX: lane.prefix };
    await queueJobNeeding(lane, upload(2));

    const stats = await docpipe(env, 'stats', '--json');
    expect(stats.status, stats.stderr).toBe(0);
    const parsed = JSON.parse(stats.stdout) as {
      kinds: Record<
        string,
        {
          objects: number;
          bytes: number;
          oldest: string | null;
          maxAgeMs: number | null;
          expired: { objects: number; bytes: number };
        }
      >;
    };
    expect(parsed.kinds).toEqual({
      uploads: {
        objects: 4,
        bytes: 4520,
        oldest: expect.any(String),
        maxAgeMs: 30 * DAY,
        expired: { objects: 3, bytes: 4020 },
      },
      'job-inputs': {
        objects: 1,
        bytes: 700,
        oldest: expect.any(String),
        maxAgeMs: 30 * DAY,
        expired: { objects: 1, bytes: 700 },
      },
      renders: {
        objects: 4,
        bytes: 6100,
        oldest: expect.any(String),
        maxAgeMs: 7 * DAY,
        expired: { objects: 1, bytes: 2000 },
      },
      other: {
        objects: 1,
        bytes: 5,
        oldest: expect.any(String),
        maxAgeMs: null,
        expired: { objects: 0, bytes: 0 },
      },
    });
    // The oldest upload group was written 40 days ago (to the second, give or take the run).
    const oldest = Date.parse(parsed.kinds.uploads!.oldest!);
    expect(Math.abs(Date.now() - 40 * DAY - oldest)).toBeLessThan(60_000);

    const before = files();
    expect(before).toHaveLength(10);
    const dry = await docpipe(env, 'sweep', '--dry-run', '--json');
    expect(dry.status, dry.stderr).toBe(0);
    expect(files()).toEqual(before);
    const removed = {
      uploads: { objects: 2, bytes: 1020 },
      'job-inputs': { objects: 1, bytes: 700 },
      renders: { objects: 1, bytes: 2000 },
    };
    expect(JSON.parse(dry.stdout)).toMatchObject({
      swept: true,
      dryRun: true,
      listed: 9,
      removed,
      kept: { forJobs: 1, reused: 0 },
      failures: [],
    });

    const swept = await docpipe(env, 'sweep');
    expect(swept.status, swept.stderr).toBe(0);
    expect(swept.stdout.split('\n')).toEqual([
      expect.stringMatching(/^removed 4 objects \(3\.6 KB\) of 9 in \d+\.\d s$/),
      '  uploads: 2 (1020 B)',
      '  job-inputs: 1 (700 B)',
      '  renders: 1 (2.0 KB)',
      'kept past their age: 1 needed by unfinished jobs, 0 used again during the sweep',
      '',
    ]);
    expect(files()).toEqual(
      [
        upload(2),
        upload(3),
        render(5),
        render(5).replace(/\.pdf$/, '.kept'),
        render(6),
        'health/leftover.probe',
      ].sort(),
    );

    const table = await docpipe(env, 'stats');
    expect(table.status, table.stderr).toBe(0);
    const rows = table.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatch(/^KIND\s+OBJECTS\s+SIZE\s+OLDEST\s+MAX AGE\s+PAST AGE$/);
    expect(rows[1]).toMatch(/^uploads\s+2\s+3\.4 KB\s+\S+Z \(40d ago\)\s+30d\s+1 \(2\.9 KB\)$/);
    expect(rows[2]).toMatch(/^job-inputs\s+0\s+0 B\s+-\s+30d\s+0 \(0 B\)$/);
    expect(rows[3]).toMatch(/^renders\s+3\s+4\.0 KB\s+\S+Z \(1d ago\)\s+7d\s+0 \(0 B\)$/);
    expect(rows[4]).toMatch(/^other\s+1\s+5 B\s+\S+Z \(90d ago\)\s+kept\s+-$/);
  });

  it('sweep while another docpipe holds the lock does nothing and exits 3, naming it', async () => {
    const lane = await redis.lane();
    const { data, files } = dataFolder(OBJECTS);
    await lane.connection.set(
      sweepLockKey(lane.prefix),
      'worker-7:4242:0123456789abcdef',
      'PX',
      60_000,
    );
    const r = await docpipe(
      { DOCPIPE_DATA_DIR: data, REDIS_URL: redis.url, DOCPIPE_QUEUE_PREFIX: lane.prefix },
      'sweep',
    );
    expect(r.status).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'docpipe: another docpipe (worker-7:4242) is sweeping right now; nothing was done. Try again when it is done.\n',
    );
    expect(files()).toHaveLength(OBJECTS.length);
  });

  it('sweep exits 3 when Redis does not answer and 2 when none is set; stats needs no Redis', async () => {
    const { data, files } = dataFolder(OBJECTS);
    // A process of its own: its Redis client, retrying a port nobody listens on, ends with it.
    const down = spawned(
      { DOCPIPE_DATA_DIR: data, REDIS_URL: `redis://127.0.0.1:${await freePort()}` },
      'sweep',
    );
    expect(down.status).toBe(3);
    expect(down.stderr).toMatch(
      /^docpipe: cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+\. Start it/,
    );
    const none = await docpipe({ DOCPIPE_DATA_DIR: data }, 'sweep', '--dry-run');
    expect(none.status).toBe(2);
    expect(none.stderr).toContain(
      `docpipe: no Redis: REDIS_URL is not set, and no "docpipe start" runs on the data folder ${data} `,
    );
    expect(files()).toHaveLength(OBJECTS.length);
    const stats = await docpipe({ DOCPIPE_DATA_DIR: data }, 'stats', '--json');
    expect(stats.status, stats.stderr).toBe(0);
  });

  it('sweep with both ages off removes nothing and says so, without Redis', async () => {
    const { data, files } = dataFolder(OBJECTS);
    const r = await docpipe(
      {
        DOCPIPE_DATA_DIR: data,
        DOCPIPE_RETENTION_UPLOADS: 'off',
        DOCPIPE_RETENTION_RENDERS: 'off',
      },
      'sweep',
    );
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(
      'docpipe: retention is off (DOCPIPE_RETENTION_UPLOADS and DOCPIPE_RETENTION_RENDERS are "off"): nothing to remove\n',
    );
    expect(files()).toHaveLength(OBJECTS.length);
  });
});
