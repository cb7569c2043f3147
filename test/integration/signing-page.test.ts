import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { PDFDocument } from 'pdf-lib';
import { PNG } from 'pngjs';
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
  created ??= newCase();
  return created;
}

/** A case of its own (made inside the test that asks), with `logo` as its settings.logo. */
async function newCase(logo?: string): Promise<{ path: string; token: string }> {
  {
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
        ...(logo === undefined ? {} : { settings: { logo } }),
      },
      { publicUrl: PUBLIC },
    );
    const url = new URL(created.recipients[0]!.signingUrl);
    return { path: url.pathname, token: url.pathname.split('/')[2]! };
  }
}

afterAll(async () => {
  await app?.close();
  await client?.close();
  connection?.disconnect();
  await Promise.all([t?.close(), stack?.close()]);
});

describe('a signing link', () => {
  it('opens a page in the case language that loads its script, stylesheet and pad from this service', async () => {
    const { path } = await signingCase();
    expect(path).toMatch(/^\/sign\/[A-Za-z0-9_-]{43}$/);
    const res = await app.inject({ method: 'GET', url: path });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const html = res.body;
    // Escaped, never the raw markup the case was given.
    expect(html).toContain('<title>Lejekontrakt &lt;Nørrebro&gt; &amp; co</title>');
    expect(html).toContain('<h1>Lejekontrakt &lt;Nørrebro&gt; &amp; co</h1>');
    // The company's language, Danish.
    expect(html).toContain('<html lang="da">');
    expect(html).toContain('Siden kræver JavaScript');
    expect([...html.matchAll(/<script src="([^"]+)" defer><\/script>/g)].map((m) => m[1])).toEqual([
      '/sign/assets/signature_pad.js',
      '/sign/assets/signing.js',
    ]);
    expect(html).toContain('<link rel="stylesheet" href="/sign/assets/signing.css">');
    // No inline script or style for the policy to refuse, and nothing about the recipient: the
    // script asks the API for that.
    expect(html).not.toMatch(/<script>|<style|style="|\son[a-z]+=/);
    expect(html).not.toContain('Tenant');
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('serves the page assets with their types, nosniff and a validator', async () => {
    const types: Record<string, string> = {
      'signing.js': 'text/javascript; charset=utf-8',
      'signature_pad.js': 'text/javascript; charset=utf-8',
      'signing.css': 'text/css; charset=utf-8',
    };
    for (const [name, type] of Object.entries(types)) {
      const res = await app.inject({ method: 'GET', url: `/sign/assets/${name}` });
      expect([name, res.statusCode, res.headers['content-type']]).toEqual([name, 200, type]);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.body.length).toBeGreaterThan(1000);
      const again = await app.inject({
        method: 'GET',
        url: `/sign/assets/${name}`,
        headers: { 'if-none-match': String(res.headers.etag) },
      });
      expect(again.statusCode).toBe(304);
    }
    const pad = await app.inject({ method: 'GET', url: '/sign/assets/signature_pad.js' });
    expect(pad.body).toContain('SignaturePad');
    // Its source map is not served, so the script names none.
    expect(pad.body).not.toContain('sourceMappingURL');
    const unknown = await app.inject({ method: 'GET', url: '/sign/assets/../package.json' });
    expect(unknown.statusCode).toBe(404);
    const other = await app.inject({ method: 'GET', url: '/sign/assets/signing.ts' });
    expect(other.statusCode).toBe(404);
  });

  it('shows the thank-you page an eID login comes back to, in Danish or English', async () => {
    const da = await app.inject({ method: 'GET', url: '/sign/done?lang=da' });
    expect(da.statusCode).toBe(200);
    expect(da.body).toContain('<html lang="da">');
    expect(da.body).toContain('Tak for din underskrift');
    const en = await app.inject({ method: 'GET', url: '/sign/done?lang=en' });
    expect(en.body).toContain('Thank you for signing');
    expect(en.headers['content-security-policy']).toContain("script-src 'self'");
    // Without lang, the browser's first language if the page speaks it.
    const browser = await app.inject({
      method: 'GET',
      url: '/sign/done?eid=signed',
      headers: { 'accept-language': 'da-DK,da;q=0.9,en;q=0.8' },
    });
    expect(browser.body).toContain('Tak for din underskrift');
    const cancelled = await app.inject({ method: 'GET', url: '/sign/done?lang=en&eid=cancelled' });
    expect(cancelled.body).toContain('<h1>Signing with eID did not finish</h1>');
    expect(cancelled.body).toContain('The eID login was cancelled.');
    // A word it does not know is no text of its own: the plain thanks.
    const odd = await app.inject({ method: 'GET', url: '/sign/done?lang=en&eid=%3Cb%3E' });
    expect(odd.body).toContain('Thank you for signing');
    expect(odd.body).not.toContain('<b>');
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
    expect(wrong.body).toContain('It may have been used to sign already');
    // No case is known, so the browser's language chooses the words.
    const danish = await app.inject({
      method: 'GET',
      url: `/sign/${'A'.repeat(43)}`,
      headers: { 'accept-language': 'da-DK,da;q=0.9,en;q=0.8' },
    });
    expect(danish.statusCode).toBe(404);
    expect(danish.body).toContain('<h1>Linket virker ikke</h1>');
    const image = await app.inject({
      method: 'GET',
      url: `/sign/${'A'.repeat(43)}/documents/0/pages/1.png`,
    });
    expect(image.statusCode).toBe(404);
    expect(image.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('serves the logo by the type its bytes show, follows a URL of the service by path only, and has none to show without one', async () => {
    const png = new PNG({ width: 4, height: 2 });
    png.data.fill(200);
    const pngBytes = PNG.sync.write(png);
    // A JPEG's first bytes are enough: the route looks at nothing else.
    const jpegBytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]);
    const [withPng, withJpeg, withUrl, without] = await Promise.all([
      newCase(pngBytes.toString('base64')),
      newCase(jpegBytes.toString('base64')),
      newCase(`${PUBLIC}/files/logos/acme.png?expires=1&signature=ab`),
      signingCase(),
    ]);
    const a = await app.inject({ method: 'GET', url: `${withPng.path}/logo` });
    expect([a.statusCode, a.headers['content-type']]).toEqual([200, 'image/png']);
    expect(a.headers['x-content-type-options']).toBe('nosniff');
    expect(a.rawPayload.equals(pngBytes)).toBe(true);
    const b = await app.inject({ method: 'GET', url: `${withJpeg.path}/logo` });
    expect([b.statusCode, b.headers['content-type']]).toEqual([200, 'image/jpeg']);
    const c = await app.inject({ method: 'GET', url: `${withUrl.path}/logo` });
    expect(c.statusCode).toBe(302);
    // The path on whichever of the service's names the page was opened on.
    expect(c.headers.location).toBe('/files/logos/acme.png?expires=1&signature=ab');
    const d = await app.inject({ method: 'GET', url: `${without.path}/logo` });
    expect([d.statusCode, d.headers['content-type']]).toEqual([404, 'text/html; charset=utf-8']);
    const dead = await app.inject({ method: 'GET', url: `/sign/${'A'.repeat(43)}/logo` });
    expect(dead.statusCode).toBe(404);
    expect(dead.body).toContain('<h1>This link does not work</h1>');
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
    expect(doc.paths['/sign/{token}/logo']?.get?.operationId).toBe('signingLogo');
    // The page's own files are not part of the API a caller embeds.
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/sign/assets'))).toEqual([]);
    expect(doc.paths['/sign/done']).toBeUndefined();
  });
});
