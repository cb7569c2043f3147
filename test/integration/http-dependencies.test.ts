import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import { openHttpDependencies } from '../../src/app/wiring/http-dependencies.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * The HTTP service's parts closed as soon as they are opened, as a `docpipe start` whose port is
 * taken closes them: a CI run once ended such a start with "internal error: Connection is
 * closed." (exit 70, not 2), an 'error' event of a BullMQ queue nobody listened to, thrown while
 * its first check of Redis was cut off by the close.
 */

let redis: RedisOnly;
let t: TestDatabase;

beforeAll(async () => {
  [redis, t] = await Promise.all([startRedisOnly(), testDatabase()]);
});
afterAll(async () => {
  await Promise.all([redis?.close(), t?.close()]);
});

describe('the HTTP dependencies', () => {
  it('open with every queue heard and ready, and close at once without an unhandled error', async () => {
    const lane = await redis.lane();
    const config = loadConfig({
      DOCPIPE_SIGNING_SECRET: 'a-test-signing-secret-of-32-chars',
      DOCPIPE_QUEUE_PREFIX: lane.prefix,
      DOCPIPE_TEMPLATES_DIR: join(projectRoot(), 'templates'),
      DOCPIPE_DATA_DIR: testDir('docpipe-http-deps-'),
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (err: unknown) => unhandled.push(err);
    process.on('unhandledRejection', onUnhandled);
    try {
      for (let round = 0; round < 5; round++) {
        const deps = await openHttpDependencies(config, {
          redisUrl: redis.url,
          database: { db: t.db, url: t.url },
          preparer: new InlinePreparer(),
        });
        expect(deps.queues).toHaveLength(5);
        for (const queue of deps.queues) expect(queue.listenerCount('error')).toBeGreaterThan(0);
        await deps.close();
      }
      // A rejection BullMQ left behind surfaces on a later turn of the loop.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
