import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { documentsRoutes } from '../../src/surfaces/http/documents/documents-routes.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * The v3 library endpoints over a real FolderLibrary and the real preparer's field reading: a
 * library built here (so that every count is exact), and the project's own templates.
 */

const preparer = new InlinePreparer();
afterAll(() => preparer.close());

function library(): string {
  const root = testDir('docpipe-http-library-');
  const doc = (id: string, files: Record<string, Buffer | string>) => {
    mkdirSync(join(root, id));
    for (const [name, data] of Object.entries(files)) writeFileSync(join(root, id, name), data);
  };
  doc('alpha', {
    'document.json': JSON.stringify({
      name: 'Alpha',
      description: 'two versions',
      versions: { '1': 'v1.docx', '2': 'v2.docx' },
    }),
    'v1.docx': buildDocx({ body: para('Dear {name}') }),
    'v2.docx': buildDocx({
      body: [para('Dear {name}'), para('{#pets}'), para('{pet} and {name}'), para('{/pets}')].join(
        '',
      ),
    }),
  });
  doc('beta', {
    'document.json': JSON.stringify({ name: 'Beta', delimiters: '{{ }}' }),
    'template.docx': buildDocx({ body: para('{{title}}: {single} stays text') }),
  });
  doc('gamma', {
    'document.json': JSON.stringify({
      name: 'Gamma',
      fields: {
        due: { type: 'date', format: 'D. MMMM YYYY', description: 'when payment is due' },
        lines: {
          type: 'list',
          columns: { amount: { type: 'number', format: '#,##0.00' } },
        },
      },
    }),
    'template.docx': buildDocx({
      body: [para('Due {due}'), para('{#lines}{text}: {amount}{/lines}')].join(''),
    }),
  });
  doc('delta', {
    'document.json': '{"name": "Delta", "timezone": "UTC"}',
    'template.docx': buildDocx({ body: para('{x}') }),
  });
  doc('broken', { 'template.docx': 'not a docx at all' });
  // Globex's own document: no other company's key may see it, or learn that it exists.
  doc('globex-terms', {
    'document.json': JSON.stringify({ name: 'Globex terms', companies: ['globex'] }),
    'template.docx': buildDocx({ body: para('Terms for {name}') }),
  });
  return root;
}

async function appOver(root: string, company = 'acme'): Promise<HttpApp> {
  const app = createHttpApp({ bodyLimit: 1024 * 1024 });
  app.addHook('onRequest', (request, _reply, done) => {
    request.apiKey = { id: 'k1', company, name: 'test' };
    done();
  });
  await app.register(documentsRoutes, { library: new FolderLibrary(root), preparer });
  return app;
}

async function get(app: HttpApp, url: string) {
  const res = await app.inject({ method: 'GET', url });
  return {
    status: res.statusCode,
    body: res.json<Record<string, unknown>>(),
    headers: res.headers,
  };
}

describe('GET /v3/api/documents', () => {
  it('lists every library document with its versions', async () => {
    const app = await appOver(library());
    const res = await get(app, '/v3/api/documents');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      documents: [
        {
          id: 'alpha',
          name: 'Alpha',
          description: 'two versions',
          versions: ['1', '2'],
          currentVersion: '2',
        },
        { id: 'beta', name: 'Beta', versions: ['1'], currentVersion: '1' },
        { id: 'broken', name: 'broken', versions: ['1'], currentVersion: '1' },
        // delta's document.json is wrong: it cannot be offered (GET names the problem).
        { id: 'gamma', name: 'Gamma', versions: ['1'], currentVersion: '1' },
      ],
    });
  });

  it("lists a company's own documents to its keys only, with the shared ones", async () => {
    const root = library();
    const ids = async (company: string) =>
      (
        (await get(await appOver(root, company), '/v3/api/documents')).body.documents as {
          id: string;
        }[]
      ).map((d) => d.id);
    expect(await ids('globex')).toEqual(['alpha', 'beta', 'broken', 'gamma', 'globex-terms']);
    expect(await ids('acme')).toEqual(['alpha', 'beta', 'broken', 'gamma']);
  });

  it('refuses every unknown query parameter by name', async () => {
    const app = await appOver(library());
    const res = await get(app, '/v3/api/documents?limit=10&folder=x');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'validation-failed',
      details: [
        { field: 'limit', message: 'unknown field' },
        { field: 'folder', message: 'unknown field' },
      ],
    });
  });
});

describe('GET /v3/api/documents/{id}', () => {
  it("answers the current version's fields: tag, kind, count and the sections around them", async () => {
    const app = await appOver(library());
    const res = await get(app, '/v3/api/documents/alpha');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      document: {
        id: 'alpha',
        name: 'Alpha',
        description: 'two versions',
        versions: ['1', '2'],
        currentVersion: '2',
        fields: [
          { tag: 'name', kind: 'placeholder', count: 2, within: [] },
          {
            tag: 'pets',
            kind: 'section',
            count: 1,
            within: [],
            inner: [
              { tag: 'pet', kind: 'placeholder', count: 1 },
              { tag: 'name', kind: 'placeholder', count: 1 },
            ],
          },
          { tag: 'pet', kind: 'placeholder', count: 1, within: ['pets'] },
        ],
      },
    });
  });

  it("reads fields with the document's own delimiters", async () => {
    const app = await appOver(library());
    const res = await get(app, '/v3/api/documents/beta');
    expect(res.status).toBe(200);
    expect((res.body.document as { fields: unknown }).fields).toEqual([
      { tag: 'title', kind: 'placeholder', count: 1, within: [] },
    ]);
  });

  it("gives each field the type, format and description its document.json declares, and a list's columns", async () => {
    const app = await appOver(library());
    const res = await get(app, '/v3/api/documents/gamma');
    expect(res.status).toBe(200);
    expect((res.body.document as { fields: unknown }).fields).toEqual([
      {
        tag: 'due',
        kind: 'placeholder',
        count: 1,
        within: [],
        type: 'date',
        format: 'D. MMMM YYYY',
        description: 'when payment is due',
      },
      {
        tag: 'lines',
        kind: 'section',
        count: 1,
        within: [],
        type: 'list',
        inner: [
          { tag: 'text', kind: 'placeholder', count: 1 },
          {
            tag: 'amount',
            kind: 'placeholder',
            count: 1,
            path: 'lines[].amount',
            type: 'number',
            format: '#,##0.00',
          },
        ],
      },
      // Not a column of lines: its value comes from outside the list, as it renders. The
      // column amount is listed under lines only.
      { tag: 'text', kind: 'placeholder', count: 1, within: ['lines'] },
    ]);
  });

  it("lists each library document's list columns under their list only, every top-level field typed", async () => {
    const app = await appOver(join(projectRoot(), 'templates'));
    for (const id of ['quote', 'bestyrelsesbeslutning', 'tenancy-agreement']) {
      const res = await get(app, `/v3/api/documents/${id}`);
      expect(res.status).toBe(200);
      const fields = (
        res.body.document as {
          fields: { tag: string; type?: string; inner?: { path?: string; type?: string }[] }[];
        }
      ).fields;
      // document.json declares every field the library uses: a top-level field without a type
      // is a column shown out of its list.
      expect(fields.filter((f) => f.type === undefined).map((f) => `${id}: ${f.tag}`)).toEqual([]);
      const columns = fields
        .filter((f) => f.type === 'list')
        .flatMap((f) => f.inner ?? [])
        .filter((c) => c.path !== undefined);
      expect(columns.length).toBeGreaterThanOrEqual(2);
      for (const c of columns) expect(c.type, `${id}: ${c.path}`).toBeDefined();
    }
  });

  it('answers document-production-failed for a document whose document.json is wrong, saying what', async () => {
    const app = await appOver(library());
    const res = await get(app, '/v3/api/documents/delta');
    expect(res.body).toEqual({
      error: 'document-production-failed',
      details: [
        {
          field: 'id',
          message:
            'document "delta" has a broken document.json: timezone: unknown member (did you mean "timeZone"?)',
        },
      ],
    });
    expect(res.status).toBe(400);
  });

  it('answers 404 document-not-found for an absent document, naming the id', async () => {
    const app = await appOver(library());
    for (const id of ['nope', '..%2F..%2Fetc', 'Alpha']) {
      const res = await get(app, `/v3/api/documents/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        error: 'document-not-found',
        details: [
          { field: 'id', message: expect.stringMatching(/^no document ".+" in the library$/) },
        ],
      });
    }
  });

  it("answers another company's document exactly as an absent one", async () => {
    const root = library();
    const own = await get(await appOver(root, 'globex'), '/v3/api/documents/globex-terms');
    expect(own.status).toBe(200);
    expect((own.body.document as { name: string }).name).toBe('Globex terms');
    const other = await get(await appOver(root, 'acme'), '/v3/api/documents/globex-terms');
    const absent = await get(await appOver(root, 'acme'), '/v3/api/documents/globex-termz');
    expect(other.status).toBe(404);
    expect(other.body).toEqual({
      error: 'document-not-found',
      details: [{ field: 'id', message: 'no document "globex-terms" in the library' }],
    });
    expect(JSON.stringify(other.body).replace('terms', 'termz')).toBe(JSON.stringify(absent.body));
  });

  it('refuses a query parameter on one document too', async () => {
    const app = await appOver(library());
    const res = await get(app, '/v3/api/documents/alpha?versionId=1');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'validation-failed',
      details: [{ field: 'versionId', message: 'unknown field' }],
    });
  });

  it("answers a library document that is no template 500 with its failure: the service's fault", async () => {
    const app = await appOver(library());
    const res = await app.inject({
      method: 'GET',
      url: '/v3/api/documents/broken',
      headers: { 'x-request-id': 'req-broken' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.headers['x-request-id']).toBe('req-broken');
    const body = res.json<{ error: string; details: { field: string }[] }>();
    expect(body.error).toBe('unsupported-file-type');
    expect(body.details).toHaveLength(1);
  });

  it('says how many signers a library contract has places for, and who signs as each recipient', async () => {
    const app = await appOver(join(projectRoot(), 'templates'));
    const nda = await get(app, '/v3/api/documents/nda');
    expect(nda.status).toBe(200);
    expect(nda.body.document).toMatchObject({
      signers: 2,
      signerRoles: [
        { role: 'the Company’s signatory', name: 'company_signatory_name' },
        { role: 'the Counterparty’s signatory', name: 'counterparty_signatory_name' },
      ],
    });
    // The tenants are a list's rows: they sign after the landlord, without places.
    const tenancy = await get(app, '/v3/api/documents/tenancy-agreement');
    expect(tenancy.body.document).toMatchObject({
      signers: 1,
      signerRoles: [
        { role: 'the landlord', name: 'landlord_name' },
        { role: 'each tenant, in list order', name: 'name', list: 'tenants' },
      ],
    });
    const list = await get(app, '/v3/api/documents');
    const counts = Object.fromEntries(
      (list.body.documents as { id: string; signers?: number }[]).map((d) => [d.id, d.signers]),
    );
    expect(counts).toMatchObject({
      ansaettelseskontrakt: 2,
      bestyrelsesbeslutning: 0,
      koebsaftale: 2,
      nda: 2,
      'power-of-attorney': 2,
      quote: 2,
      samtykkeerklaering: 1,
      'tenancy-agreement': 1,
    });
    // A document whose document.json does not say has no count, rather than a wrong one.
    expect(counts).toHaveProperty('lease', undefined);
  });

  it("answers the project's lease with every field its fixture fills", async () => {
    const app = await appOver(join(projectRoot(), 'templates'));
    const res = await get(app, '/v3/api/documents/lease');
    expect(res.status).toBe(200);
    const fields = (res.body.document as { fields: { tag: string }[] }).fields.map((f) => f.tag);
    const fixture = JSON.parse(
      readFileSync(join(projectRoot(), 'templates/lease/fixtures/basic.tags.json'), 'utf8'),
    ) as { tag: string }[];
    expect(fixture).toHaveLength(17);
    for (const t of fixture) expect(fields).toContain(t.tag);
  });
});

describe('the library endpoints over a real socket', () => {
  let app: HttpApp;
  let base: string;
  beforeAll(async () => {
    app = await appOver(join(projectRoot(), 'templates'));
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('lists, reads one and answers 404 as inject does', async () => {
    const list = await fetch(`${base}/v3/api/documents`);
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toMatch(/^application\/json/);
    const ids = ((await list.json()) as { documents: { id: string }[] }).documents.map((d) => d.id);
    const templates = join(projectRoot(), 'templates');
    const folders = readdirSync(templates)
      .filter((id) => existsSync(join(templates, id, 'template.docx')))
      .sort();
    expect(folders.length).toBeGreaterThanOrEqual(10);
    expect(ids).toEqual(folders);
    const one = await fetch(`${base}/v3/api/documents/welcome-letter`);
    expect(one.status).toBe(200);
    const doc = ((await one.json()) as { document: { id: string; fields: unknown[] } }).document;
    expect(doc.id).toBe('welcome-letter');
    expect(doc.fields.length).toBeGreaterThan(0);
    const missing = await fetch(`${base}/v3/api/documents/nope`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: string }).error).toBe('document-not-found');
  });
});
