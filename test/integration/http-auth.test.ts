import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import {
  authenticateV2,
  authenticateV3,
  bearerToken,
  requireCompany,
} from '../../src/surfaces/http/common/auth.js';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/common/create-app.js';
import {
  KeyStore,
  VerifiedKeyCache,
  type CreatedKey,
  type KeyVerifier,
} from '../../src/service/keys/index.js';
import {
  DatabaseUnavailableError,
  openDatabase,
  socketUrl,
} from '../../src/platform/postgres/index.js';
import type { Database } from '../../src/service/db/index.js';
import { addKeyOwner, type KeyOwner } from '../helpers/key-owner.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * The authentication hooks in front of route groups as the server puts them, with a real key
 * store on PostgreSQL (a database of this file's own, a company per rig): every failure in both
 * surfaces' shapes (the spec's six slugs on v3), the path company check, the verified-key cache's
 * time limit on revocation, a disabled company and a removed user, and that neither the routes
 * run nor the key is logged when a request is refused.
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await testDatabase();
});
afterAll(() => t.close());
let companies = 0;

const V2_UNAUTHORIZED = {
  errors: [{ code: 401, message: 'Unauthorized', description: 'Bearer token not found' }],
};

interface Rig {
  app: HttpApp;
  keys: KeyStore;
  owner: KeyOwner;
  /** The key's company, as the path names it. */
  company: string;
  /** Requests that reached a route handler. */
  handled: string[];
  logs: string[];
  clock: { t: number };
  good: CreatedKey;
  revoked: CreatedKey;
  expiring: CreatedKey;
}

/**
 * The hooks on a fresh company and its user, with a working, a revoked and an expired key. The
 * hooks ask `verifier(keys)`: the store itself unless a test puts the cache in front.
 */
async function rig(
  verifier: (keys: KeyStore, clock: { t: number }) => KeyVerifier = (keys) => keys,
): Promise<Rig> {
  const clock = { t: 1_000_000 };
  const keys = new KeyStore({ db: t.db, databaseUrl: t.url, now: () => clock.t });
  const owner = await addKeyOwner(t.db, `auth-${++companies}`);
  const company = owner.company;
  const guard = verifier(keys, clock);
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const app = createHttpApp({ bodyLimit: 1024 * 1024, logger: pino({ level: 'trace' }, sink) });
  const handled: string[] = [];
  // Another hook answering late, as metrics or compression would: an early 401 must still keep
  // the route from running.
  app.addHook('onSend', async (_req, _reply, payload) => {
    await new Promise((r) => setTimeout(r, 5));
    return payload;
  });
  const handler = (request: { url: string; apiKey?: unknown }) => {
    handled.push(request.url);
    return { apiKey: request.apiKey };
  };
  await app.register((v2) => {
    v2.addHook('onRequest', authenticateV2(guard));
    v2.post('/api/v2/document/convert', handler);
    v2.post('/v3/company/:company/file/upload', handler);
    v2.post('/v2/body-company', (request, reply) => {
      const { company } = request.body as { company: string };
      if (!requireCompany(request, reply, company)) return reply;
      return handler(request);
    });
    return Promise.resolve();
  });
  await app.register((v3) => {
    v3.addHook('onRequest', authenticateV3(guard));
    v3.get('/v3/api/documents', handler);
    return Promise.resolve();
  });
  const mine = { company, user: owner.email };
  const good = await keys.create({ ...mine, name: 'server' });
  const revoked = await keys.create({ ...mine, name: 'old' });
  await keys.revoke(revoked.id);
  const expiring = await keys.create({ ...mine, name: 'temp', expiresInMs: 60_000 });
  clock.t += 60_000;
  return { app, keys, owner, company, handled, logs, clock, good, revoked, expiring };
}

/** What a working key of the rig tells the route. */
const identity = (r: Rig, k: CreatedKey = r.good) => ({
  id: k.id,
  company: r.company,
  name: k.name,
  userId: r.owner.userId,
});

const disableCompany = (company: string, disabled = true) =>
  t.db.updateTable('companies').set({ disabled }).where('id', '=', company).execute();
const removeUser = (owner: KeyOwner) =>
  t.db.deleteFrom('users').where('id', '=', owner.userId).execute();

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('bearerToken', () => {
  it('reads "Bearer <token>" strictly', () => {
    expect(bearerToken('Bearer abc.DEF_1-2~+/==')).toEqual({
      kind: 'token',
      token: 'abc.DEF_1-2~+/==',
    });
    expect(bearerToken('bearer abc')).toEqual({ kind: 'token', token: 'abc' });
    for (const missing of [undefined, '', '   ', 'Bearer', 'Bearer '])
      expect(bearerToken(missing), String(missing)).toEqual({ kind: 'missing' });
    for (const bad of [
      'abc',
      'Basic abc',
      'Bearer  abc',
      'Bearer abc def',
      'Bearer a=b',
      'Bearerabc',
    ])
      expect(bearerToken(bad), bad).toEqual({ kind: 'malformed' });
  });
});

describe('authenticateV2 (v2 and file endpoints)', () => {
  it('lets a working key through with its identity', async () => {
    const r = await rig();
    const res = await r.app.inject({
      method: 'POST',
      url: '/api/v2/document/convert',
      headers: bearer(r.good.key),
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ apiKey: identity(r) });
    expect(r.handled).toEqual(['/api/v2/document/convert']);
  });

  it('answers every failure 401 with the v2 body, and the route never runs', async () => {
    const r = await rig();
    const notFound = 'Bearer token not found';
    const malformed =
      'Bearer token not valid: send "Authorization: Bearer <key>", one space after Bearer';
    const unknown = 'Bearer token not valid: no such API key here';
    const cases: [string, Record<string, string>, string][] = [
      ['missing header', {}, notFound],
      ['empty header', { authorization: '' }, notFound],
      ['scheme alone', { authorization: 'Bearer' }, notFound],
      ['another scheme', { authorization: `Basic ${r.good.key}` }, malformed],
      ['no scheme', { authorization: r.good.key }, malformed],
      ['two spaces', { authorization: `Bearer  ${r.good.key}` }, malformed],
      ['unknown key', bearer(`dp_0123456789abcdef_${'0'.repeat(64)}`), unknown],
      ['wrong secret', bearer(`${r.good.key.slice(0, 20)}${'0'.repeat(64)}`), unknown],
      ['revoked', bearer(r.revoked.key), 'Bearer token not valid: the API key was revoked'],
      ['expired', bearer(r.expiring.key), 'Bearer token not valid: the API key has expired'],
    ];
    for (const [what, headers, description] of cases) {
      for (const url of ['/api/v2/document/convert', `/v3/company/${r.company}/file/upload`]) {
        const res = await r.app.inject({ method: 'POST', url, headers, payload: {} });
        expect(res.statusCode, `${what} ${url}`).toBe(401);
        // The spec's shape; a token that was sent is not "not found".
        expect(res.json(), what).toEqual({
          errors: [{ ...V2_UNAUTHORIZED.errors[0], description }],
        });
        expect(res.headers['www-authenticate'], what).toMatch(/^Bearer realm="docpipe"/);
      }
    }
    expect(r.handled).toEqual([]);
  });

  it('answers 400 Invalid company id when the path names another company', async () => {
    const r = await rig();
    const other = await addKeyOwner(t.db, `auth-other-${companies}`);
    for (const company of [other.company, r.company.toUpperCase(), `${r.company}2`]) {
      const res = await r.app.inject({
        method: 'POST',
        url: `/v3/company/${company}/file/upload`,
        headers: bearer(r.good.key),
        payload: {},
      });
      expect(res.statusCode, company).toBe(400);
      expect(res.json()).toEqual({
        code: 400,
        message: 'Bad Request',
        description: 'Invalid company id',
      });
    }
    expect(r.handled).toEqual([]);
    const own = await r.app.inject({
      method: 'POST',
      url: `/v3/company/${r.company}/file/upload`,
      headers: bearer(r.good.key),
      payload: {},
    });
    expect(own.statusCode).toBe(200);
    expect(r.handled).toEqual([`/v3/company/${r.company}/file/upload`]);
  });

  it('checks a company given elsewhere with requireCompany', async () => {
    const r = await rig();
    const send = (company: string) =>
      r.app.inject({
        method: 'POST',
        url: '/v2/body-company',
        headers: bearer(r.good.key),
        payload: { company },
      });
    const other = await send('some-other-company');
    expect(other.statusCode).toBe(400);
    expect(other.json()).toEqual({
      code: 400,
      message: 'Bad Request',
      description: 'Invalid company id',
    });
    expect((await send(r.company)).statusCode).toBe(200);
    expect(r.handled).toEqual(['/v2/body-company']);
  });
});

describe('authenticateV3 (v3 API)', () => {
  const get = (r: Rig, headers: Record<string, string>) =>
    r.app.inject({ method: 'GET', url: '/v3/api/documents', headers });

  it('lets a working key through with its identity', async () => {
    const r = await rig();
    const res = await get(r, bearer(r.good.key));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ apiKey: identity(r) });
  });

  it('answers each failure 401 with its slug and one detail on the header', async () => {
    const r = await rig();
    const cases: [string, Record<string, string>, string][] = [
      ['missing header', {}, 'missing-token'],
      ['empty header', { authorization: '' }, 'missing-token'],
      ['scheme alone', { authorization: 'Bearer ' }, 'missing-token'],
      ['another scheme', { authorization: `Basic ${r.good.key}` }, 'invalid-token'],
      ['trailing word', { authorization: `Bearer ${r.good.key} x` }, 'invalid-token'],
      ['unknown key', bearer(`dp_0123456789abcdef_${'0'.repeat(64)}`), 'invalid-token'],
      ['not a key', bearer('hunter2'), 'invalid-token'],
      [
        'wrong secret of a revoked key',
        bearer(`${r.revoked.key.slice(0, 20)}${'1'.repeat(64)}`),
        'invalid-token',
      ],
      ['revoked', bearer(r.revoked.key), 'key-revoked'],
      ['expired', bearer(r.expiring.key), 'key-expired'],
    ];
    for (const [what, headers, slug] of cases) {
      const res = await get(r, headers);
      expect(res.statusCode, what).toBe(401);
      const body = res.json<{ error: string; details: { field: string; message: string }[] }>();
      expect(body.error, what).toBe(slug);
      expect(body.details, what).toEqual([{ field: 'Authorization', message: expect.any(String) }]);
      expect(Object.keys(body).sort()).toEqual(['details', 'error']);
      expect(res.headers['www-authenticate'], what).toBe(
        slug === 'missing-token'
          ? 'Bearer realm="docpipe"'
          : 'Bearer realm="docpipe", error="invalid_token"',
      );
    }
    expect(r.handled).toEqual([]);
  });

  it('answers key-expired from the expiry on, not before', async () => {
    const r = await rig();
    const k = await r.keys.create({
      company: r.company,
      user: r.owner.email,
      name: 'soon',
      expiresInMs: 1000,
    });
    r.clock.t += 999;
    expect((await get(r, bearer(k.key))).statusCode).toBe(200);
    r.clock.t += 1;
    expect((await get(r, bearer(k.key))).json()).toMatchObject({ error: 'key-expired' });
  });

  it('passes a database outage to the group as DatabaseUnavailableError, not as a refusal', async () => {
    const r = await rig();
    const nowhere = socketUrl(testDir('docpipe-no-pg-'), 'docpipe', 'docpipe');
    const db = openDatabase<Database>(nowhere, { connectTimeoutMs: 1000 });
    onTestFinished(() => db.destroy());
    const keys = new KeyStore({ db, databaseUrl: nowhere });
    const app = createHttpApp({ bodyLimit: 1024 });
    const seen: unknown[] = [];
    await app.register((v3) => {
      v3.setErrorHandler((err, _request, reply) => {
        seen.push(err);
        return reply.code(503).send({ outage: true });
      });
      v3.addHook('onRequest', authenticateV3(keys));
      v3.get('/v3/api/documents', () => ({ reached: true }));
      return Promise.resolve();
    });
    const res = await app.inject({
      method: 'GET',
      url: '/v3/api/documents',
      headers: bearer(r.good.key),
    });
    expect(res.statusCode).toBe(503);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(DatabaseUnavailableError);
    expect(seen[0]).not.toBeInstanceOf(DocpipeError);
  });
});

describe('what a right key acts for (both surfaces)', () => {
  const v3 = (r: Rig, key: string) =>
    r.app.inject({ method: 'GET', url: '/v3/api/documents', headers: bearer(key) });
  const v2 = (r: Rig, key: string, url = '/api/v2/document/convert') =>
    r.app.inject({ method: 'POST', url, headers: bearer(key), payload: {} });

  it('answers company-disabled with 403 on v3 and v2 while the company is disabled', async () => {
    const r = await rig();
    await disableCompany(r.company);
    const res = await v3(r, r.good.key);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'company-disabled',
      details: [{ field: 'Authorization', message: expect.stringMatching(/company is disabled/) }],
    });
    // Nothing another key would fix: no challenge.
    expect(res.headers['www-authenticate']).toBeUndefined();
    for (const url of ['/api/v2/document/convert', `/v3/company/${r.company}/file/upload`]) {
      const old = await v2(r, r.good.key, url);
      expect(old.statusCode, url).toBe(403);
      expect(old.json(), url).toEqual({
        errors: [
          {
            code: 403,
            message: 'Forbidden',
            description: 'The company account is disabled; its API keys are refused',
          },
        ],
      });
    }
    await disableCompany(r.company, false);
    expect((await v3(r, r.good.key)).statusCode).toBe(200);
    expect(r.handled).toEqual(['/v3/api/documents']);
  });

  it('answers key-has-no-user with 403 on v3 and v2 once its user is removed', async () => {
    const r = await rig();
    await removeUser(r.owner);
    const res = await v3(r, r.good.key);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'key-has-no-user',
      details: [{ field: 'Authorization', message: expect.stringMatching(/user was removed/) }],
    });
    const old = await v2(r, r.good.key);
    expect(old.statusCode).toBe(403);
    expect(old.json()).toEqual({
      errors: [
        {
          code: 403,
          message: 'Forbidden',
          description:
            'The API key has no user: its user was removed. Create a key for a user of the company',
        },
      ],
    });
    expect(r.handled).toEqual([]);
  });

  it("never lets company A's key act on company B's paths, even when B is a company with keys", async () => {
    const a = await rig();
    const b = await rig();
    for (const [key, company] of [
      [a.good.key, b.company],
      [b.good.key, a.company],
    ] as const) {
      const res = await v2(a, key, `/v3/company/${company}/file/upload`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: 400,
        message: 'Bad Request',
        description: 'Invalid company id',
      });
    }
    // On v3 the company is the key's: each key reaches its own company, and no other.
    expect((await v3(a, a.good.key)).json()).toEqual({ apiKey: identity(a) });
    expect((await v3(a, b.good.key)).json()).toEqual({ apiKey: identity(b) });
    expect(a.handled).toEqual(['/v3/api/documents', '/v3/api/documents']);
  });
});

describe('the verified-key cache in front of the store', () => {
  const TTL = 5000;
  /** The hooks asking through the cache, on the rig's clock. */
  const cached = () =>
    rig((keys, clock) => new VerifiedKeyCache(keys, { ttlMs: TTL, now: () => clock.t }));
  const v3 = (r: Rig) =>
    r.app.inject({ method: 'GET', url: '/v3/api/documents', headers: bearer(r.good.key) });

  const changes: [string, (r: Rig) => Promise<unknown>, string][] = [
    ['a revocation', (r) => r.keys.revoke(r.good.id), 'key-revoked'],
    ['a disabled company', (r) => disableCompany(r.company), 'company-disabled'],
    ['a removed user', (r) => removeUser(r.owner), 'key-has-no-user'],
  ];

  it.each(changes)(
    'takes %s into account once the time limit has passed, and not before',
    async (_what, change, slug) => {
      const r = await cached();
      expect((await v3(r)).statusCode).toBe(200);
      await change(r);
      // Within the time limit the answer is the cache's: the database is not asked.
      r.clock.t += TTL - 1;
      expect((await v3(r)).statusCode).toBe(200);
      r.clock.t += 1;
      expect((await v3(r)).json()).toMatchObject({ error: slug });
    },
  );
});

describe('both hooks', () => {
  it('never log a key, whole or its secret, whatever the outcome', async () => {
    const r = await rig();
    for (const key of [r.good.key, r.revoked.key, r.expiring.key]) {
      await r.app.inject({ method: 'GET', url: '/v3/api/documents', headers: bearer(key) });
      await r.app.inject({
        method: 'POST',
        url: '/v3/company/some-other-company/file/upload',
        headers: bearer(key),
        payload: {},
      });
    }
    const log = r.logs.join('');
    expect(r.logs.length).toBeGreaterThan(6);
    expect(log).toContain('API key refused');
    expect(log).toContain(r.revoked.id);
    for (const key of [r.good.key, r.revoked.key, r.expiring.key])
      expect(log).not.toContain(key.slice(20));
  });

  it('work over a real socket', async () => {
    const r = await rig();
    await r.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = r.app.server.address() as { port: number };
      const base = `http://127.0.0.1:${port}`;
      const ok = await fetch(`${base}/v3/api/documents`, { headers: bearer(r.good.key) });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({
        apiKey: identity(r),
      });
      const revoked = await fetch(`${base}/v3/api/documents`, { headers: bearer(r.revoked.key) });
      expect(revoked.status).toBe(401);
      expect(await revoked.json()).toMatchObject({ error: 'key-revoked' });
      const v2 = await fetch(`${base}/api/v2/document/convert`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(v2.status).toBe(401);
      expect(await v2.json()).toEqual(V2_UNAUTHORIZED);
    } finally {
      await r.app.close();
    }
  });
});
