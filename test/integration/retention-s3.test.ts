import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  sweep,
  storageStats,
  sweepLockKey,
  type SweepReport,
} from '../../src/jobs/retention/index.js';
import { S3Storage, type Storage } from '../../src/render/storage/index.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import { upload, render, marker, jobInput, queueJobNeeding } from '../helpers/stored-keys.js';

/**
 * The sweep on a real S3-protocol server (s3rver) through S3Storage, with a real redis-server for
 * the lock and the queued jobs. S3's LastModified cannot be set back, so objects are written in
 * two rounds more than a second apart and the sweep's clock is set a day after the first: the
 * first round is exactly a day old to it, the second younger.
 */

const DAY = 86_400_000;
const AGES = { uploadsMs: DAY, rendersMs: DAY };
let s3: S3Server;
let redis: RedisOnly;

beforeAll(async () => {
  [s3, redis] = await Promise.all([startS3Server('docpipe-retention'), startRedisOnly()]);
});
afterAll(async () => {
  await Promise.all([s3?.stop(), redis?.close()]);
});

async function keys(storage: Storage): Promise<string[]> {
  const found: string[] = [];
  for await (const object of storage.list('')) found.push(object.key);
  return found.sort();
}

/** The latest LastModified of `written`, as S3 tells it. */
async function newest(storage: Storage, written: string[]): Promise<number> {
  const stats = await Promise.all(written.map((k) => storage.stat(k)));
  return Math.max(...stats.map((s) => s!.modified.getTime()));
}

describe('sweep on S3 storage', () => {
  it('removes what is past its age with its companions over paged listings, and keeps the young, the touched and what a waiting job needs', async () => {
    const lane = await redis.lane();
    const storage = await S3Storage.open({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      forcePathStyle: true,
      region: 'us-east-1',
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      prefix: `test-${randomUUID()}/`,
      // Two keys a page: the sweep's listings take several pages each.
      listPageSize: 2,
    });
    try {
      const put = (key: string, bytes: number) =>
        storage.put(key, Buffer.alloc(bytes, 3), 'application/octet-stream');
      const first = [
        upload(1),
        `${upload(1)}.meta.json`,
        upload(2),
        render(3),
        marker(3),
        render(4),
        jobInput(5),
        'companies/61636d65/notes.txt',
      ];
      for (const key of first) await put(key, 100);
      const firstWritten = await newest(storage, first);
      // S3 counts LastModified in whole seconds: the second round is at least a second later.
      await new Promise((r) => setTimeout(r, 2100));
      await put(upload(6), 100);
      await put(render(7), 100);
      // A render reused since: S3Storage.touch copies it onto itself, a new LastModified.
      await storage.touch(render(4));
      const secondWritten = await newest(storage, [upload(6), render(7), render(4)]);
      expect(secondWritten - firstWritten).toBeGreaterThanOrEqual(1000);

      await queueJobNeeding(lane, upload(2));

      const now = () => firstWritten + DAY;
      const stats = await storageStats(storage, AGES, { now });
      expect(stats.kinds.uploads).toMatchObject({
        objects: 4,
        expired: { objects: 3, bytes: 300 },
      });
      expect(stats.kinds['job-inputs']).toMatchObject({ objects: 1, expired: { objects: 1 } });
      expect(stats.kinds.renders).toMatchObject({
        objects: 4,
        expired: { objects: 2, bytes: 200 },
      });
      expect(stats.kinds.other).toMatchObject({ objects: 1, expired: { objects: 0 } });

      const options = { storage, redis: lane.connection, prefix: lane.prefix, ages: AGES, now };
      const all = await keys(storage);
      expect(all).toHaveLength(10);
      const dry = (await sweep({ ...options, dryRun: true })) as SweepReport;
      expect(await keys(storage)).toEqual(all);
      const report = (await sweep(options)) as SweepReport;
      for (const r of [dry, report]) {
        expect(r).toMatchObject({ swept: true, listed: 10, failures: [] });
        expect(r.removed).toEqual({
          uploads: { objects: 2, bytes: 200 },
          'job-inputs': { objects: 1, bytes: 100 },
          renders: { objects: 2, bytes: 200 },
        });
        expect(r.kept).toEqual({ forJobs: 1, reused: 0 });
      }
      expect(await keys(storage)).toEqual(
        ['companies/61636d65/notes.txt', upload(2), render(4), upload(6), render(7)].sort(),
      );
      expect(await lane.connection.exists(sweepLockKey(lane.prefix))).toBe(0);
    } finally {
      storage.close();
    }
  });
});
