import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { authenticateV2, authenticateV3 } from '../../src/surfaces/http/common/auth.js';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { V3_RATE_LIMITED, registerRateLimit } from '../../src/surfaces/http/common/rate-limit.js';
import { KeyStore } from '../../src/service/keys/index.js';
import { QueueUnavailableError, createRedis } from '../../src/platform/redis/index.js';
import { startRedisOnly, type Lane, type RedisOnly } from '../helpers/queue-stack.js';
import { addKeyOwner } from '../helpers/key-owner.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';

/**
 * The per-key rate limit as the server wires it (authentication hook, then the limit) on two
 * HTTP servers sharing one private redis-server, over real sockets: one count per key across
 * both, 429 with Retry-After in each surface's shape, refused callers not counted. The keys are
 * in PostgreSQL (a database of this file's own), the counts in Redis.
 */

let redis: RedisOnly;
let t: TestDatabase;
/** The company acme and its user, whom every key here belongs to. */
let acme: { company: string; user: string };
beforeAll(async () => {
  [redis, t] = await Promise.all([startRedisOnly(), testDatabase()]);
  const owner = await addKeyOwner(t.db, 'acme');
  acme = { company: owner.company, user: owner.email };
});
afterAll(async () => {
  await redis.close();
  await t.close();
});

const keyStore = () => new KeyStore({ db: t.db, databaseUrl: t.url });

interface Server {
  app: HttpApp;
  base: string;
  handled: string[];
}

async function server(lane: Lane, keys: KeyStore, limits: { v2: number; v3: number }) {
  const app = createHttpApp({ bodyLimit: 1024 * 1024 });
  const handled: string[] = [];
  // A hook that answers late, as metrics would: a 429 must still keep the route from running.
  app.addHook('onSend', async (_req, _reply, payload) => {
    await new Promise((r) => setTimeout(r, 2));
    return payload;
  });
  const handler = (request: { url: string }) => {
    handled.push(request.url);
    return { ok: true };
  };
  const common = { redis: lane.connection, prefix: lane.prefix, redisUrl: redis.url };
  await app.register(async (v2) => {
    v2.addHook('onRequest', authenticateV2(keys));
    await registerRateLimit(v2, { ...common, perMinute: limits.v2, surface: 'v2' });
    v2.post('/api/v2/document/convert', handler);
  });
  await app.register(async (files) => {
    files.addHook('onRequest', authenticateV2(keys));
    await registerRateLimit(files, { ...common, perMinute: limits.v2, surface: 'v2' });
    files.post('/v3/company/:company/file/upload', handler);
  });
  await app.register(async (v3) => {
    v3.addHook('onRequest', authenticateV3(keys));
    await registerRateLimit(v3, { ...common, perMinute: limits.v3, surface: 'v3' });
    v3.get('/v3/api/documents', handler);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  onTestFinished(() => app.close());
  const { port } = app.server.address() as { port: number };
  return { app, base: `http://127.0.0.1:${port}`, handled } satisfies Server;
}

async function twoServers(limits = { v2: 3, v3: 2 }) {
  const lane = await redis.lane();
  const keys = keyStore();
  return {
    lane,
    keys,
    a: await server(lane, keys, limits),
    b: await server(lane, keys, limits),
  };
}

const convert = (s: Server, key?: string) =>
  fetch(`${s.base}/api/v2/document/convert`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body: '{}',
  });

const documents = (s: Server, key: string) =>
  fetch(`${s.base}/v3/api/documents`, { headers: { authorization: `Bearer ${key}` } });

describe('registerRateLimit', () => {
  it('counts one key across two servers and answers 429 with Retry-After in the v2 shape', async () => {
    const { a, b, keys } = await twoServers();
    const { key } = await keys.create({ ...acme, name: 'busy' });
    const statuses: number[] = [];
    const remaining: (string | null)[] = [];
    for (const s of [a, b, a]) {
      const res = await convert(s, key);
      statuses.push(res.status);
      remaining.push(res.headers.get('x-ratelimit-remaining'));
      expect(res.headers.get('x-ratelimit-limit')).toBe('3');
    }
    expect(statuses).toEqual([200, 200, 200]);
    expect(remaining).toEqual(['2', '1', '0']);
    const over = await convert(b, key);
    expect(over.status).toBe(429);
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await over.json()).toEqual({
      errors: [
        {
          code: 429,
          message: 'Too Many Requests',
          description: `more than 3 requests a minute with this API key; try again in ${retryAfter} s (Retry-After)`,
        },
      ],
    });
    expect(a.handled.length + b.handled.length).toBe(3);
  });

  it('counts per key, v2 and file endpoints together, v3 apart, refused callers not at all', async () => {
    const { a, b, keys } = await twoServers();
    const one = await keys.create({ ...acme, name: 'one' });
    const two = await keys.create({ ...acme, name: 'two' });
    for (let i = 0; i < 5; i++) expect((await convert(a)).status).toBe(401);
    const upload = (s: Server) =>
      fetch(`${s.base}/v3/company/acme/file/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${one.key}`, 'content-type': 'application/json' },
        body: '{}',
      });
    expect((await upload(a)).status).toBe(200);
    expect((await convert(b, one.key)).status).toBe(200);
    expect((await upload(b)).status).toBe(200);
    expect((await convert(a, one.key)).status).toBe(429);
    expect((await upload(a)).status).toBe(429);
    // Another key has its own count, and v3 its own.
    expect((await convert(a, two.key)).status).toBe(200);
    expect((await documents(a, one.key)).status).toBe(200);
  });

  it('answers 429 on v3 with its own slug and no details', async () => {
    const { a, b, keys } = await twoServers();
    const { key } = await keys.create({ ...acme, name: 'v3' });
    expect((await documents(a, key)).status).toBe(200);
    expect((await documents(b, key)).status).toBe(200);
    const over = await documents(a, key);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await over.json()).toEqual({ error: V3_RATE_LIMITED, details: [] });
    expect(a.handled.length + b.handled.length).toBe(2);
  });

  it('keeps the count in Redis under the prefix, for one minute', async () => {
    const { lane, a, keys } = await twoServers();
    const k = await keys.create({ ...acme, name: 'window' });
    for (let i = 0; i < 4; i++) await convert(a, k.key);
    const name = `${lane.prefix}:ratelimit:v2:${k.id}`;
    expect(await lane.connection.get(name)).toBe('4');
    const ttl = await lane.connection.pttl(name);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect((await convert(a, k.key)).status).toBe(429);
    // The window ends (as it would after a minute): the key works again.
    await lane.connection.del(name);
    expect((await convert(a, k.key)).status).toBe(200);
  });

  it('limits nothing at 0 (v3 by default)', async () => {
    const { a, keys } = await twoServers({ v2: 3, v3: 0 });
    const { key } = await keys.create({ ...acme, name: 'free' });
    for (let i = 0; i < 8; i++) {
      const res = await documents(a, key);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
    expect(a.handled).toHaveLength(8);
  });

  it('passes a Redis outage to the group as QueueUnavailableError, and the route never runs', async () => {
    const lane = await redis.lane();
    const keys = keyStore();
    const { key } = await keys.create({ ...acme, name: 'x' });
    const gone = createRedis(redis.url, 'producer');
    await gone.connect();
    gone.disconnect();
    const app = createHttpApp({ bodyLimit: 1024 });
    onTestFinished(() => app.close());
    const seen: unknown[] = [];
    let reached = 0;
    await app.register(async (v2) => {
      v2.setErrorHandler((err, _request, reply) => {
        seen.push(err);
        return reply.code(503).send({ outage: true });
      });
      v2.addHook('onRequest', authenticateV2(keys));
      await registerRateLimit(v2, {
        redis: gone,
        prefix: lane.prefix,
        perMinute: 5,
        surface: 'v2',
        redisUrl: redis.url,
      });
      v2.get('/api/v2/anything', () => ({ reached: ++reached }));
    });
    const res = await app.inject({
      method: 'GET',
      url: '/api/v2/anything',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.statusCode).toBe(503);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(QueueUnavailableError);
    expect(reached).toBe(0);
  });

  it('refuses a bad limit, and a second limiter in one context', async () => {
    const lane = await redis.lane();
    const app = createHttpApp({ bodyLimit: 1024 });
    onTestFinished(() => app.close());
    const options = { redis: lane.connection, prefix: lane.prefix, surface: 'v2' as const };
    await expect(registerRateLimit(app, { ...options, perMinute: -1 })).rejects.toThrow(
      'rate limit must be a whole number of requests a minute (got -1)',
    );
    await expect(registerRateLimit(app, { ...options, perMinute: 1.5 })).rejects.toThrow(/got 1.5/);
    await registerRateLimit(app, { ...options, perMinute: 5 });
    await expect(registerRateLimit(app, { ...options, perMinute: 5 })).rejects.toThrow(
      'rate limiting is already registered in this context or a parent one',
    );
  });
});
