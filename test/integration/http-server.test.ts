import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { HttpSurface, SurfaceAccess } from '../../src/surfaces/http/common/surface.js';
import { SURFACES } from '../../src/surfaces/http/surfaces.js';
import { KeyStore } from '../../src/service/keys/index.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import { addKeyOwner } from '../helpers/key-owner.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { openDatabase, socketUrl } from '../../src/platform/postgres/index.js';
import type { Database } from '../../src/service/db/index.js';
import { testDir } from '../helpers/test-dir.js';
import { COMPOSED_PUBLIC_URL as PUBLIC, composedServer } from '../helpers/composed-server.js';

/**
 * The HTTP service as `docpipe serve` composes it, on a real Redis, with no worker: what the
 * composition decides (which surface checks keys how, one rate limit shared by v2 and the file
 * endpoints, every route in the OpenAPI document) rather than what each route does (their own
 * tests cover that).
 */

let redis: RedisOnly;
let t: TestDatabase;
/** The user of company acme whom the keys belong to. */
let owner: string;

beforeAll(async () => {
  [redis, t] = await Promise.all([startRedisOnly(), testDatabase()]);
  owner = (await addKeyOwner(t.db, 'acme')).email;
});
afterAll(async () => {
  await redis.close();
  await t.close();
});

/**
 * The composed server on a lane of its own, with the given v2 rate limit; its keys in the file's
 * database, or asked of `askKeys` (a database that does not answer).
 */
async function composed(
  rateLimitV2 = 100,
  surfaces: readonly HttpSurface[] = SURFACES,
  askKeys?: KeyStore,
) {
  const { app, keys } = await composedServer(redis, t, {
    env: { DOCPIPE_RATE_LIMIT_V2: String(rateLimitV2) },
    surfaces,
    askKeys,
  });
  const acme = (await keys.create({ company: 'acme', user: owner, name: 'test' })).key;
  return { app, acme, keys };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('the composed HTTP service', () => {
  it('answers a missing key in the shape of each surface', async () => {
    const { app } = await composed();
    const v2 = await app.inject({ method: 'POST', url: '/api/v2/document/convert', payload: {} });
    expect(v2.statusCode).toBe(401);
    expect(v2.json()).toEqual({
      errors: [{ code: 401, message: 'Unauthorized', description: 'Bearer token not found' }],
    });
    const files = await app.inject({
      method: 'POST',
      url: '/v3/company/acme/file/view-presigned-url',
      payload: { url: 'x' },
    });
    expect(files.statusCode).toBe(401);
    expect(files.json()).toEqual(v2.json());
    const v3 = await app.inject({ method: 'GET', url: '/v3/api/documents' });
    expect(v3.statusCode).toBe(401);
    expect(v3.json()).toMatchObject({ error: 'missing-token' });
  });

  it('answers a database that does not answer as an outage: 503 and Retry-After in the shape of each surface', async () => {
    const nowhere = socketUrl(testDir('docpipe-no-pg-'), 'docpipe', 'docpipe');
    const db = openDatabase<Database>(nowhere, { connectTimeoutMs: 1000 });
    onTestFinished(() => db.destroy());
    const { app, acme } = await composed(100, SURFACES, new KeyStore({ db, databaseUrl: nowhere }));
    const message = "docpipe's database does not answer; send the request again later";
    const asked = [
      {
        method: 'POST' as const,
        url: '/api/v2/document/convert',
        body: {
          errors: [{ code: 503, message: 'Service Unavailable', description: message }],
        },
      },
      {
        method: 'POST' as const,
        url: '/v3/company/acme/file/view-presigned-url',
        body: { message },
      },
      {
        method: 'GET' as const,
        url: '/v3/api/documents',
        body: { error: 'database-unavailable', details: [] },
      },
    ];
    for (const { method, url, body } of asked) {
      const res = await app.inject({
        method,
        url,
        headers: bearer(acme),
        ...(method === 'POST' ? { payload: { url: 'x' } } : {}),
      });
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['retry-after'], url).toBe('30');
      expect(res.json(), url).toEqual(body);
    }
  });

  it("takes a new surface as one more entry, behind its API's key check or public", async () => {
    // What a cases, forms or signing-pages surface does: a folder exporting this, one line.
    const probe = (access: SurfaceAccess, url: string): HttpSurface => ({
      name: `probe (${access})`,
      access,
      async register(scope) {
        // eslint-disable-next-line @typescript-eslint/require-await
        await scope.register(async (routes) => {
          routes.get(
            url,
            {
              schema: {
                summary: 'probe',
                response: { 200: { type: 'object', properties: { ok: { type: 'boolean' } } } },
              },
            },
            () => ({ ok: true }),
          );
        });
      },
    });
    const { app, acme } = await composed(100, [
      ...SURFACES,
      probe('v3', '/v3/api/probe'),
      probe('public', '/probe'),
    ]);
    const refused = await app.inject({ method: 'GET', url: '/v3/api/probe' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ error: 'missing-token' });
    const keyed = await app.inject({ method: 'GET', url: '/v3/api/probe', headers: bearer(acme) });
    expect(keyed.json()).toEqual({ ok: true });
    expect((await app.inject({ method: 'GET', url: '/probe' })).json()).toEqual({ ok: true });
    expect(Object.keys(app.swagger().paths ?? {})).toEqual(
      expect.arrayContaining(['/v3/api/probe', '/probe']),
    );
  });

  it("refuses a path naming another company than the key's", async () => {
    const { app, acme } = await composed();
    const r = await app.inject({
      method: 'POST',
      url: '/v3/company/globex/file/view-presigned-url',
      headers: bearer(acme),
      payload: { url: `${PUBLIC}/v3/company/globex/file/${'a'.repeat(64)}.pdf` },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({
      code: 400,
      message: 'Bad Request',
      description: 'Invalid company id',
    });
  });

  it("converts only URLs it issued to the key's company, reading each from storage", async () => {
    const { app, acme } = await composed();
    const upload = (company: string) =>
      `${PUBLIC}/v3/company/${company}/file/${'c'.repeat(64)}.docx`;
    const r = await app.inject({
      method: 'POST',
      url: '/api/v2/document/convert',
      headers: bearer(acme),
      payload: {
        documents: [
          { file: upload('acme'), name: 'gone' },
          { file: upload('globex'), name: 'theirs' },
          { file: 'https://example.com/a.docx', name: 'elsewhere' },
        ],
      },
    });
    expect(r.statusCode).toBe(400);
    expect(
      r
        .json<{ errors: { description: string }[] }>()
        .errors.map((e) => e.description.split(':')[0]),
    ).toEqual(['documents[0].file', 'documents[1].file', 'documents[2].file']);
    expect(r.json<{ errors: { description: string }[] }>().errors[0]!.description).toBe(
      'documents[0].file: names a stored document that is no longer there: upload it again',
    );
  });

  it('serves the library to a v3 key, and downloads to no key at all', async () => {
    const { app, acme } = await composed();
    const list = await app.inject({
      method: 'GET',
      url: '/v3/api/documents',
      headers: bearer(acme),
    });
    expect(list.statusCode).toBe(200);
    const ids = list.json<{ documents: { id: string }[] }>().documents.map((d) => d.id);
    expect(ids).toContain('lease');
    expect(ids).toContain('welcome-letter');
    expect(ids).toHaveLength(new Set(ids).size);
    const forged = await app.inject({
      method: 'GET',
      url: `/files/renders/ab/${'ab'.repeat(32)}.pdf?expires=9999999999&signature=${'0'.repeat(64)}`,
    });
    expect(forged.statusCode).toBe(403);
  });

  it('counts v2 and file requests of a key together against one limit, with Retry-After', async () => {
    const { app, acme } = await composed(3);
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++)
      statuses.push(
        (
          await app.inject({
            method: 'POST',
            url: '/api/v2/document/convert',
            headers: bearer(acme),
            payload: { documents: [] },
          })
        ).statusCode,
      );
    const file = () =>
      app.inject({
        method: 'POST',
        url: '/v3/company/acme/file/view-presigned-url',
        headers: bearer(acme),
        payload: {},
      });
    statuses.push((await file()).statusCode);
    const over = await file();
    expect(statuses).toEqual([400, 400, 400]);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('describes its routes in its OpenAPI document, under the spec version label (it refuses to start with one undescribed)', async () => {
    const { app } = await composed();
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      openapi: string;
      info: { version: string };
      paths: Record<string, unknown>;
    }>();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('2026-05-01-beta');
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/v2/document/convert',
      '/api/v2/{company}/case/create',
      '/api/v2/{company}/case/{case_id}/delete',
      '/api/v2/{company}/case/{case_id}/get',
      '/api/v2/{company}/cases/get',
      '/api/v2/{company}/cases/{case_ids}/get',
      '/api/v2/{company}/forms/{form_id}/get',
      '/api/v2/{company}/forms/{form_id}/submit',
      '/api/v2/{company}/forms/{form_id}/tags/get',
      '/files/{key}',
      '/healthz',
      '/metrics',
      '/readyz',
      '/sign/{token}',
      '/sign/{token}/api',
      '/sign/{token}/api/deny',
      '/sign/{token}/api/sign',
      '/sign/{token}/documents/{index}/pages/{page}',
      '/sign/{token}/logo',
      '/v3/api/cases',
      '/v3/api/cases/{id}',
      '/v3/api/cases/{id}/send',
      '/v3/api/documents',
      '/v3/api/documents/{id}',
      '/v3/api/documents/{id}/cases',
      '/v3/api/webflows',
      '/v3/api/webflows/{id}',
      '/v3/company/{company}/file/upload',
      '/v3/company/{company}/file/view-presigned-url',
      '/v3/public/partner/{ref}',
      '/v3/public/partner/{ref}/logo',
    ]);
  });

  it('answers health and readiness over a real socket', async () => {
    const { app } = await composed();
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const health = await fetch(`${address}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await fetch(`${address}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      checks: { redis: { ok: true }, storage: { ok: true } },
    });
  });
});
