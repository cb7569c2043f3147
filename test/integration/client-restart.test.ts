import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { safeUrl } from '../../src/base/util/index.js';
import { DocpipeClient } from '../../src/jobs/queue/index.js';
import {
  EmbeddedRedis,
  QueueUnavailableError,
  createRedis,
} from '../../src/platform/redis/index.js';
import { freePort, isPortFree } from '../../src/platform/embedded/index.js';
import {
  StartedDocpipe,
  cli,
  docpipeAsync,
  docpipeEnv,
  leaseDocument,
  redisPid,
} from '../helpers/docpipe-start.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { testDir } from '../helpers/test-dir.js';

/** As many as in the report of the bug (it sat at 23/200): a batch that takes several seconds. */
const DOCUMENTS = 200;

/** A manifest of lease documents, each with its own values: none is answered from the cache. */
function leaseManifest(dir: string, run: string): string {
  copyFileSync(join(projectRoot(), 'templates/lease/template.docx'), join(dir, 'lease.docx'));
  const lines = Array.from({ length: DOCUMENTS }, (_, i) =>
    JSON.stringify({ file: 'lease.docx', name: `Lease ${i}`, tags: leaseDocument(i, run).tags }),
  );
  writeFileSync(join(dir, 'manifest.jsonl'), `${lines.join('\n')}\n`);
  return join(dir, 'manifest.jsonl');
}

/** `docpipe rerender` in a second terminal: its exit status and what it printed. */
function rerender(env: NodeJS.ProcessEnv, manifest: string) {
  const child = spawn(process.execPath, [cli, 'rerender', manifest, '--json'], {
    cwd: projectRoot(),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (status) => resolve({ status, stdout, stderr })),
  );
  return { child, done };
}

async function completed(dataDir: string): Promise<number> {
  const url = readFileSync(join(dataDir, 'redis.url'), 'utf8').trim();
  const connection = createRedis(url, 'worker');
  const queue = new Queue('documents', { connection, prefix: 'docpipe' });
  queue.on('error', () => undefined);
  try {
    return (await queue.getJobCounts('completed')).completed ?? 0;
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

/** Waits until `count` documents are done, while the batch still runs. */
async function untilCompleted(
  dataDir: string,
  count: number,
  batch: ReturnType<typeof rerender>,
): Promise<void> {
  while ((await completed(dataDir)) < count) {
    if (batch.child.exitCode !== null)
      throw new Error(`rerender ended early: ${JSON.stringify(await batch.done)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The machine went down: docpipe and its Redis (in a session of its own) killed without warning. */
async function crash(start: StartedDocpipe, dataDir: string): Promise<number> {
  const server = redisPid(dataDir);
  await start.kill();
  process.kill(server, 'SIGKILL');
  // Gone, or a zombie its new parent has not reaped yet: either way its port is free.
  for (;;) {
    let state: string;
    try {
      const text = readFileSync(`/proc/${server}/stat`, 'utf8');
      state = text.slice(text.lastIndexOf(')') + 2, text.lastIndexOf(')') + 3);
    } catch {
      break;
    }
    if (state === 'Z') break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return Number(new URL(readFileSync(join(dataDir, 'redis.url'), 'utf8').trim()).port);
}

/**
 * The port is bindable again: sockets of a killed server linger a moment (FIN-WAIT) and keep
 * it taken; a machine that restarts takes longer than that.
 */
async function portFreed(port: number): Promise<void> {
  const until = Date.now() + 60_000;
  while (!(await isPortFree(port))) {
    if (Date.now() > until) throw new Error(`port ${port} still taken after a minute`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Something else took the port: it accepts connections and closes them, as a stranger would. */
async function squat(port: number): Promise<Server> {
  await portFreed(port);
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}

/** Every one of the manifest's documents in the report, none failed. */
function expectAllDone(result: { status: number | null; stdout: string; stderr: string }) {
  expect(result.stderr).not.toContain('docpipe:');
  const report = JSON.parse(result.stdout) as Record<string, number> & {
    documents: { ok: boolean }[];
  };
  const failures = JSON.stringify(report.documents.filter((d) => !d.ok));
  expect(report.failed, failures).toBe(0);
  expect(result.status).toBe(0);
  expect(report.total).toBe(DOCUMENTS);
  expect(report.converted! + report.fromCache! + report.fromEarlierRun!).toBe(DOCUMENTS);
}

// Jobs running when docpipe was killed come back once their lock has expired.
const quickStall = { DOCPIPE_LOCK_DURATION_MS: '4000', DOCPIPE_STALLED_INTERVAL_MS: '2000' };

/**
 * The records' PostgreSQL: the worker's test server (test/helpers/postgres.ts), not an embedded
 * one in each data folder. What these tests crash and restart is docpipe and its Redis; the
 * embedded PostgreSQL's first start (initdb) and its recovery after each kill took much of each
 * test on two cores, and its own start, kill and restart are postgres-embedded.test.ts's.
 */
let records: TestDatabase;
beforeAll(async () => {
  records = await testDatabase();
});
afterAll(async () => {
  await records?.close();
});

describe('a client across a restart of docpipe start', () => {
  it('rerender finishes every document after docpipe start is killed and started again', async () => {
    const data = testDir('docpipe-restart-');
    const env = docpipeEnv(data, { ...quickStall, DATABASE_URL: records.url });
    const manifest = leaseManifest(testDir('docpipe-manifest-'), `restart-${Date.now()}`);
    let start = new StartedDocpipe(env);
    await start.waitFor('docpipe started');
    const batch = rerender(env, manifest);
    try {
      const url = readFileSync(join(data, 'redis.url'), 'utf8');
      await untilCompleted(data, 20, batch);
      await portFreed(await crash(start, data));
      // Mid-batch indeed.
      expect(batch.child.exitCode).toBeNull();
      start = new StartedDocpipe(env);
      await start.waitFor('docpipe started');
      // Same address: the client's connections come back by themselves.
      expect(readFileSync(join(data, 'redis.url'), 'utf8')).toBe(url);
      expectAllDone(await batch.done);
    } finally {
      batch.child.kill('SIGKILL');
      await start.killAll();
    }
  }, 180_000);

  it('follows docpipe start to another port when its last one was taken meanwhile', async () => {
    const data = testDir('docpipe-moved-');
    const env = docpipeEnv(data, { ...quickStall, DATABASE_URL: records.url });
    const manifest = leaseManifest(testDir('docpipe-manifest-'), `moved-${Date.now()}`);
    let start = new StartedDocpipe(env);
    await start.waitFor('docpipe started');
    const batch = rerender(env, manifest);
    let squatter: Server | undefined;
    try {
      await untilCompleted(data, 20, batch);
      const port = await crash(start, data);
      squatter = await squat(port);
      start = new StartedDocpipe(env);
      await start.waitFor('docpipe started');
      expect(start.log).toContain(`the embedded Redis's last port ${port} is taken`);
      expect(readFileSync(join(data, 'redis.url'), 'utf8')).not.toContain(`:${port}`);
      expectAllDone(await batch.done);
    } finally {
      batch.child.kill('SIGKILL');
      squatter?.close();
      await start.killAll();
    }
  }, 180_000);
});

/** A BullMQ worker on docpipe's queue whose jobs never end: a worker that is alive and busy. */
function stuckWorker(url: string, prefix: string): Worker {
  const { hostname, port, password } = new URL(url);
  // Connection options, not a connection: the worker's close then closes what it opened.
  const worker = new Worker('documents', () => new Promise(() => undefined), {
    connection: { host: hostname, port: Number(port), password, maxRetriesPerRequest: null },
    prefix,
    name: 'stuck',
  });
  worker.on('error', () => undefined);
  return worker;
}

describe('a client with nothing to answer it', () => {
  it('fails naming Redis and its address when Redis stays away longer than allowed', async () => {
    const dir = join(testDir('docpipe-unreachable-'), 'redis');
    let redis = await EmbeddedRedis.start({ dir });
    const worker = stuckWorker(redis.url, 'gone');
    await worker.waitUntilReady();
    const client = await DocpipeClient.connect({
      redisUrl: redis.url,
      prefix: 'gone',
      unreachableMs: 1500,
      noWorkerMs: 60_000,
      healthIntervalMs: 200,
    });
    try {
      const pending = client
        .render({ name: 'n', url: 'https://example.com/a.pdf' })
        .catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 500));
      await redis.kill();
      const err = await pending;
      expect(err).toBeInstanceOf(QueueUnavailableError);
      expect((err as QueueUnavailableError).reason).toBe('redis-unreachable');
      expect((err as Error).message).toContain(
        `Redis at ${safeUrl(redis.url)} has not answered for 1.5 s`,
      );
    } finally {
      await client.close();
      redis = await EmbeddedRedis.start({ dir });
      await worker.close(true);
      await redis.stop();
    }
  });

  it('fails with "no worker is running" when every worker is gone longer than allowed', async () => {
    const redis = await EmbeddedRedis.start({ dir: join(testDir('docpipe-no-worker-'), 'redis') });
    const worker = stuckWorker(redis.url, 'lonely');
    await worker.waitUntilReady();
    const client = await DocpipeClient.connect({
      redisUrl: redis.url,
      prefix: 'lonely',
      noWorkerMs: 1500,
      healthIntervalMs: 200,
    });
    try {
      const pending = client
        .render({ name: 'n', url: 'https://example.com/a.pdf' })
        .catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 500));
      await worker.close(true);
      const err = await pending;
      expect(err).toBeInstanceOf(QueueUnavailableError);
      expect((err as QueueUnavailableError).reason).toBe('no-worker');
      expect((err as Error).message).toMatch(/^no worker is running: .*docpipe start/);
      expect((err as Error).message).toContain('jobs already queued stay queued');
    } finally {
      await client.close();
      await redis.stop();
    }
  });

  it('enqueue and rerender with no worker say so within the configured time, exit 3, and queue nothing', async () => {
    const dir = testDir('docpipe-enqueue-alone-');
    const redis = await EmbeddedRedis.start({ dir: join(dir, 'redis') });
    const env = {
      ...docpipeEnv(join(dir, 'data'), { DOCPIPE_CLIENT_NO_WORKER_MS: '2000' }),
      REDIS_URL: redis.url,
    };
    const connection = createRedis(redis.url, 'worker');
    const queue = new Queue('documents', { connection, prefix: 'docpipe' });
    try {
      // Side by side: each waits its 2 s for a worker, and neither queues anything.
      const [one, many] = await Promise.all([
        docpipeAsync(
          env,
          'enqueue',
          'templates/lease/template.docx',
          '--tags',
          'templates/lease/fixtures/basic.tags.json',
        ),
        docpipeAsync(env, 'rerender', 'templates/'),
      ]);
      expect(one.status).toBe(3);
      expect(one.stderr).toContain(
        `docpipe: no worker is running: none has been connected to Redis at ${safeUrl(redis.url)} for 2 s`,
      );
      expect(one.stderr).toContain('nothing was queued');
      expect(many.status).toBe(3);
      expect(many.stderr).toContain('docpipe: no worker is running');
      const counts = await queue.getJobCounts('active', 'completed', 'failed', 'wait', 'delayed');
      expect(Object.values(counts)).toEqual([0, 0, 0, 0, 0]);
    } finally {
      await queue.close();
      connection.disconnect();
      await redis.stop();
    }
  });

  it('connecting to a Redis that is not there fails at once with its address', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const err = await DocpipeClient.connect({ redisUrl: url }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueueUnavailableError);
    expect((err as QueueUnavailableError).reason).toBe('redis-unreachable');
    expect((err as Error).message).toContain(`cannot reach Redis at ${url}`);
  });
});
