import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import { openServiceDatabase } from '../../src/app/wiring/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { KeyStore, hashToken, newToken, type KeyVerifier } from '../../src/service/keys/index.js';
import { authenticateV2, authenticateV3 } from '../../src/surfaces/http/common/auth.js';
import { createHttpApp } from '../../src/surfaces/http/common/create-app.js';
import { startRedisOnly, type Lane, type RedisOnly } from '../helpers/queue-stack.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * An upgrade from the docpipe that kept API keys in Redis: keys written there as that version's
 * store wrote them keep working once `docpipe db migrate` (or a start) has copied them into
 * PostgreSQL, with their id, hash, company, name, times and revocation. Each test starts from an
 * empty database (a new installation's PostgreSQL) and a Redis lane of its own.
 */

const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
let redis: RedisOnly;
const opened: TestDatabase[] = [];

beforeAll(async () => {
  redis = await startRedisOnly();
});
afterAll(async () => {
  for (const d of opened) await d.close();
  await redis.close();
});

interface OldKey {
  id: string;
  key: string;
}

/**
 * A key as the earlier store wrote it (src/service/keys/key-store.ts before PostgreSQL): a hash
 * at `<prefix>:apikeys:key:<id>` with the key's SHA-256 in hex and times in ms, and its id in
 * the sorted set `<prefix>:apikeys:ids` scored by creation.
 */
async function oldKey(
  lane: Lane,
  fields: {
    company: string;
    name: string;
    createdAt: number;
    expiresAt?: number;
    revokedAt?: number;
  },
): Promise<OldKey> {
  const { id, token } = newToken();
  const base = `${lane.prefix}:apikeys`;
  await lane.connection.hset(`${base}:key:${id}`, {
    hash: hashToken(token).toString('hex'),
    company: fields.company,
    name: fields.name,
    createdAt: String(fields.createdAt),
    ...(fields.expiresAt === undefined ? {} : { expiresAt: String(fields.expiresAt) }),
    ...(fields.revokedAt === undefined ? {} : { revokedAt: String(fields.revokedAt) }),
  });
  await lane.connection.zadd(`${base}:ids`, fields.createdAt, id);
  return { id, key: token };
}

/** A lane with the keys of an earlier installation, and an empty database to upgrade to. */
async function upgrade() {
  const lane = await redis.lane();
  const t = await testDatabase({ migrated: false });
  opened.push(t);
  const now = Date.now();
  const working = await oldKey(lane, { company: 'acme', name: 'billing', createdAt: now - 5000 });
  const revoked = await oldKey(lane, {
    company: 'acme',
    name: 'old',
    createdAt: now - 4000,
    revokedAt: now - 3000,
  });
  const expiring = await oldKey(lane, {
    company: 'globex',
    name: 'ci',
    createdAt: now - 2000,
    expiresAt: now + 3_600_000,
  });
  const expired = await oldKey(lane, {
    company: 'globex',
    name: 'gone',
    createdAt: now - 1000,
    expiresAt: now - 500,
  });
  // A record the earlier store would not have read either (no hash): left out.
  await lane.connection.hset(`${lane.prefix}:apikeys:key:0123456789abcdef`, {
    company: 'acme',
    name: 'broken',
    createdAt: String(now),
  });
  await lane.connection.zadd(`${lane.prefix}:apikeys:ids`, now, '0123456789abcdef');
  const env = {
    DATABASE_URL: t.url,
    REDIS_URL: redis.url,
    DOCPIPE_QUEUE_PREFIX: lane.prefix,
  };
  return { lane, t, env, working, revoked, expiring, expired };
}

function docpipe(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    cwd: root,
    env: { ...process.env, DOCPIPE_DATA_DIR: testDir('docpipe-keys-redis-'), ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The hooks as the server puts them, in front of a v3 route and a v2 file route. */
async function guarded(keys: KeyVerifier) {
  const app = createHttpApp({ bodyLimit: 1024 });
  await app.register((v2) => {
    v2.addHook('onRequest', authenticateV2(keys));
    v2.post('/v3/company/:company/file/upload', (request) => ({ apiKey: request.apiKey }));
    return Promise.resolve();
  });
  await app.register((v3) => {
    v3.addHook('onRequest', authenticateV3(keys));
    v3.get('/v3/api/documents', (request) => ({ apiKey: request.apiKey }));
    return Promise.resolve();
  });
  return app;
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('API keys of the docpipe that kept them in Redis', () => {
  it('keep working after docpipe db migrate, which copies them with their state', async () => {
    const u = await upgrade();
    const migrated = docpipe(u.env, 'db', 'migrate', '--json');
    expect(migrated.status, migrated.stderr).toBe(0);
    expect(JSON.parse(migrated.stdout)).toEqual({
      applied: expect.arrayContaining(['0001-tenancy', '0002-api-keys-from-redis']),
      already: 0,
      keysFromRedis: { copied: 4, already: 0, companiesCreated: ['acme', 'globex'] },
    });

    const keys = new KeyStore({ db: u.t.db, databaseUrl: u.t.url });
    expect(await keys.verify(u.working.key)).toEqual({
      ok: true,
      identity: { id: u.working.id, company: 'acme', name: 'billing' },
    });
    expect(await keys.verify(u.revoked.key)).toEqual({ ok: false, reason: 'revoked' });
    expect((await keys.verify(u.expiring.key)).ok).toBe(true);
    expect(await keys.verify(u.expired.key)).toEqual({ ok: false, reason: 'expired' });

    const app = await guarded(keys);
    const v3 = await app.inject({
      method: 'GET',
      url: '/v3/api/documents',
      headers: bearer(u.working.key),
    });
    expect(v3.statusCode).toBe(200);
    const v2 = await app.inject({
      method: 'POST',
      url: '/v3/company/acme/file/upload',
      headers: bearer(u.working.key),
      payload: {},
    });
    expect(v2.statusCode).toBe(200);
    // Its company still: globex's paths are not acme's key's.
    const other = await app.inject({
      method: 'POST',
      url: '/v3/company/globex/file/upload',
      headers: bearer(u.working.key),
      payload: {},
    });
    expect(other.statusCode).toBe(400);
    const revoked = await app.inject({
      method: 'GET',
      url: '/v3/api/documents',
      headers: bearer(u.revoked.key),
    });
    expect(revoked.json()).toMatchObject({ error: 'key-revoked' });
    await app.close();

    // Listed as copied from Redis, without a user, and working.
    const listed = docpipe(u.env, 'keys', 'list', '--company', 'acme');
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(
      new RegExp(`^${u.working.id}  acme\\s+\\(from Redis\\)\\s+active\\s`, 'm'),
    );
  });

  it('are copied once: a second migrate copies nothing, and a revocation made since stays', async () => {
    const u = await upgrade();
    expect(docpipe(u.env, 'db', 'migrate').status).toBe(0);
    const keys = new KeyStore({ db: u.t.db, databaseUrl: u.t.url });
    expect((await keys.revoke(u.working.id)).found).toBe(true);
    const again = docpipe(u.env, 'db', 'migrate', '--json');
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      applied: [],
      keysFromRedis: { copied: 0, already: 4, companiesCreated: [] },
    });
    expect(await keys.verify(u.working.key)).toEqual({ ok: false, reason: 'revoked' });
    // Redis keeps its copy, as the earlier docpipe left it.
    expect(await u.lane.connection.zcard(`${u.lane.prefix}:apikeys:ids`)).toBe(5);
  });

  it('are copied by the migration at start too (serve, worker and start open the database so)', async () => {
    const u = await upgrade();
    const config = loadConfig({ ...u.env, DOCPIPE_DATA_DIR: testDir('docpipe-keys-start-') });
    const database = await openServiceDatabase(config, pino({ level: 'silent' }), {
      embed: false,
      redisUrl: redis.url,
    });
    expect(database).toBeDefined();
    try {
      const keys = new KeyStore({ db: database!.db, databaseUrl: database!.url });
      expect((await keys.verify(u.working.key)).ok).toBe(true);
      expect(await keys.list({ company: 'globex' })).toEqual([
        expect.objectContaining({ id: u.expiring.id, copiedFromRedisAt: expect.any(Date) }),
        expect.objectContaining({ id: u.expired.id }),
      ]);
    } finally {
      await database!.close();
    }
  });

  it('leave a key made here whose user is removed refused: only copied keys work without one', async () => {
    const u = await upgrade();
    expect(docpipe(u.env, 'db', 'migrate').status).toBe(0);
    const user = await u.t.db
      .insertInto('users')
      .values({ company_id: 'acme', email: 'ops@acme.example', name: 'Ops' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const keys = new KeyStore({ db: u.t.db, databaseUrl: u.t.url });
    const made = await keys.create({ company: 'acme', user: 'ops@acme.example' });
    await u.t.db.deleteFrom('users').where('id', '=', user.id).execute();
    expect(await keys.verify(made.key)).toEqual({ ok: false, reason: 'no-user' });
    expect((await keys.verify(u.working.key)).ok).toBe(true);
  });

  it('without a Redis to look in, db migrate migrates and says nothing of keys', async () => {
    const t = await testDatabase({ migrated: false });
    opened.push(t);
    const r = docpipe({ DATABASE_URL: t.url, REDIS_URL: '' }, 'db', 'migrate', '--json');
    expect(r.status, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout) as object).sort()).toEqual(['already', 'applied']);
  });
});
