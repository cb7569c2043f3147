import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import { KeyStore } from '../../src/service/keys/index.js';
import { QueueUnavailableError } from '../../src/platform/redis/index.js';
import { freePort } from '../../src/platform/embedded/index.js';
import { rejectionOf } from '../helpers/failure.js';
import { startRedisOnly, type Lane, type RedisOnly } from '../helpers/queue-stack.js';

/** The key store on a real redis-server, each test on a prefix of its own. */

let redis: RedisOnly;
beforeAll(async () => {
  redis = await startRedisOnly();
});
afterAll(() => redis.close());

/** A clock the test moves by hand, for expiry. */
function clock(start: number) {
  const c = { t: start, now: () => c.t };
  return c;
}

async function storeOnLane(now?: () => number): Promise<{ lane: Lane; keys: KeyStore }> {
  const lane = await redis.lane();
  return { lane, keys: new KeyStore({ redis: lane.connection, prefix: lane.prefix, now }) };
}

/** Every key under the lane's prefix with everything it holds, as text. */
async function dumpLane(lane: Lane): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let cursor = '0';
  do {
    const [next, names] = await lane.connection.scan(cursor, 'MATCH', '*', 'COUNT', 1000);
    for (const name of names) {
      const type = await lane.connection.type(name);
      const value =
        type === 'hash'
          ? JSON.stringify(await lane.connection.hgetall(name))
          : type === 'zset'
            ? JSON.stringify(await lane.connection.zrange(name, 0, -1, 'WITHSCORES'))
            : type;
      found.set(name, value);
    }
    cursor = next;
  } while (cursor !== '0');
  return found;
}

describe('KeyStore', () => {
  it('creates a dp_<id>_<secret> key that verifies as its company and name', async () => {
    const { keys } = await storeOnLane(() => 1_700_000_000_000);
    const created = await keys.create({ company: 'acme-1', name: 'billing server' });
    expect(created.key).toMatch(/^dp_[0-9a-f]{16}_[0-9a-f]{64}$/);
    expect(created.key.slice(3, 19)).toBe(created.id);
    expect(created).toEqual({
      id: created.id,
      company: 'acme-1',
      name: 'billing server',
      createdAt: new Date(1_700_000_000_000),
      key: created.key,
    });
    expect(await keys.verify(created.key)).toEqual({
      ok: true,
      identity: { id: created.id, company: 'acme-1', name: 'billing server' },
    });
  });

  it('stores only a SHA-256 of the key: neither the key nor its secret is anywhere in Redis', async () => {
    const { lane, keys } = await storeOnLane();
    const a = await keys.create({ company: 'acme', name: 'a' });
    const b = await keys.create({ company: 'acme', name: 'b', expiresInMs: 60_000 });
    await keys.revoke(b.id);
    const dump = await dumpLane(lane);
    expect([...dump.keys()].sort()).toEqual(
      [
        `${lane.prefix}:apikeys:ids`,
        `${lane.prefix}:apikeys:key:${a.id}`,
        `${lane.prefix}:apikeys:key:${b.id}`,
      ].sort(),
    );
    const everything = [...dump.entries()].flat().join('\n');
    for (const key of [a.key, b.key]) {
      expect(everything).not.toContain(key);
      expect(everything).not.toContain(key.slice(20)); // the secret alone
      expect(everything).not.toContain(key.slice(20, 36)); // nor a piece of it
    }
    const stored = await lane.connection.hget(`${lane.prefix}:apikeys:key:${a.id}`, 'hash');
    expect(stored).toBe(createHash('sha256').update(a.key).digest('hex'));
  });

  it('lists every key oldest first with its times, never a key or a hash', async () => {
    const c = clock(1_000_000);
    const { keys } = await storeOnLane(c.now);
    const first = await keys.create({ company: 'acme', name: 'first', expiresInMs: 5_000 });
    c.t = 2_000_000;
    const second = await keys.create({ company: 'globex', name: 'second' });
    c.t = 3_000_000;
    await keys.revoke(first.id);
    expect(await keys.list()).toEqual([
      {
        id: first.id,
        company: 'acme',
        name: 'first',
        createdAt: new Date(1_000_000),
        expiresAt: new Date(1_005_000),
        revokedAt: new Date(3_000_000),
      },
      { id: second.id, company: 'globex', name: 'second', createdAt: new Date(2_000_000) },
    ]);
  });

  it('lists nothing on a fresh prefix', async () => {
    const { keys } = await storeOnLane();
    expect(await keys.list()).toEqual([]);
  });

  it('revokes once: the key stops working, a second revocation keeps the first time', async () => {
    const c = clock(10_000);
    const { keys } = await storeOnLane(c.now);
    const k = await keys.create({ company: 'acme', name: 'ci' });
    c.t = 20_000;
    expect(await keys.revoke(k.id)).toEqual({
      found: true,
      alreadyRevoked: false,
      revokedAt: new Date(20_000),
    });
    expect(await keys.verify(k.key)).toEqual({ ok: false, reason: 'revoked' });
    c.t = 30_000;
    expect(await keys.revoke(k.id)).toEqual({
      found: true,
      alreadyRevoked: true,
      revokedAt: new Date(20_000),
    });
  });

  it('says when there is no key to revoke, and creates none', async () => {
    const { lane, keys } = await storeOnLane();
    expect(await keys.revoke('0123456789abcdef')).toEqual({ found: false });
    expect(await keys.revoke('not-an-id')).toEqual({ found: false });
    expect((await dumpLane(lane)).size).toBe(0);
  });

  it('expires a key at its expiry, to the millisecond', async () => {
    const c = clock(1_000);
    const { keys } = await storeOnLane(c.now);
    const k = await keys.create({ company: 'acme', name: 'short', expiresInMs: 1_000 });
    expect(k.expiresAt).toEqual(new Date(2_000));
    c.t = 1_999;
    expect((await keys.verify(k.key)).ok).toBe(true);
    c.t = 2_000;
    expect(await keys.verify(k.key)).toEqual({ ok: false, reason: 'expired' });
  });

  it('answers invalid for a wrong secret, and tells revocation and expiry only to the right one', async () => {
    const c = clock(1_000);
    const { keys } = await storeOnLane(c.now);
    const revoked = await keys.create({ company: 'acme', name: 'r' });
    const expired = await keys.create({ company: 'acme', name: 'e', expiresInMs: 1 });
    await keys.revoke(revoked.id);
    c.t = 5_000;
    const wrongSecret = (key: string) => `${key.slice(0, 20)}${'0'.repeat(64)}`;
    for (const key of [revoked.key, expired.key])
      expect(await keys.verify(wrongSecret(key))).toEqual({ ok: false, reason: 'invalid' });
    expect(await keys.verify(revoked.key)).toEqual({ ok: false, reason: 'revoked' });
    expect(await keys.verify(expired.key)).toEqual({ ok: false, reason: 'expired' });
  });

  it('answers invalid for unknown ids and anything that is not a key', async () => {
    const { keys } = await storeOnLane();
    const k = await keys.create({ company: 'acme', name: 'x' });
    const tokens = [
      `dp_0123456789abcdef_${'a'.repeat(64)}`, // well formed, unknown id
      k.key.toUpperCase(),
      `${k.key}0`,
      k.key.slice(0, -1),
      k.key.replace(/^dp_/, 'xx_'),
      k.id,
      '',
    ];
    for (const token of tokens)
      expect(await keys.verify(token), token).toEqual({ ok: false, reason: 'invalid' });
    expect((await keys.verify(k.key)).ok).toBe(true);
  });

  it('keeps installations on one Redis apart by prefix', async () => {
    const a = await storeOnLane();
    const b = await storeOnLane();
    const k = await a.keys.create({ company: 'acme', name: 'a' });
    expect(await b.keys.verify(k.key)).toEqual({ ok: false, reason: 'invalid' });
    expect(await b.keys.list()).toEqual([]);
    expect(await b.keys.revoke(k.id)).toEqual({ found: false });
  });

  it('refuses a bad company, name and lifetime, every problem at once', async () => {
    const { lane, keys } = await storeOnLane();
    const err = await rejectionOf(
      keys.create({ company: 'acme corp/1', name: ' ', expiresInMs: 0 }),
      DocpipeError,
    );
    expect(err.slug).toBe('validation-failed');
    expect(err.details.map((d) => d.field)).toEqual(['company', 'name', 'expiresInMs']);
    for (const company of ['', '-acme', 'a'.repeat(129), 'acmé', 'a\nb'])
      expect(
        (await rejectionOf(keys.create({ company, name: 'n' }), DocpipeError)).message,
        company,
      ).toMatch(/^validation-failed: company: /);
    expect(
      (await rejectionOf(keys.create({ company: 'a', name: 'two\nlines' }), DocpipeError)).message,
    ).toMatch(/control characters/);
    expect((await dumpLane(lane)).size).toBe(0);
  });

  it('is QueueUnavailableError when Redis does not answer, on connect and later', async () => {
    const port = await freePort();
    const refused = await rejectionOf(
      KeyStore.connect(`redis://127.0.0.1:${port}`, { prefix: 'x' }),
      QueueUnavailableError,
    );
    expect(refused.message).toContain(
      `cannot reach Redis at redis://127.0.0.1:${port}, where the API keys are kept`,
    );

    const keys = await KeyStore.connect(redis.url, { prefix: `test-gone-${port}` });
    expect(await keys.list()).toEqual([]);
    await keys.close();
    for (const op of [keys.verify(`dp_0123456789abcdef_${'a'.repeat(64)}`), keys.list()]) {
      const err = await rejectionOf(op, QueueUnavailableError);
      expect(err.reason).toBe('redis-unreachable');
    }
  });
});
