import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { PDFDocument } from 'pdf-lib';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import { DocpipeMetrics } from '../../src/base/metrics/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { decodePng } from '../../src/formats/raster/index.js';
import { DocpipeClient } from '../../src/jobs/queue/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { CaseService } from '../../src/service/cases/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import { KeyStore } from '../../src/service/keys/index.js';
import type { HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { buildHttpServer } from '../../src/surfaces/http/server.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';

/**
 * The recipients' signing pages over HTTP as `docpipe serve` composes them: a case created
 * through the real case service (a two-page PDF through the real pipeline, PostgreSQL, Redis and
 * storage), then its signingUrl opened. The server's request log is captured, to prove the token
 * never reaches it.
 */

const PUBLIC = 'http://127.0.0.1:9';
const library = new FolderLibrary(join(projectRoot(), 'templates'));

let t: TestDatabase;
let stack: QueueStack;
let app: HttpApp;
let connection: Redis;
const logLines: string[] = [];
let client: DocpipeClient;
let userId = '';

async function twoPagePdf(): Promise<string> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText('first page');
  doc.addPage([595, 842]).drawText('second page');
  return Buffer.from(await doc.save()).toString('base64');
}

beforeAll(async () => {
  [t, stack] = await Promise.all([testDatabase(), startQueueStack()]);
  await new CompanyRepository(t.db).create({ id: 'acme', name: 'Acme', defaultLanguage: 'da' });
  userId = (
    await new UserRepository(t.db).add('acme', {
      email: 'ann@acme.example',
      name: 'Ann',
    })
  ).id;
  const config = loadConfig({
    DOCPIPE_SIGNING_SECRET: 'a-test-signing-secret-of-32-chars',
    DOCPIPE_QUEUE_PREFIX: `signing-page-${randomUUID()}`,
    DOCPIPE_TEMPLATES_DIR: join(projectRoot(), 'templates'),
  });
  connection = new Redis(stack.url);
  client = await DocpipeClient.connect({
    redisUrl: stack.url,
    prefix: `signing-page-${randomUUID()}`,
    storage: stack.storage,
    noWorkerMs: 100,
  });
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  app = await buildHttpServer({
    config,
    publicUrl: PUBLIC,
    redis: connection,
    redisUrl: stack.url,
    db: t.db,
    keys: new KeyStore({ db: t.db, databaseUrl: t.url }),
    client,
    storage: stack.storage,
    library,
    preparer: new InlinePreparer(),
    metrics: new DocpipeMetrics({ queues: [], processMetrics: false }),
    checks: {},
    queues: [],
    logger: pino({ level: 'info' }, sink),
  });
}, 120_000);

/**
 * The case, created once through a worker lane (a lane belongs to a test, so the first test to
 * ask makes it): its recipient's signing link's path and token.
 */
let created: Promise<{ path: string; token: string }> | undefined;
function signingCase(): Promise<{ path: string; token: string }> {
  created ??= (async () => {
    const lane = await stack.lane();
    const cases = new CaseService({
      db: t.db,
      client: lane.client,
      storage: stack.storage,
      library,
      documentUrl: (key) => `${PUBLIC}/files/${key}`,
    });
    const { case: created } = await cases.createCase(
      'acme',
      { id: 'k1', userId },
      {
        title: 'Lejekontrakt <Nørrebro> & co',
        recipients: [{ name: 'Tenant "T" <b>', email: 'tenant@example.com' }],
        documents: [{ name: 'lease.pdf', content: await twoPagePdf() }],
      },
      { publicUrl: PUBLIC },
    );
    const url = new URL(created.recipients[0]!.signingUrl);
    return { path: url.pathname, token: url.pathname.split('/')[2]! };
  })();
  return created;
}

afterAll(async () => {
  await app?.close();
  await client?.close();
  connection?.disconnect();
  await Promise.all([t?.close(), stack?.close()]);
});

describe('a signing link', () => {
  it('opens a page with the case title, the recipient, their status and one image per page', async () => {
    const { path, token } = await signingCase();
    expect(path).toMatch(/^\/sign\/[A-Za-z0-9_-]{43}$/);
    const res = await app.inject({ method: 'GET', url: path });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("img-src 'self'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    const html = res.body;
    // Escaped, never the raw markup the case was given.
    expect(html).toContain('<h1>Lejekontrakt &lt;Nørrebro&gt; &amp; co</h1>');
    expect(html).toContain('Tenant &quot;T&quot; &lt;b&gt;');
    expect(html).not.toContain('<b>');
    // The company's language, Danish: the status in its words.
    expect(html).toContain('<html lang="da">');
    expect(html).toContain('<dd class="status">Afventer</dd>');
    const images = [...html.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]);
    expect(images).toEqual([
      `${token}/documents/0/pages/1.png`,
      `${token}/documents/0/pages/2.png`,
    ]);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('serves each page as a PNG image', async () => {
    const { path } = await signingCase();
    const res = await app.inject({ method: 'GET', url: `${path}/documents/0/pages/2.png` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('no-store');
    const image = decodePng(res.rawPayload, 'page 2');
    // A4 at 96 dpi: about 794 x 1123 pixels.
    expect(image.width).toBeGreaterThan(700);
    expect(image.width).toBeLessThan(900);
    const past = await app.inject({ method: 'GET', url: `${path}/documents/0/pages/3.png` });
    expect(past.statusCode).toBe(404);
    const otherDocument = await app.inject({
      method: 'GET',
      url: `${path}/documents/1/pages/1.png`,
    });
    expect(otherDocument.statusCode).toBe(404);
  });

  it('answers a wrong and a malformed token with the same 404 page', async () => {
    const wrong = await app.inject({ method: 'GET', url: `/sign/${'A'.repeat(43)}` });
    const malformed = await app.inject({ method: 'GET', url: '/sign/x' });
    expect(wrong.statusCode).toBe(404);
    expect(malformed.statusCode).toBe(404);
    expect(wrong.body).toBe(malformed.body);
    expect(wrong.headers['content-security-policy']).toContain("default-src 'none'");
    expect(wrong.body).toContain('<h1>This link does not work</h1>');
    const image = await app.inject({
      method: 'GET',
      url: `/sign/${'A'.repeat(43)}/documents/0/pages/1.png`,
    });
    expect(image.statusCode).toBe(404);
    expect(image.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('keeps the token out of the log', async () => {
    const { path, token } = await signingCase();
    await app.inject({ method: 'GET', url: path });
    await app.inject({ method: 'GET', url: `${path}/documents/0/pages/2.png` });
    const requests = logLines.filter((l) => l.includes('/sign/'));
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.some((l) => l.includes('/sign/[token]/documents/0/pages/2.png'))).toBe(true);
    expect(logLines.filter((l) => l.includes(token))).toEqual([]);
  });

  it('is described in the OpenAPI document, without a key', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, { get?: { security?: unknown[]; operationId?: string } }>;
    }>();
    expect(doc.paths['/sign/{token}']?.get?.operationId).toBe('signingPage');
    expect(doc.paths['/sign/{token}']?.get?.security).toEqual([]);
    expect(doc.paths['/sign/{token}/documents/{index}/pages/{page}']?.get?.operationId).toBe(
      'signingPageImage',
    );
  });
});
