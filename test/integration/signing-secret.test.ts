import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSigningSecret } from '../../src/service/keys/index.js';
import { signUrl, verifySignedUrl } from '../../src/render/storage/index.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';

let redis: RedisOnly;
beforeAll(async () => {
  redis = await startRedisOnly();
});
afterAll(() => redis.close());

describe('the signing secret shared through Redis', () => {
  it('is made once: servers starting at once, and later, all sign alike', async () => {
    const lane = await redis.lane();
    const first = await Promise.all(
      Array.from({ length: 5 }, () => sharedSigningSecret(lane.connection, lane.prefix)),
    );
    expect(new Set(first).size).toBe(1);
    expect(first[0]).toMatch(/^[0-9a-f]{64}$/);
    const later = await sharedSigningSecret(lane.connection, lane.prefix);
    expect(later).toBe(first[0]);
    // A URL one server signed verifies on another.
    const url = signUrl(
      'http://a.test',
      'renders/ab/x.pdf',
      new Date(Date.now() + 60_000),
      first[0]!,
    );
    expect(verifySignedUrl(url, later)).toEqual({ ok: true, key: 'renders/ab/x.pdf' });
  });

  it('is separate per installation (queue prefix)', async () => {
    const a = await redis.lane();
    const b = await redis.lane();
    expect(await sharedSigningSecret(a.connection, a.prefix)).not.toBe(
      await sharedSigningSecret(b.connection, b.prefix),
    );
  });
});
