import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job, Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import {
  BULLMQ_VERSION,
  BullmqLayoutError,
  checkJobHashLayout,
  installedBullmqVersion,
} from '../../src/jobs/queue/index.js';
import { readJobEnds } from '../../src/jobs/queue/bullmq-job-hash.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';

/**
 * docpipe reads BullMQ's job hashes itself (a batch's ends in one round trip). These tests pin the
 * version that layout was read from and what that version stores: a bullmq upgrade fails here
 * first, not in production.
 */
let redis: RedisOnly;
beforeAll(async () => {
  redis = await startRedisOnly();
});
afterAll(() => redis.close());

describe('BullMQ version', () => {
  it('is pinned exactly in package.json, installed, and the one the layout was read from', () => {
    const pkg = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(pkg.dependencies.bullmq).toBe(BULLMQ_VERSION);
    expect(installedBullmqVersion()).toBe(BULLMQ_VERSION);
  });
});

describe("BullMQ's job hash as docpipe reads it", () => {
  it('reads what the public API stored: completed, failed, retried, waiting, removed', async () => {
    const { prefix, connection } = await redis.lane();
    const queue = new Queue('layout', { connection, prefix });
    const worker = new Worker('layout', undefined, { connection, prefix, autorun: false });
    try {
      const token = 'test-token';
      await queue.add('document', { n: 1 }, { jobId: 'job-done' });
      await queue.add('document', { n: 2 }, { jobId: 'job-failed' });
      await queue.add('document', { n: 3 }, { jobId: 'job-retried', attempts: 2 });
      await queue.add('document', { n: 5 }, { jobId: 'job-removed' });
      await (await worker.getNextJob(token))!.moveToCompleted({ pages: 2 }, token, false);
      await (await worker.getNextJob(token))!.moveToFailed(new Error('{"error":"x"}'), token);
      const retried = (await worker.getNextJob(token))!;
      // The first attempt fails and goes back to wait; the second completes.
      await retried.moveToFailed(new Error('busy'), token);
      await queue.remove('job-removed');
      const again = (await worker.getNextJob(token))!;
      expect(again.id).toBe('job-retried');
      await again.moveToCompleted('second time', token, false);
      await queue.add('document', { n: 4 }, { jobId: 'job-waiting' });

      const ids = ['job-done', 'job-failed', 'job-retried', 'job-waiting', 'job-removed'];
      const ends = await readJobEnds(
        connection,
        ids.map((id) => queue.toKey(id)),
      );
      expect(ends).toEqual([
        { ok: true, value: { pages: 2 } },
        { ok: false, reason: '{"error":"x"}' },
        { ok: true, value: 'second time' },
        undefined,
        { ok: false, gone: true },
      ]);
      // The same as BullMQ's own reading of those jobs.
      const jobs = await Promise.all(ids.map((id) => Job.fromId(queue, id)));
      expect(jobs.map((j) => (j?.returnvalue as unknown) ?? null)).toEqual([
        { pages: 2 },
        null,
        'second time',
        null,
        null,
      ]);
      expect(jobs.map((j) => j?.failedReason ?? null)).toEqual([
        null,
        '{"error":"x"}',
        'busy',
        null,
        null,
      ]);
      expect(jobs.map((j) => j?.finishedOn !== undefined)).toEqual([
        true,
        true,
        true,
        false,
        false,
      ]);
    } finally {
      await worker.close();
      await queue.close();
    }
  });

  it('is checked at start-up, and a layout read wrong fails naming both versions', async () => {
    const { prefix, connection } = await redis.lane();
    await checkJobHashLayout(redis.url, prefix);
    const misread: typeof readJobEnds = async (r, keys) =>
      (await readJobEnds(r, keys)).map((end) => (end && 'gone' in end ? undefined : end));
    const err = await checkJobHashLayout(redis.url, prefix, misread).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BullmqLayoutError);
    expect((err as Error).message).toContain(`bullmq ${BULLMQ_VERSION} stores them`);
    expect((err as Error).message).toContain(`bullmq ${installedBullmqVersion()} (installed)`);
    expect((err as Error).message).toContain('job "check-never-added" read as running');
    // The check leaves nothing behind on the installation's Redis.
    expect(await connection.keys(`${prefix}:*`)).toEqual([]);
  });

  it('gives up on a Redis that does not answer, instead of waiting for ever', async () => {
    const stopped = await startRedisOnly();
    const url = stopped.url;
    await stopped.close();
    await expect(checkJobHashLayout(url, 'nowhere', () => Promise.resolve([]))).rejects.toThrow(
      "Redis did not answer BullMQ's layout check in time",
    );
  }, 20_000);
});
