import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { registerOpenApi } from '../../src/surfaces/http/common/openapi.js';
import {
  databaseReady,
  officePoolReady,
  redisReady,
  storageWritable,
} from '../../src/surfaces/http/operations/readiness-checks.js';
import { dashboardRoutes } from '../../src/surfaces/http/operations/dashboard-routes.js';
import {
  healthRoutes,
  type HealthRoutesOptions,
} from '../../src/surfaces/http/operations/health-routes.js';
import {
  metricsRoutes,
  observeHttpRequests,
} from '../../src/surfaces/http/operations/metrics-routes.js';
import { DocpipeMetrics } from '../../src/base/metrics/index.js';
import { EmbeddedRedis, createRedis } from '../../src/platform/redis/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import { testDatabase } from '../helpers/postgres.js';
import { testDir } from '../helpers/test-dir.js';

const PASSWORD = 'correct horse battery';
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const ADMIN = basic('admin', PASSWORD);

let redis: RedisOnly;
beforeAll(async () => {
  redis = await startRedisOnly();
});
afterAll(async () => {
  await redis.close();
});

/** An app as the server builds one, closed when the test ends. */
function app(): HttpApp {
  const built = createHttpApp({ bodyLimit: 1024 * 1024 });
  onTestFinished(() => built.close());
  return built;
}

/** A producer-role connection: fails at once while Redis is down rather than queueing. */
async function producer(url: string) {
  const connection = createRedis(url, 'producer');
  onTestFinished(() => connection.disconnect());
  await connection.connect();
  return connection;
}

const warmPool = () => ({ processes: 2, ready: 2, busy: 1, waiting: 0 });

async function healthApp(checks: HealthRoutesOptions['checks'], checkTimeoutMs?: number) {
  const a = app();
  await a.register(healthRoutes, { checks, checkTimeoutMs });
  return a;
}

describe('/healthz', () => {
  it('answers 200 {status: ok} whatever the checks say', async () => {
    const a = await healthApp({ redis: () => Promise.reject(new Error('down')) });
    const res = await a.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});

describe('/readyz', () => {
  it('is ready when Redis answers, the pool has a warm process and storage takes a write', async () => {
    const root = testDir('docpipe-ops-');
    const storage = new LocalStorage(root);
    const a = await healthApp({
      redis: redisReady(await producer(redis.url)),
      office: officePoolReady(warmPool),
      storage: storageWritable(storage),
    });
    const res = await a.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ status: string; checks: Record<string, Record<string, unknown>> }>();
    expect(body.status).toBe('ready');
    expect(Object.keys(body.checks)).toEqual(['redis', 'office', 'storage']);
    expect(body.checks.redis).toEqual({ ok: true, ms: expect.any(Number) });
    expect(body.checks.office).toEqual({
      ok: true,
      ms: expect.any(Number),
      details: { processes: 2, ready: 2, busy: 1, waiting: 0 },
    });
    expect(body.checks.storage).toEqual({ ok: true, ms: expect.any(Number) });
    // The probe leaves nothing behind.
    const left = readdirSync(root, { recursive: true }).map(String);
    expect(left.filter((f) => !statSync(join(root, f)).isDirectory())).toEqual([]);
  });

  it('checks PostgreSQL with a query, and names a database that does not answer by its code only', async () => {
    const t = await testDatabase({ migrated: false });
    onTestFinished(() => t.close());
    const ready = await healthApp({ database: databaseReady(t.db) });
    const up = await ready.inject({ method: 'GET', url: '/readyz' });
    expect(up.statusCode).toBe(200);
    expect(up.json<{ checks: unknown }>().checks).toEqual({
      database: { ok: true, ms: expect.any(Number) },
    });
    // A database that does not exist on that server: refused by PostgreSQL (3D000).
    const url = t.url.replace(t.name, 'docpipe_no_such_database');
    expect(url).not.toBe(t.url);
    const gone = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
    });
    onTestFinished(() => gone.destroy());
    const down = await (
      await healthApp({ database: databaseReady(gone) })
    ).inject({
      method: 'GET',
      url: '/readyz',
    });
    expect(down.statusCode).toBe(503);
    const check = down.json<{ checks: { database: { ok: boolean; message: string } } }>().checks
      .database;
    expect(check.ok).toBe(false);
    expect(check.message).toBe(
      'PostgreSQL did not answer (3D000): keys, companies and cases cannot be read',
    );
  });

  it('is 503 naming each failed check: storage under a file, no warm office process', async () => {
    const dir = testDir('docpipe-ops-');
    writeFileSync(join(dir, 'file'), 'not a folder');
    const a = await healthApp({
      redis: redisReady(await producer(redis.url)),
      office: officePoolReady(() => ({ processes: 3, ready: 0, busy: 0, waiting: 4 })),
      storage: storageWritable(new LocalStorage(join(dir, 'file', 'storage'))),
    });
    const res = await a.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    const body = res.json<{ status: string; checks: Record<string, Record<string, unknown>> }>();
    expect(body.status).toBe('not-ready');
    expect(body.checks.redis).toEqual({ ok: true, ms: expect.any(Number) });
    expect(body.checks.office).toEqual({
      ok: false,
      ms: expect.any(Number),
      message:
        'no office process is ready (0 of 3); they are starting, or failing to start: see the log',
    });
    expect(body.checks.storage!.ok).toBe(false);
    // The code says what is wrong; the server's paths stay out of an answer anyone may read.
    expect(body.checks.storage!.message).toBe('storage refused a write (ENOTDIR)');
  });

  it('is 503 when Redis is gone, and when a check does not answer in time', async () => {
    const gone = await EmbeddedRedis.start({ dir: join(redis.dir, 'gone-redis') });
    const connection = await producer(gone.url);
    await gone.stop();
    const a = await healthApp(
      {
        redis: redisReady(connection),
        slow: () => new Promise(() => undefined),
        thrown: () => {
          throw new Error('thrown at once');
        },
      },
      300,
    );
    const res = await a.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    const { checks } = res.json<{
      checks: Record<string, { ok: boolean; message?: string; ms: number }>;
    }>();
    expect(checks.redis!.ok).toBe(false);
    expect(checks.redis!.message).toMatch(/writeable|closed|ECONNREFUSED|Connection/i);
    expect(checks.slow).toEqual({
      ok: false,
      ms: expect.any(Number),
      message: 'no answer within 300 ms',
    });
    expect(checks.slow!.ms).toBeGreaterThanOrEqual(299);
    expect(checks.thrown).toEqual({ ok: false, ms: expect.any(Number), message: 'thrown at once' });
  });
});

async function metricsApp(adminPassword: string | undefined, metrics = new DocpipeMetrics()) {
  const a = app();
  observeHttpRequests(a, metrics);
  await a.register(metricsRoutes, { metrics, adminPassword });
  await a.register(healthRoutes, { checks: {} });
  a.get('/things/:id', () => ({ ok: true }));
  return { a, metrics };
}

describe('/metrics', () => {
  it('needs the admin credential when an admin password is set', async () => {
    const { a } = await metricsApp(PASSWORD);
    for (const authorization of [
      undefined,
      basic('admin', 'wrong password!'),
      basic('root', PASSWORD),
      'Bearer x',
    ]) {
      const res = await a.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Basic realm="docpipe admin", charset="UTF-8"');
      expect(res.json<{ message: string }>().message).toMatch(/DOCPIPE_ADMIN_PASSWORD/);
    }
    const ok = await a.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: ADMIN },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(ok.body).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it('answers only this machine when no admin password is set', async () => {
    const { a } = await metricsApp(undefined);
    const local = await a.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(local.statusCode).toBe(200);
    const v6 = await a.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' });
    expect(v6.statusCode).toBe(200);
    const far = await a.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.9',
      // A forwarded-for header is whatever a caller wrote: it opens nothing.
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(far.statusCode).toBe(403);
    expect(far.json()).toEqual({
      message:
        '/metrics answers only this machine while no admin password is set; set DOCPIPE_ADMIN_PASSWORD (12 characters or more) to scrape it from elsewhere with HTTP Basic, user "admin"',
    });
  });

  it('counts requests by route pattern and status, never by URL', async () => {
    const { a } = await metricsApp(PASSWORD);
    await a.inject({ method: 'GET', url: '/things/contract-ACME-2024-17' });
    await a.inject({ method: 'GET', url: '/things/other-id' });
    await a.inject({ method: 'GET', url: '/nowhere/secret-company' });
    await a.inject({ method: 'GET', url: '/readyz' });
    const text = (
      await a.inject({ method: 'GET', url: '/metrics', headers: { authorization: ADMIN } })
    ).body;
    expect(text).toContain(
      'docpipe_http_requests_total{method="GET",route="/things/:id",status="200"} 2',
    );
    expect(text).toContain(
      'docpipe_http_requests_total{method="GET",route="unmatched",status="404"} 1',
    );
    expect(text).toContain(
      'docpipe_http_requests_total{method="GET",route="/readyz",status="200"} 1',
    );
    expect(text).not.toMatch(/ACME|other-id|secret-company/);
  });

  it("reads jobs by state from BullMQ's own counts at scrape time", async () => {
    const lane = await redis.lane();
    const documents = new Queue('documents', { connection: lane.connection, prefix: lane.prefix });
    onTestFinished(() => documents.close());
    await documents.add('document', { n: 1 });
    await documents.add('document', { n: 2 });
    await documents.add('document', { n: 3 }, { delay: 60_000 });
    const { a } = await metricsApp(PASSWORD, new DocpipeMetrics({ queues: [documents] }));
    const text = (
      await a.inject({ method: 'GET', url: '/metrics', headers: { authorization: ADMIN } })
    ).body;
    expect(text).toContain('docpipe_jobs{queue="documents",state="waiting"} 2');
    expect(text).toContain('docpipe_jobs{queue="documents",state="delayed"} 1');
    expect(text).toContain('docpipe_jobs{queue="documents",state="completed"} 0');
    expect(text).toContain('docpipe_queue_up 1');
  });
});

describe('over a real socket', () => {
  it('answers /healthz, /readyz and /metrics', async () => {
    const metrics = new DocpipeMetrics();
    const a = app();
    observeHttpRequests(a, metrics);
    await a.register(healthRoutes, { checks: { redis: redisReady(await producer(redis.url)) } });
    await a.register(metricsRoutes, { metrics, adminPassword: PASSWORD });
    const base = await a.listen({ port: 0, host: '127.0.0.1' });
    const health = await fetch(`${base}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { redis: { ok: true, ms: expect.any(Number) } },
    });
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const scraped = await fetch(`${base}/metrics`, { headers: { authorization: ADMIN } });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await scraped.text();
    expect(text).toContain(
      'docpipe_http_requests_total{method="GET",route="/healthz",status="200"} 1',
    );
    expect(text).toContain(
      'docpipe_http_requests_total{method="GET",route="/metrics",status="401"} 1',
    );
  });
});

describe('the dashboard over inject', () => {
  it('is not mounted without an admin password: 404 saying how to turn it on', async () => {
    const a = app();
    await a.register(dashboardRoutes, { adminPassword: undefined, queues: [] });
    for (const url of ['/admin/queues', '/admin/queues/api/queues']) {
      const res = await a.inject({ method: 'GET', url, headers: { authorization: ADMIN } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        message:
          'the queue dashboard is off: set DOCPIPE_ADMIN_PASSWORD (12 characters or more) and restart docpipe to serve it at /admin/queues (HTTP Basic, user "admin")',
      });
    }
  });

  it('asks for the credential on every page and call, and refuses changes (read-only)', async () => {
    const lane = await redis.lane();
    const documents = new Queue('documents', { connection: lane.connection, prefix: lane.prefix });
    onTestFinished(() => documents.close());
    await documents.add('document', { n: 1 });
    const a = app();
    await a.register(dashboardRoutes, { adminPassword: PASSWORD, queues: [documents] });
    for (const url of [
      '/admin/queues',
      '/admin/queues/api/queues',
      '/admin/queues/static/favicon-32x32.png',
    ]) {
      const res = await a.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Basic realm="docpipe admin", charset="UTF-8"');
    }
    const page = await a.inject({
      method: 'GET',
      url: '/admin/queues',
      headers: { authorization: ADMIN },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const list = await a.inject({
      method: 'GET',
      url: '/admin/queues/api/queues',
      headers: { authorization: ADMIN },
    });
    expect(list.statusCode).toBe(200);
    const queues = list.json<{ queues: { name: string; readOnlyMode: boolean }[] }>().queues;
    expect(queues.map((q) => [q.name, q.readOnlyMode])).toEqual([['documents', true]]);
    const pause = await a.inject({
      method: 'PUT',
      url: '/admin/queues/api/queues/documents/pause',
      headers: { authorization: ADMIN },
    });
    expect(pause.statusCode).toBe(405);
    expect(await documents.isPaused()).toBe(false);
  });
});

describe('OpenAPI', () => {
  it('describes health, readiness and metrics with tags and every status; the board stays out', async () => {
    const a = app();
    await registerOpenApi(a, 'http://127.0.0.1:8080');
    await a.register(healthRoutes, { checks: {} });
    await a.register(metricsRoutes, { metrics: new DocpipeMetrics(), adminPassword: PASSWORD });
    await a.register(dashboardRoutes, { adminPassword: undefined, queues: [] });
    await a.ready();
    const doc = a.swagger() as unknown as {
      paths: Record<
        string,
        Record<
          string,
          {
            tags: string[];
            summary: string;
            responses: Record<string, { content?: Record<string, unknown> }>;
          }
        >
      >;
    };
    expect(Object.keys(doc.paths).sort()).toEqual(['/healthz', '/metrics', '/readyz']);
    const ops = (path: string) => doc.paths[path]!.get!;
    expect(Object.keys(ops('/healthz').responses).sort()).toEqual(['200', '431', '500']);
    expect(Object.keys(ops('/readyz').responses).sort()).toEqual(['200', '431', '500', '503']);
    expect(Object.keys(ops('/metrics').responses).sort()).toEqual([
      '200',
      '401',
      '403',
      '429',
      '500',
    ]);
    expect(Object.keys(ops('/metrics').responses['200']!.content!)).toEqual([
      'text/plain; version=0.0.4; charset=utf-8',
    ]);
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      expect(ops(path).tags).toEqual(['operations']);
      expect(ops(path).summary).toMatch(/\w/);
    }
  });
});
