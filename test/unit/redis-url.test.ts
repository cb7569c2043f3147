import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/base/files/index.js';
import {
  NoRedisError,
  redisUrlFile,
  requireRedisUrl,
  resolveRedisUrl,
} from '../../src/platform/redis/index.js';
import { testDir } from '../helpers/test-dir.js';

describe('finding the Redis of a running docpipe start', () => {
  it('takes REDIS_URL first, else the URL file in the data folder', async () => {
    const dataDir = testDir('redis-url-');
    expect(await resolveRedisUrl({ dataDir })).toBeUndefined();
    await redisUrlFile(dataDir).write('redis://127.0.0.1:6390');
    expect(await resolveRedisUrl({ dataDir })).toBe('redis://127.0.0.1:6390');
    expect(await requireRedisUrl({ dataDir })).toBe('redis://127.0.0.1:6390');
    expect(await requireRedisUrl({ dataDir, redisUrl: 'redis://elsewhere:6379' })).toBe(
      'redis://elsewhere:6379',
    );
    await redisUrlFile(dataDir).remove();
    expect(await resolveRedisUrl({ dataDir })).toBeUndefined();
  });

  it('names the data folder it searched when there is none: a start on another folder is the usual cause', async () => {
    const running = testDir('redis-url-running-');
    writeFileSync(join(running, 'redis.url'), 'redis://127.0.0.1:6390\n');
    const searched = testDir('redis-url-searched-');
    const err = await requireRedisUrl({ dataDir: searched }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NoRedisError);
    // Bad usage to the CLI (exit status 2), as before.
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({ dataDir: searched, urlFile: join(searched, 'redis.url') });
    expect((err as Error).message).toBe(
      `no Redis: REDIS_URL is not set, and no "docpipe start" runs on the data folder ${searched} ` +
        '(it has no redis.url). Set REDIS_URL, or run "docpipe start" first; to use one that runs ' +
        'on another folder, set DOCPIPE_DATA_DIR to it',
    );
  });
});
