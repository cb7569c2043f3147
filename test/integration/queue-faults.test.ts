import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue, type Job } from 'bullmq';
import { describe, expect, it, onTestFinished } from 'vitest';
import { testDir } from '../helpers/test-dir.js';
import { waitUntil } from '../helpers/wait.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { JOB_SCHEMA_VERSION, type DocumentJobData } from '../../src/jobs/queue/index.js';
import { EmbeddedRedis, createRedis } from '../../src/platform/redis/index.js';
import { MEDIUM_PAGES, mediumDocx } from '../helpers/long-documents.js';
import { startQueueStack } from '../helpers/queue-stack.js';

const root = projectRoot();
const lease = readFileSync(join(root, 'templates/lease/template.docx'));
const tags = JSON.parse(
  readFileSync(join(root, 'templates/lease/fixtures/basic.tags.json'), 'utf8'),
) as { tag: string }[];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function leaseJob(i: number): DocumentJobData {
  return {
    v: JOB_SCHEMA_VERSION,
    field: `documents[${i}]`,
    name: `Lease ${i}`,
    source: { inline: lease.toString('base64') },
    tags: [
      ...tags.filter((t) => t.tag !== 'contract_no'),
      { tag: 'contract_no', value: `FAULT-${i}`, type: 'text' },
    ] as DocumentJobData['tags'],
  };
}

/** A `docpipe worker` process: what runs on each machine. */
function workerProcess(env: Record<string, string>): ChildProcess {
  return spawn(
    process.execPath,
    [join(root, 'dist/src/surfaces/cli/main.js'), 'worker', '--grace', '2000'],
    {
      env: {
        ...process.env,
        DOCPIPE_OFFICE_PROCESSES: '1',
        DOCPIPE_ENGINE_THREADS: '1',
        DOCPIPE_LOCK_DURATION_MS: '4000',
        DOCPIPE_STALLED_INTERVAL_MS: '2000',
        DOCPIPE_LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

async function settle(
  queue: Queue,
  total: number,
  timeoutMs: number,
): Promise<{ completed: number; failed: number }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const counts = await queue.getJobCounts('completed', 'failed');
    if ((counts.completed ?? 0) + (counts.failed ?? 0) >= total)
      return { completed: counts.completed ?? 0, failed: counts.failed ?? 0 };
    if (Date.now() > until)
      throw new Error(`only ${JSON.stringify(counts)} of ${total} settled in time`);
    await sleep(200);
  }
}

const rendersUnder = (dir: string, ext: string) => {
  try {
    return readdirSync(join(dir, 'renders'), { recursive: true }).filter((f) =>
      String(f).endsWith(ext),
    );
  } catch {
    return [];
  }
};

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((r) => child.once('exit', r));
}

describe('queue faults', () => {
  it('loses no job when a worker is killed mid-batch and another starts', async () => {
    const dir = testDir('docpipe-kill-');
    const redis = await EmbeddedRedis.start({ dir: join(dir, 'redis') });
    const env = {
      REDIS_URL: redis.url,
      DOCPIPE_DATA_DIR: join(dir, 'data'),
      DOCPIPE_QUEUE_PREFIX: 'fault',
    };
    const connection = createRedis(redis.url, 'worker');
    const queue = new Queue('documents', {
      connection,
      prefix: 'fault',
    });
    let first: ChildProcess | undefined;
    let second: ChildProcess | undefined;
    try {
      await queue.addBulk(
        Array.from({ length: 50 }, (_, i) => ({
          name: 'document',
          data: leaseJob(i),
          opts: { jobId: `kill-${i}`, attempts: 3 },
        })),
      );
      first = workerProcess(env);
      const until = Date.now() + 120_000;
      while (((await queue.getJobCounts('completed')).completed ?? 0) < 8) {
        if (Date.now() > until) throw new Error('the first worker did not get going');
        await sleep(100);
      }
      first.kill('SIGKILL');
      await exited(first);
      // Mid-batch indeed: most jobs were still to do when the worker died.
      expect((await queue.getJobCounts('completed')).completed).toBeLessThan(40);
      second = workerProcess(env);
      const { completed, failed } = await settle(queue, 50, 180_000);
      expect(completed).toBe(50);
      expect(failed).toBe(0);
      const jobs = (await Promise.all(
        Array.from({ length: 50 }, (_, i) => queue.getJob(`kill-${i}`)),
      )) as Job[];
      for (const job of jobs)
        expect(job.returnvalue).toMatchObject({ kind: 'rendered', result: { pages: 2 } });
      // One output per document: a job run twice wrote the same content-addressed file.
      const stored = rendersUnder(join(dir, 'data', 'storage'), '.pdf').map(
        (f) => `renders/${String(f)}`,
      );
      expect(stored).toHaveLength(50);
      const keys = jobs.map((job) => (job.returnvalue as { result: { key: string } }).result.key);
      expect(new Set(keys)).toEqual(new Set(stored));
    } finally {
      first?.kill('SIGKILL');
      second?.kill('SIGTERM');
      if (second) await exited(second);
      await queue.close();
      connection.disconnect();
      await redis.stop();
    }
  });

  it('loses no job when Redis restarts mid-batch (append-only file)', async () => {
    const dir = testDir('docpipe-redis-restart-');
    let redis = await EmbeddedRedis.start({ dir: join(dir, 'redis') });
    const port = redis.port;
    const env = {
      REDIS_URL: redis.url,
      DOCPIPE_DATA_DIR: join(dir, 'data'),
      DOCPIPE_QUEUE_PREFIX: 'restart',
    };
    const connection = createRedis(redis.url, 'worker');
    const queue = new Queue('documents', {
      connection,
      prefix: 'restart',
    });
    queue.on('error', () => undefined);
    const worker = workerProcess(env);
    try {
      await queue.addBulk(
        Array.from({ length: 50 }, (_, i) => ({
          name: 'document',
          data: leaseJob(i),
          opts: { jobId: `restart-${i}`, attempts: 5 },
        })),
      );
      const until = Date.now() + 120_000;
      while (((await queue.getJobCounts('completed')).completed ?? 0) < 8) {
        if (Date.now() > until) throw new Error('the worker did not get going');
        await sleep(100);
      }
      await redis.stop();
      await sleep(1000);
      redis = await EmbeddedRedis.start({ dir: join(dir, 'redis'), port });
      // Mid-batch indeed: most jobs were still to do when Redis went down.
      expect((await queue.getJobCounts('completed')).completed).toBeLessThan(40);
      const { completed, failed } = await settle(queue, 50, 180_000);
      expect(completed).toBe(50);
      expect(failed).toBe(0);
      expect(rendersUnder(join(dir, 'data', 'storage'), '.pdf')).toHaveLength(50);
    } finally {
      worker.kill('SIGTERM');
      await exited(worker);
      await queue.close();
      connection.disconnect();
      await redis.stop();
    }
  });

  it('shares the work between two worker processes on one Redis', async () => {
    const dir = testDir('docpipe-share-');
    const redis = await EmbeddedRedis.start({ dir: join(dir, 'redis') });
    const env = {
      REDIS_URL: redis.url,
      DOCPIPE_DATA_DIR: join(dir, 'data'),
      DOCPIPE_QUEUE_PREFIX: 'share',
    };
    const connection = createRedis(redis.url, 'worker');
    const queue = new Queue('documents', {
      connection,
      prefix: 'share',
    });
    const workers = [workerProcess(env), workerProcess(env)];
    try {
      // Both up before the work arrives, so that neither takes it all: a process's documents
      // worker connects once its office is ready, and names its connection after the queue.
      await waitUntil(
        async () => (await queue.getWorkers()).length === 2,
        60_000,
        'both worker processes taking jobs',
      );
      await queue.addBulk(
        Array.from({ length: 20 }, (_, i) => ({
          name: 'document',
          data: leaseJob(i),
          opts: { jobId: `share-${i}` },
        })),
      );
      await settle(queue, 20, 120_000);
      const jobs = (await Promise.all(
        Array.from({ length: 20 }, (_, i) => queue.getJob(`share-${i}`)),
      )) as Job[];
      expect(new Set(jobs.map((j) => j.processedBy)).size).toBe(2);
    } finally {
      for (const w of workers) w.kill('SIGTERM');
      await Promise.all(workers.map(exited));
      await queue.close();
      connection.disconnect();
      await redis.stop();
    }
  });

  it('finishes a job whose office process is killed mid-conversion', async () => {
    // 53 pages (test/helpers/long-documents.ts): in flight long enough to be caught, where the
    // 180 pages this test converted before took 10-20 s, and the retry as long again. Far more
    // beside other suites: the default 30 s conversion deadline would fail this test on a loaded
    // machine for a reason it does not test.
    const stack = await startQueueStack({ conversionTimeoutMs: 100_000 });
    // Registered before the lane, so that it stops after the lane's worker and client.
    onTestFinished(() => stack.close());
    const { client } = await stack.lane();
    const pending = client.render({ name: 'long', content: mediumDocx() }, { timeoutMs: 120_000 });
    await waitUntil(() => stack.office.stats().busy > 0, 60_000, 'the conversion in flight');
    const pids = stack.office.pids();
    expect(pids).toHaveLength(2);
    // Still on an office process as they die: what finishes it is the retry.
    expect(stack.office.stats().busy).toBeGreaterThan(0);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    const result = await pending;
    expect(result).toMatchObject({ kind: 'rendered', result: { pages: MEDIUM_PAGES } });
  });
});
