import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { JOB_SCHEMA_VERSION, type DocumentJobData } from '../../src/jobs/queue/index.js';
import { EmbeddedRedis, createRedis } from '../../src/platform/redis/index.js';
import { corpusDir } from '../helpers/corpus.js';
import {
  StartedDocpipe,
  alive,
  docpipe,
  docpipeEnv,
  leaseDocument,
  redisPid,
} from '../helpers/docpipe-start.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { testDir } from '../helpers/test-dir.js';
import { waitUntil } from '../helpers/wait.js';

const leaseArgs = [
  'templates/lease/template.docx',
  '--tags',
  join(projectRoot(), 'templates/lease/fixtures/basic.tags.json'),
];

function jobData(i: number, run: string, content?: Buffer): DocumentJobData {
  const doc = leaseDocument(i, run);
  return {
    v: JOB_SCHEMA_VERSION,
    field: `documents[${i}]`,
    name: doc.name,
    source: { inline: Buffer.from(content ?? doc.content!).toString('base64') },
    ...(content ? {} : { tags: doc.tags }),
  };
}

/** The queue a running docpipe start works on, seen from outside through its URL file. */
function openQueue(dataDir: string): Queue {
  const url = readFileSync(join(dataDir, 'redis.url'), 'utf8').trim();
  const queue = new Queue('documents', {
    connection: createRedis(url, 'worker'),
    prefix: 'docpipe',
  });
  queue.on('error', () => undefined);
  return queue;
}

/** What the append-only file kept, read by a Redis started on the stopped one's folder. */
async function afterwards(dataDir: string, ids: string[]) {
  const redis = await EmbeddedRedis.start({ dir: join(dataDir, 'redis') });
  const queue = new Queue('documents', {
    connection: createRedis(redis.url, 'worker'),
    prefix: 'docpipe',
  });
  try {
    const states = await Promise.all(ids.map((id) => queue.getJobState(id)));
    const counts = await queue.getJobCounts('completed', 'wait', 'active', 'failed', 'delayed');
    return { states, counts };
  } finally {
    await queue.close();
    await redis.stop();
  }
}

/**
 * The records' PostgreSQL of the tests whose point is not the embedded one: the worker's test
 * server (test/helpers/postgres.ts). The embedded PostgreSQL's first start (initdb) took a good
 * part of each test on two cores; the first Ctrl-C test keeps it, so that one whole start and
 * stop still runs every part of its own, and postgres-embedded.test.ts is about the rest of it.
 */
let records: TestDatabase;
beforeAll(async () => {
  records = await testDatabase();
});
afterAll(async () => {
  await records?.close();
});

describe('docpipe start: one per data folder', () => {
  it('refuses a second start on the same folder at once, and the first runs on untouched', async () => {
    const data = testDir('docpipe-twice-');
    const env = docpipeEnv(data, { DATABASE_URL: records.url });
    const first = new StartedDocpipe(env);
    try {
      await first.waitFor('docpipe started');
      const url = readFileSync(join(data, 'redis.url'), 'utf8');
      const server = redisPid(data);
      const lock = readFileSync(join(data, 'docpipe.lock'), 'utf8');
      const logged = first.log.length;

      const second = docpipe(env, 'start');
      expect(second.status).toBe(2);
      expect(second.stderr).toContain(
        `docpipe start is already running on ${data} (process ${first.pid},`,
      );
      expect(second.stderr).toContain('Stop that one first');
      expect(second.stderr).toContain('DOCPIPE_DATA_DIR');
      // Refused before it started anything: no office pool, no Redis.
      expect(second.stdout + second.stderr).not.toContain('embedded Redis started');

      expect(readFileSync(join(data, 'redis.url'), 'utf8')).toBe(url);
      expect(readFileSync(join(data, 'docpipe.lock'), 'utf8')).toBe(lock);
      expect(redisPid(data)).toBe(server);
      expect(alive(server)).toBe(true);
      const r = docpipe(env, 'enqueue', ...leaseArgs, '--json');
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'rendered', result: { pages: 2 } });
      // Nothing went wrong in the first one meanwhile.
      expect(first.log.slice(logged)).not.toMatch(/"level":(40|50|60)/);
      expect(first.running).toBe(true);
    } finally {
      if (first.running) first.ctrlC();
      const code = await Promise.race([first.exited, new Promise((r) => setTimeout(r, 30_000))]);
      await first.killAll();
      expect(code).toBe(0);
    }
  }, 120_000);
});

describe('docpipe start: an HTTP port taken by another program', () => {
  it('says which variable to change, exit 2, and leaves no redis-server or URL file behind', async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const port = (squatter.address() as { port: number }).port;
    try {
      const data = testDir('docpipe-port-taken-');
      const r = docpipe(
        docpipeEnv(data, { DOCPIPE_HTTP_PORT: String(port), DATABASE_URL: records.url }),
        'start',
      );
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        `DOCPIPE_HTTP_PORT: 127.0.0.1:${port} is taken by another program; choose another port (0 takes a free one)`,
      );
      // The embedded Redis it had started is stopped and its address no longer offered.
      const started = r.stderr
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string; redisPid?: number })
        .find((line) => line.msg.startsWith('embedded Redis started'));
      expect(started?.redisPid).toBeGreaterThan(0);
      expect(alive(started!.redisPid!)).toBe(false);
      expect(existsSync(join(data, 'redis.url'))).toBe(false);
      expect(r.stdout + r.stderr).not.toContain('still running');
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  }, 120_000);
});

describe('docpipe start: Ctrl-C', () => {
  it('during a batch: running jobs finish, no new ones start, Redis stops last, exit 0 by itself', async () => {
    const data = testDir('docpipe-ctrl-c-');
    const start = new StartedDocpipe(docpipeEnv(data), ['--grace', '30000']);
    const run = `ctrl-c-${Date.now()}`;
    try {
      await start.waitFor('docpipe started');
      const server = redisPid(data);
      const queue = openQueue(data);
      let running: string[];
      try {
        await queue.addBulk(
          Array.from({ length: 40 }, (_, i) => ({
            name: 'document',
            data: jobData(i, run),
            opts: { jobId: `${run}-${i}` },
          })),
        );
        await waitUntil(
          async () => ((await queue.getJobCounts('completed')).completed ?? 0) >= 4,
          60_000,
          'four documents done',
        );
        running = (await queue.getActive()).map((j) => j.id!);
        expect(running.length).toBeGreaterThan(0);
      } finally {
        await queue.close();
      }
      start.ctrlC();
      expect(await start.exited).toBe(0);
      // It waited for the running jobs only: none was left for the grace period to cut short.
      expect(start.log).not.toContain('after the grace period');
      expect(alive(server)).toBe(false);
      expect(existsSync(join(data, 'redis.url'))).toBe(false);
      expect(existsSync(join(data, 'docpipe.lock'))).toBe(false);

      const messages = start.lines().map((l) => l.msg);
      expect(
        messages.filter((m) =>
          /^stopping: no new jobs; waiting up to 30 s for [1-9]\d* running jobs? \([1-9]\d* queued stay in Redis for the next start\); press Ctrl-C again to stop now$/.test(
            m,
          ),
        ),
      ).toHaveLength(1);
      expect(messages.at(-1)).toBe('stopped');
      expect(start.log).not.toMatch(/after the grace period|ending the process|"level":50/);

      const ids = Array.from({ length: 40 }, (_, i) => `${run}-${i}`);
      const { states, counts } = await afterwards(data, ids);
      for (const id of running) expect(states[ids.indexOf(id)]).toBe('completed');
      expect(counts.failed).toBe(0);
      expect(counts.active).toBe(0);
      // No new job was taken after Ctrl-C: the rest wait for the next start.
      expect(counts.wait).toBeGreaterThan(0);
      expect((counts.completed ?? 0) + (counts.wait ?? 0)).toBe(40);
    } finally {
      await start.killAll();
    }
  }, 150_000);

  it('a second Ctrl-C stops at once, handing the job it cut short back to the queue', async () => {
    const data = testDir('docpipe-ctrl-c-twice-');
    const env = docpipeEnv(data, {
      DOCPIPE_MAX_INLINE_BYTES: String(8 << 20),
      DATABASE_URL: records.url,
    });
    const start = new StartedDocpipe(env, ['--grace', '60000']);
    try {
      await start.waitFor('docpipe started');
      const server = redisPid(data);
      const queue = openQueue(data);
      try {
        // 180 pages: a conversion of many seconds.
        const slow = readFileSync(join(corpusDir(), 'docx/poi__bug65649.docx'));
        await queue.add('document', jobData(0, 'slow', slow), { jobId: 'slow' });
        await waitUntil(async () => (await queue.getActive()).length === 1, 30_000, 'the slow job');
      } finally {
        await queue.close();
      }
      start.ctrlC();
      await start.waitFor('stopping: no new jobs; waiting up to 60 s for 1 running job;');
      start.ctrlC();
      expect(await start.exited).toBe(0);
      expect(alive(server)).toBe(false);
      const messages = start.lines().map((l) => l.msg);
      expect(messages).toContain('stopping now: running jobs go back to the queue');
      expect(messages.at(-1)).toBe('stopped');
      expect(start.log).not.toContain('ending the process');
      expect((await afterwards(data, ['slow'])).states).toEqual(['waiting']);
    } finally {
      await start.killAll();
    }
  }, 150_000);
});

describe('embedded Redis', () => {
  it('keeps its port across restarts, and moves when another program took it', async () => {
    const dir = join(testDir('docpipe-port-'), 'redis');
    const first = await EmbeddedRedis.start({ dir });
    const port = first.port;
    await first.stop();
    const again = await EmbeddedRedis.start({ dir });
    try {
      expect(again.port).toBe(port);
      expect(again.movedFrom).toBeUndefined();
    } finally {
      await again.stop();
    }
    const squatter = createServer();
    await new Promise<void>((r) => squatter.listen(port, '127.0.0.1', () => r()));
    try {
      const moved = await EmbeddedRedis.start({ dir });
      try {
        expect(moved.port).not.toBe(port);
        expect(moved.movedFrom).toBe(port);
      } finally {
        await moved.stop();
      }
    } finally {
      squatter.close();
    }
  });

  it('runs in a session of its own, and stop() returns once it has exited', async () => {
    const redis = await EmbeddedRedis.start({ dir: join(testDir('docpipe-session-'), 'redis') });
    const pid = redis.pid!;
    try {
      const session = (p: number | 'self') =>
        readFileSync(`/proc/${p}/stat`, 'utf8')
          .slice(readFileSync(`/proc/${p}/stat`, 'utf8').lastIndexOf(')') + 2)
          .split(' ')[3];
      expect(session(pid)).toBe(String(pid));
      expect(session(pid)).not.toBe(session('self'));
    } finally {
      await redis.stop();
    }
    expect(alive(pid)).toBe(false);
  });
});
