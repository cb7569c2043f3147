import { readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'bullmq';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Converter } from '../../src/render/convert/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import type { Logger } from '../../src/base/log/index.js';
import { Renderer } from '../../src/render/pipeline/index.js';
import { createRedis } from '../../src/platform/redis/index.js';
import { freePort } from '../../src/platform/embedded/index.js';
import {
  RetentionSweeper,
  SweepLock,
  isLockBusy,
  sweep,
  sweepLockKey,
  type SweepOutcome,
  type SweepReport,
} from '../../src/jobs/retention/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import {
  upload,
  render,
  marker,
  jobInput,
  jobData,
  documentsQueue,
} from '../helpers/stored-keys.js';
import { testDir } from '../helpers/test-dir.js';
import { waitUntil } from '../helpers/wait.js';

/**
 * The sweep on local disk against a real redis-server: what it removes and keeps, what queued
 * jobs protect (jobs added with BullMQ itself, in each unfinished state), the lock between two
 * sweepers, a render reused from the cache, and the schedule of a running docpipe.
 */

const DAY = 86_400_000;
const AGES = { uploadsMs: 30 * DAY, rendersMs: 30 * DAY };
let redis: RedisOnly;

beforeAll(async () => {
  redis = await startRedisOnly();
});
afterAll(async () => {
  await redis.close();
});

/** Local storage in a fresh folder; `put` writes an object `days` old. */
function oldStorage() {
  const dir = testDir('retention-');
  const storage = new LocalStorage(dir);
  const put = async (key: string, days: number, bytes = 10) => {
    await storage.put(key, Buffer.alloc(bytes, 7), 'application/octet-stream');
    const at = new Date(Date.now() - days * DAY);
    utimesSync(join(dir, key), at, at);
  };
  const files = () =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
      .sort();
  return { dir, storage, put, files };
}

describe('sweep on local disk with a real Redis', () => {
  it('removes what is past its age with its companions, and keeps the young, the other and what unfinished jobs need', async () => {
    const lane = await redis.lane();
    const { storage, put, files } = oldStorage();
    // Past their age, removed: 3 uploads' objects, 1 job input, 4 renders' objects.
    await put(upload(1), 40);
    await put(`${upload(1)}.meta.json`, 40);
    await put(upload(2), 40); // its job has completed
    await put(render(3), 40);
    await put(marker(3), 40);
    await put(render(4), 40); // never reused: no marker
    await put(marker(5), 40); // its PDF is gone (a removal stopped half way)
    await put(jobInput(6), 40);
    // Young, kept.
    await put(upload(10), 1);
    await put(`${upload(10)}.meta.json`, 1);
    await put(upload(11), 40);
    await put(`${upload(11)}.meta.json`, 2); // uploaded again two days ago
    await put(render(12), 40);
    await put(marker(12), 3); // reused from the cache three days ago
    // Past their age but needed by unfinished jobs, kept.
    await put(jobInput(20), 40);
    await put(upload(21), 40);
    await put(upload(22), 40);
    // Other objects: never removed (the first is not even listed).
    await put('health/old.probe', 400);
    await put('companies/61636d65/notes.txt', 400);

    const queue = documentsQueue(lane);
    // A job that has finished first, with a worker of BullMQ's own; then three that wait.
    await queue.add('document', jobData(upload(2)), { jobId: 'finished' });
    const connection = createRedis(redis.url, 'worker');
    const worker = new Worker('documents', () => Promise.resolve('done'), {
      connection,
      prefix: lane.prefix,
    });
    await waitUntil(
      async () => (await queue.getJobState('finished')) === 'completed',
      10_000,
      'the job that finished',
    );
    await worker.close();
    connection.disconnect();
    await queue.add('document', jobData(jobInput(20)));
    await queue.add('document', jobData(upload(21)), { delay: DAY });
    await queue.add('document', jobData(upload(22)), { priority: 5 });
    expect(await queue.getJobCounts('wait', 'delayed', 'prioritized', 'completed')).toEqual({
      wait: 1,
      delayed: 1,
      prioritized: 1,
      completed: 1,
    });
    await queue.close();

    const options = { storage, redis: lane.connection, prefix: lane.prefix, ages: AGES };
    const before = files();
    const dry = (await sweep({ ...options, dryRun: true })) as SweepReport;
    expect(files()).toEqual(before);
    const report = (await sweep(options)) as SweepReport;
    for (const r of [dry, report]) {
      expect(r).toMatchObject({ swept: true, listed: 18, failures: [] });
      expect(r.removed).toEqual({
        uploads: { objects: 3, bytes: 30 },
        'job-inputs': { objects: 1, bytes: 10 },
        renders: { objects: 4, bytes: 40 },
      });
      expect(r.kept).toEqual({ forJobs: 3, reused: 0 });
    }
    expect(dry.dryRun).toBe(true);
    expect(report.dryRun).toBe(false);
    expect(files()).toEqual(
      [
        'companies/61636d65/notes.txt',
        'health/old.probe',
        upload(10),
        `${upload(10)}.meta.json`,
        upload(11),
        `${upload(11)}.meta.json`,
        render(12),
        marker(12),
        jobInput(20),
        upload(21),
        upload(22),
      ].sort(),
    );
    expect(await lane.connection.exists(sweepLockKey(lane.prefix))).toBe(0);
  });

  it('two sweepers at once: exactly one sweeps, the other is told who does, and the lock is released after', async () => {
    const lane = await redis.lane();
    const { storage, put, files } = oldStorage();
    for (let n = 1; n <= 40; n++) await put(render(n), 40);
    const other = createRedis(redis.url, 'producer');
    await other.connect();
    try {
      const outcomes = await Promise.all([
        sweep({
          storage,
          redis: lane.connection,
          prefix: lane.prefix,
          ages: AGES,
          lock: { holder: 'machine-a' },
        }),
        sweep({
          storage,
          redis: other,
          prefix: lane.prefix,
          ages: AGES,
          lock: { holder: 'machine-b' },
        }),
      ]);
      const swept = outcomes.filter((o): o is SweepReport => o.swept);
      const skipped = outcomes.filter((o) => !o.swept);
      expect(swept).toHaveLength(1);
      expect(skipped).toHaveLength(1);
      expect(skipped[0]).toEqual({
        swept: false,
        heldBy: outcomes[0].swept ? 'machine-a' : 'machine-b',
      });
      expect(swept[0]!.removed.renders).toEqual({ objects: 40, bytes: 400 });
      expect(files()).toEqual([]);
      expect(await lane.connection.exists(sweepLockKey(lane.prefix))).toBe(0);
      const after = await sweep({ storage, redis: other, prefix: lane.prefix, ages: AGES });
      expect(after).toMatchObject({ swept: true, listed: 0 });
    } finally {
      other.disconnect();
    }
  });

  it('the lock is renewed while held, and a lock taken over by another is neither renewed nor deleted', async () => {
    const lane = await redis.lane();
    const key = sweepLockKey(lane.prefix);
    const taken = await SweepLock.acquire(lane.connection, key, { ttlMs: 300, holder: 'a' });
    if (isLockBusy(taken)) throw new Error('the lock was busy');
    // Three times its TTL later it is still there: renewed.
    await new Promise((r) => setTimeout(r, 900));
    expect(taken.held).toBe(true);
    expect(await lane.connection.get(key)).toMatch(/^a:[0-9a-f]{16}$/);
    expect(await SweepLock.acquire(lane.connection, key)).toEqual({ heldBy: 'a' });
    // Another took it (as after an expiry): the holder finds out at its next renewal.
    await lane.connection.set(key, 'b:0123456789abcdef');
    await waitUntil(() => !taken.held, 2000, 'the lock seen as lost');
    await taken.release();
    expect(await lane.connection.get(key)).toBe('b:0123456789abcdef');
  });
});

async function onePagePdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText(text);
  return Buffer.from(await doc.save());
}

describe('a render reused from the cache', () => {
  it('counts as new: the reused render stays, the one not reused goes', async () => {
    const lane = await redis.lane();
    const { dir, storage, files } = oldStorage();
    const pdf = await onePagePdf('converted');
    const converter: Converter = {
      name: 'fake',
      convert: () => Promise.resolve(pdf),
      close: () => Promise.resolve(),
    };
    const renderer = new Renderer({ preparer: new InlinePreparer(), converter, storage });
    const template = buildDocx({ body: para('Tenant: {tenant_name}') });
    const tags = (name: string) => [{ tag: 'tenant_name', value: name, type: 'text' }];
    const reused = await renderer.render({ bytes: template, name: 'Lease' }, tags('Ada'));
    const alone = await renderer.render({ bytes: template, name: 'Lease' }, tags('Grace'));
    expect(files()).toEqual([reused.key, alone.key].sort());
    const old = new Date(Date.now() - 40 * DAY);
    for (const key of [reused.key, alone.key]) utimesSync(join(dir, key), old, old);
    const again = await renderer.render({ bytes: template, name: 'Lease' }, tags('Ada'));
    expect(again).toMatchObject({ cached: true, key: reused.key });

    const report = (await sweep({
      storage,
      redis: lane.connection,
      prefix: lane.prefix,
      ages: AGES,
    })) as SweepReport;
    expect(report.removed.renders).toEqual({ objects: 1, bytes: alone.bytes });
    expect(files()).toEqual([reused.key, reused.key.replace(/\.pdf$/, '.kept')].sort());
  });
});

/** A logger that keeps every line, for what a running docpipe logs about its sweeps. */
function keepingLogger() {
  const lines: { level: string; msg?: string; obj: object }[] = [];
  const at =
    (level: string) =>
    (obj: object, msg?: string): void => {
      lines.push({ level, msg, obj });
    };
  const logger: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  };
  return { logger, lines };
}

describe('RetentionSweeper', () => {
  it('sweeps on schedule through the lock, logs what it removed, and stops when closed', async () => {
    const lane = await redis.lane();
    const { storage, put, files } = oldStorage();
    await put(render(1), 40);
    await put(marker(1), 40);
    await put(upload(2), 1);
    const { logger, lines } = keepingLogger();
    const outcomes: (SweepOutcome | Error)[] = [];
    const sweeper = RetentionSweeper.start({
      storage,
      redisUrl: redis.url,
      prefix: lane.prefix,
      retention: { ...AGES, sweepEveryMs: 150 },
      logger,
      firstDelayMs: 0,
      onSweep: (o) => outcomes.push(o),
    });
    expect(sweeper).toBeDefined();
    try {
      await waitUntil(() => outcomes.length >= 2, 10_000, 'two sweeps');
    } finally {
      await sweeper!.close();
    }
    const count = outcomes.length;
    expect(outcomes.every((o) => !(o instanceof Error) && o.swept)).toBe(true);
    expect((outcomes[0] as SweepReport).removed.renders).toEqual({ objects: 2, bytes: 20 });
    expect((outcomes[1] as SweepReport).removed.renders).toEqual({ objects: 0, bytes: 0 });
    expect(files()).toEqual([upload(2)]);
    // One summary line, for the sweep that removed something.
    expect(lines.filter((l) => l.level === 'info').map((l) => l.msg)).toEqual([
      'storage sweep removed 2 objects',
    ]);
    expect(await lane.connection.exists(sweepLockKey(lane.prefix))).toBe(0);
    await new Promise((r) => setTimeout(r, 400));
    expect(outcomes).toHaveLength(count);
  });

  it('a sweep that cannot reach Redis is a warning, and the next one tries again', async () => {
    const { storage } = oldStorage();
    const { logger, lines } = keepingLogger();
    const outcomes: (SweepOutcome | Error)[] = [];
    const sweeper = RetentionSweeper.start({
      storage,
      redisUrl: `redis://127.0.0.1:${await freePort()}`,
      prefix: 'nowhere',
      retention: { ...AGES, sweepEveryMs: 100 },
      logger,
      firstDelayMs: 0,
      onSweep: (o) => outcomes.push(o),
    });
    try {
      await waitUntil(() => outcomes.length >= 2, 20_000, 'two failed sweeps');
    } finally {
      await sweeper!.close();
    }
    expect(outcomes.every((o) => o instanceof Error)).toBe(true);
    const warnings = lines.filter((l) => l.level === 'warn');
    expect(warnings.length).toBe(outcomes.length);
    expect(warnings[0]!.msg).toBe('storage sweep failed; the next sweep tries again');
    expect(String((warnings[0]!.obj as { err: string }).err)).toMatch(/cannot reach Redis/);
  });

  it('does not start when retention or its schedule is off', () => {
    const { storage } = oldStorage();
    const { logger } = keepingLogger();
    const base = { storage, redisUrl: redis.url, prefix: 'off', logger };
    expect(
      RetentionSweeper.start({ ...base, retention: { ...AGES, sweepEveryMs: undefined } }),
    ).toBeUndefined();
    expect(
      RetentionSweeper.start({
        ...base,
        retention: { uploadsMs: undefined, rendersMs: undefined, sweepEveryMs: 1000 },
      }),
    ).toBeUndefined();
  });
});
