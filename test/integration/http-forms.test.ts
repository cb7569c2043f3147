import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ensureCprKeyFile, loadConfig, readCprKeyFile } from '../../src/app/config/index.js';
import { DocpipeMetrics } from '../../src/base/metrics/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import { CprCipher } from '../../src/service/cpr/index.js';
import { importForm } from '../../src/service/forms/index.js';
import { KeyStore } from '../../src/service/keys/index.js';
import type { HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { buildHttpServer } from '../../src/surfaces/http/server.js';
import { leaseFormFolder } from '../fixtures/forms/form-folder.js';
import { pdfText } from '../helpers/pdf-text.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';

/**
 * The v2 forms over HTTP as `docpipe serve` composes them, with a real worker and LibreOffice:
 * the lease form imported for acme (a .docx with three tags, two of them defaulted, and a PDF;
 * a preset recipient), read and submitted under spec 3's state rules; CPR numbers stored only as
 * ciphertext; and for every refusal, that nothing was written (rows and storage). Another
 * company's form is never seen, whatever the path.
 */

const PUBLIC = 'http://docpipe.test';
const CPR_KEY = randomBytes(32);
const CPR = '010190-1234';
/**
 * An eID broker that gives the CPR number, for the servers whose cases have a `needsCpr`
 * recipient: only an eID can check that number. Creating a case never asks the broker.
 */
const CPR_EID = {
  DOCPIPE_EID_ISSUER: 'http://127.0.0.1:9',
  DOCPIPE_EID_CLIENT_ID: 'docpipe',
  DOCPIPE_EID_CLIENT_SECRET: 'a-client-secret',
  DOCPIPE_EID_SCHEMES: 'urn:grn:authn:dk:mitid:substantial',
  DOCPIPE_EID_CPR_CLAIM: 'cprNumberIdentifier',
};

let t: TestDatabase;
let stack: QueueStack;
let dir: string;
let keys: KeyStore;
/** The data folder of the last server made. */
let lastDataDir = '';
const key: Record<'acme' | 'globex', string> = { acme: '', globex: '' };

beforeAll(async () => {
  [t, stack] = await Promise.all([testDatabase(), startQueueStack()]);
  dir = mkdtempSync(join(tmpdir(), 'http-forms-'));
  keys = new KeyStore({ db: t.db, databaseUrl: t.url });
  for (const company of ['acme', 'globex'] as const) {
    await new CompanyRepository(t.db).create({ id: company, name: `Company ${company}` });
    const user = await new UserRepository(t.db).add(company, {
      email: `owner@${company}.example`,
      name: 'Owner',
    });
    key[company] = (await keys.create({ company, user: user.email, name: 'test' })).key;
  }
  const config = loadConfig({});
  const deps = {
    db: t.db,
    storage: stack.storage,
    limits: config.limits,
    delimiters: config.delimiters,
  };
  mkdirSync(join(dir, 'acme'));
  await importForm(deps, 'acme', await leaseFormFolder(join(dir, 'acme')));
  await importForm(
    deps,
    'acme',
    await leaseFormFolder(join(dir, 'acme'), {
      name: 'old-lease',
      edit: (f) => (f.active = false),
    }),
  );
  mkdirSync(join(dir, 'globex'));
  await importForm(
    deps,
    'globex',
    await leaseFormFolder(join(dir, 'globex'), {
      name: 'globex-lease',
      edit: (f) => (f.title = 'Globex lease'),
    }),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all([t?.close(), stack?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * The composed server on a lane of the test's own, with a worker. Its CPR key: DOCPIPE_CPR_KEY
 * (a key), none (false), or the key file `docpipe start` keeps in the data folder ('file').
 */
async function server(
  cprKey: Buffer | false | 'file' = CPR_KEY,
  env: Record<string, string> = {},
): Promise<HttpApp> {
  const lane = await stack.lane();
  const dataDir = mkdtempSync(join(dir, 'data-'));
  lastDataDir = dataDir;
  if (cprKey === 'file') await ensureCprKeyFile(dataDir);
  const config = loadConfig({
    DOCPIPE_SIGNING_SECRET: 'a-test-signing-secret-of-32-chars',
    DOCPIPE_QUEUE_PREFIX: lane.prefix,
    DOCPIPE_TEMPLATES_DIR: join(projectRoot(), 'templates'),
    DOCPIPE_DATA_DIR: dataDir,
    ...(Buffer.isBuffer(cprKey) ? { DOCPIPE_CPR_KEY: cprKey.toString('base64') } : {}),
    ...env,
  });
  const app = await buildHttpServer({
    config,
    publicUrl: PUBLIC,
    redis: lane.connection,
    redisUrl: stack.url,
    db: t.db,
    keys,
    client: lane.client,
    storage: stack.storage,
    library: new FolderLibrary(config.templatesDir),
    preparer: new InlinePreparer(),
    metrics: new DocpipeMetrics({ queues: [], processMetrics: false }),
    checks: {},
    queues: [],
  });
  onTestFinished(() => app.close());
  return app;
}

type Company = keyof typeof key;

async function call(
  app: HttpApp,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  company: Company = 'acme',
) {
  const res = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${key[company]}` },
    ...(body !== undefined ? { payload: body as object } : {}),
  });
  return { status: res.statusCode, json: res.json<Record<string, unknown>>(), text: res.body };
}

const submit = (app: HttpApp, body: unknown, form = 'lease', company: Company = 'acme') =>
  call(app, 'POST', `/api/v2/${company}/forms/${form}/submit`, body, company);

/** Every row a case leaves and every stored object: a 4xx must leave them as they were. */
async function footprint() {
  const counts: Record<string, number> = {};
  for (const table of ['cases', 'recipients', 'case_documents', 'case_events', 'forms'] as const) {
    const row = await t.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  const stored: string[] = [];
  for (const prefix of ['cases/', 'renders/', 'forms/'])
    for await (const o of stack.storage.list(prefix)) stored.push(o.key);
  return { counts, stored: stored.sort() };
}

/** Runs `act` and checks that it wrote nothing. */
async function nothingWritten<T>(act: () => Promise<T>): Promise<T> {
  const before = await footprint();
  const out = await act();
  expect(await footprint()).toEqual(before);
  return out;
}

const tenant = { tag: 'tenant', value: 'Ann Tenant', type: 'text' };
const ann = { name: 'Ann Tenant', email: 'ann@tenant.example', signing: true };

async function caseRows(id: string) {
  const row = await t.db
    .selectFrom('cases')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const recipients = await t.db
    .selectFrom('recipients')
    .selectAll()
    .where('case_id', '=', id)
    .orderBy('position')
    .execute();
  const documents = await t.db
    .selectFrom('case_documents')
    .selectAll()
    .where('case_id', '=', id)
    .orderBy('index')
    .execute();
  return { row, recipients, documents };
}

describe('GET a form and its tags', () => {
  it('answers the Form of spec 2.1, without storage internals', async () => {
    const app = await server();
    const { status, json, text } = await call(app, 'GET', '/api/v2/acme/forms/lease/get');
    expect(status).toBe(200);
    expect(json).toEqual({
      _id: 'lease',
      companyId: 'acme',
      folder: 'Default',
      active: true,
      title: 'Lease agreement',
      settings: { lang: 'en', reminders: { send: true, amount: 2, daysBetween: 3 } },
      tags: [
        { _id: 't-tenant', name: 'Tenant', tag: 'tenant', value: null, type: 'text' },
        { _id: 't-rent', name: 'Monthly rent', tag: 'rent', value: 1200, type: 'number' },
        { _id: 't-start', name: 'Start date', tag: 'start', value: '2026-01-01', type: 'date' },
      ],
      recipients: [{ name: 'Acme office', email: 'office@acme.example', signing: false }],
      documents: [
        { name: 'Lease', type: 'docx', documentMustBeRead: true },
        { name: 'Terms', type: 'pdf' },
      ],
      createdAt: expect.any(String) as string,
      updatedAt: expect.any(String) as string,
    });
    expect(text).not.toMatch(/forms\/|storageKey|sha256|lease\.docx/);
  });

  it('answers its TagDefinitions', async () => {
    const app = await server();
    const { status, json } = await call(app, 'GET', '/api/v2/acme/forms/lease/tags/get');
    expect(status).toBe(200);
    expect((json as unknown as { tag: string }[]).map((d) => d.tag)).toEqual([
      'tenant',
      'rent',
      'start',
    ]);
  });

  it('never shows another company’s form: Form not found, or Invalid company id', async () => {
    const app = await server();
    const notFound = { code: 400, message: 'Bad Request', description: 'Form not found' };
    for (const path of ['get', 'tags/get']) {
      // globex's key, globex's path, acme's form id: absent for globex.
      const other = await call(
        app,
        'GET',
        `/api/v2/globex/forms/lease/${path}`,
        undefined,
        'globex',
      );
      expect([other.status, other.json]).toEqual([400, notFound]);
      const unknown = await call(app, 'GET', `/api/v2/acme/forms/nope/${path}`);
      expect([unknown.status, unknown.json]).toEqual([400, notFound]);
      // globex's key on acme's path.
      const path2 = await call(app, 'GET', `/api/v2/acme/forms/lease/${path}`, undefined, 'globex');
      expect(path2.status).toBe(400);
      expect(path2.json).toMatchObject({ description: 'Invalid company id' });
    }
    const own = await call(
      app,
      'GET',
      '/api/v2/globex/forms/globex-lease/get',
      undefined,
      'globex',
    );
    expect(own.json).toMatchObject({
      _id: 'globex-lease',
      companyId: 'globex',
      title: 'Globex lease',
    });
  });

  it('answers No ID provided for a blank form id', async () => {
    const app = await server();
    const noId = { message: 'Bad request', errors: ['No ID provided'] };
    for (const [method, url] of [
      ['GET', '/api/v2/acme/forms/%20/get'],
      ['GET', '/api/v2/acme/forms/%20/tags/get'],
      ['POST', '/api/v2/acme/forms/%20/submit'],
      ['GET', '/api/v2/acme/forms//get'],
      ['POST', '/api/v2/acme/forms//submit'],
    ] as const) {
      const r = await nothingWritten(() =>
        call(app, method, url, method === 'POST' ? { tags: [], recipients: [] } : undefined),
      );
      expect([r.status, r.json], url).toEqual([400, noId]);
    }
  });
});

describe('POST .../submit', () => {
  it('open (state omitted): the templates filled with the tags and defaults, sent, each recipient a url', async () => {
    const app = await server();
    const { status, json } = await submit(app, {
      tags: [tenant],
      recipients: [{ ...ann, redirectUrl: 'https://acme.example/thanks' }],
    });
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.status).toBe('OK');
    expect(json.message).toBe('Contract created and sent');
    const contract = json.contract as Record<string, unknown> & {
      recipients: Record<string, unknown>[];
    };
    expect(contract).toMatchObject({ title: 'Lease agreement', folder: 'Default' });
    expect(contract.state).toBeUndefined();
    expect(contract.recipients).toHaveLength(2);
    expect(contract.recipients[0]).toMatchObject({
      name: 'Ann Tenant',
      redirectUrl: 'https://acme.example/thanks',
      signed: 'pending',
      url: expect.stringMatching(new RegExp(`^${PUBLIC}/sign/`)) as string,
    });
    expect(contract.recipients[1]).toMatchObject({ name: 'Acme office', url: expect.any(String) });
    for (const r of contract.recipients) expect(r.signingToken).toBeUndefined();

    const { row, recipients, documents } = await caseRows(contract._id as string);
    expect(row.state).toBe('open');
    expect(row.company_id).toBe('acme');
    expect(row.settings).toMatchObject({ autoSend: true });
    expect(recipients.map((r) => [r.name, r.signing, r.cpr_encrypted])).toEqual([
      ['Ann Tenant', true, null],
      ['Acme office', false, null],
    ]);
    expect(documents.map((d) => d.name)).toEqual(['Lease', 'Terms']);
    const lease = pdfText((await stack.storage.get(documents[0]!.storage_key!))!);
    expect(lease).toContain('Lease for Ann Tenant');
    expect(lease).not.toMatch(/[{}]/);
  });

  it('draft: not sent, "Contract created", no url, state draft', async () => {
    const app = await server();
    const { status, json } = await submit(app, {
      state: 'draft',
      title: 'Draft lease',
      tags: [tenant, { tag: 'rent', value: 999, type: 'number' }],
      recipients: [ann],
    });
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.message).toBe('Contract created');
    const contract = json.contract as {
      _id: string;
      state: string;
      title: string;
      recipients: Record<string, unknown>[];
    };
    expect(contract.state).toBe('draft');
    expect(contract.title).toBe('Draft lease');
    for (const r of contract.recipients) expect(r.url).toBeUndefined();
    const { row, documents } = await caseRows(contract._id);
    expect(row.state).toBe('draft');
    expect(row.settings).toMatchObject({ autoSend: false });
    // The dashboard's list says where it came from (migration 0012).
    expect(row).toMatchObject({
      source: 'form',
      created_by_key: expect.any(String),
      created_by_user: null,
    });
    const lease = pdfText((await stack.storage.get(documents[0]!.storage_key!))!);
    expect(lease).toMatch(/999/);
  });

  it('autoSend given explicitly overrides the default, for a draft and for an open case', async () => {
    const app = await server();
    const draft = await submit(app, {
      state: 'draft',
      autoSend: true,
      tags: [tenant],
      recipients: [ann],
    });
    expect(draft.status, JSON.stringify(draft.json)).toBe(200);
    expect(draft.json.message).toBe('Contract created and sent');
    const d = draft.json.contract as {
      _id: string;
      state: string;
      recipients: Record<string, unknown>[];
    };
    expect(d.state).toBe('draft');
    expect(d.recipients[0]!.url).toBeUndefined();
    expect((await caseRows(d._id)).row.settings).toMatchObject({ autoSend: true });

    const open = await submit(app, {
      state: 'open',
      autoSend: false,
      tags: [tenant],
      recipients: [ann],
    });
    expect(open.json.message).toBe('Contract created');
    const o = open.json.contract as {
      _id: string;
      state?: string;
      recipients: Record<string, unknown>[];
    };
    expect(o.state).toBeUndefined();
    expect(o.recipients[0]!.url).toEqual(expect.any(String));
    const rows = await caseRows(o._id);
    expect(rows.row.state).toBe('open');
    expect(rows.row.settings).toMatchObject({ autoSend: false });
  });

  it('order is the legacy name of group', async () => {
    const app = await server();
    const { json } = await submit(app, {
      tags: [tenant],
      recipients: [ann, { name: 'Bob', email: 'bob@tenant.example', signing: true, order: 2 }],
    });
    const { recipients, row } = await caseRows((json.contract as { _id: string })._id);
    expect(recipients.map((r) => [r.name, r.group])).toEqual([
      ['Ann Tenant', 1],
      ['Bob', 2],
      ['Acme office', 1],
    ]);
    expect(row.active_group).toBe(1);
  });

  it('needsCpr with cpr: stored only as ciphertext, never answered', async () => {
    const app = await server(CPR_KEY, CPR_EID);
    const { status, json, text } = await submit(app, {
      tags: [tenant],
      recipients: [{ ...ann, needsCpr: true, cpr: CPR }],
    });
    expect(status, text).toBe(200);
    expect(text).not.toContain('0101901234');
    expect(text).not.toContain(CPR);
    const { recipients } = await caseRows((json.contract as { _id: string })._id);
    const stored = recipients[0]!.cpr_encrypted!;
    expect(Buffer.isBuffer(stored)).toBe(true);
    expect(stored.toString('latin1')).not.toContain('0101901234');
    expect(stored.toString('latin1')).not.toContain('1234');
    expect(JSON.stringify(recipients[0]!.details)).not.toContain('1234');
    expect(new CprCipher(CPR_KEY).decrypt(stored, 'acme')).toBe('0101901234');
    expect(recipients[1]!.cpr_encrypted).toBeNull();
    const events = await t.db.selectFrom('case_events').select('payload').execute();
    expect(JSON.stringify(events)).not.toContain('0101901234');
  });

  it('refuses, writing nothing: needsCpr without cpr, every problem at once with its path', async () => {
    const app = await server();
    const r = await nothingWritten(() =>
      submit(app, {
        state: 'later',
        tags: [
          { tag: 'deposit', value: 1, type: 'number' },
          { tag: 'rent', value: '1', type: 'text' },
        ],
        recipients: [
          { ...ann, needsCpr: true },
          { name: 'Bob', email: 'bob@tenant.example', cpr: '0101901234' },
          { name: 'Cy', email: 'cy@tenant.example', needsCpr: true, cpr: '12345' },
        ],
      }),
    );
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('Bad request');
    const descriptions = (r.json.errors as { code: number; description: string }[]).map(
      (e) => e.description,
    );
    expect(descriptions).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^state: /),
        expect.stringMatching(/^tags\[0\]\.tag: the form has no tag "deposit"/),
        expect.stringMatching(/^tags\[1\]\.type: /),
        expect.stringMatching(/^tags: no value for "tenant"/),
        'recipients[0].cpr: is required when needsCpr is true',
        expect.stringMatching(/^recipients\[1\]\.cpr: is only taken with needsCpr: true/),
        expect.stringMatching(/^recipients\[2\]\.cpr: must be 10 digits/),
      ]),
    );
    expect(r.text).not.toContain('0101901234');
    expect(r.text).not.toContain('12345');
  });

  it('refuses, writing nothing, needsCpr where no eID gives a CPR number to compare', async () => {
    const app = await server();
    const r = await nothingWritten(() =>
      submit(app, { tags: [tenant], recipients: [{ ...ann, needsCpr: true, cpr: CPR }] }),
    );
    expect(r.status).toBe(400);
    const descriptions = (r.json.errors as { description: string }[]).map((e) => e.description);
    expect(descriptions).toEqual([
      expect.stringMatching(
        /^recipients\[0\]\.needsCpr: needs an eID scheme whose broker gives the CPR number/,
      ),
    ]);
    expect(r.text).not.toContain('0101901234');
  });

  it('holds a submit to the case limits and the texts people read, writing nothing (issue 31)', async () => {
    const app = await server();
    const many = Array.from({ length: 251 }, (_, i) => ({
      name: `Signer ${i}`,
      email: `s${i}@tenant.example`,
    }));
    const big = await nothingWritten(() => submit(app, { tags: [tenant], recipients: many }));
    expect(big.status).toBe(400);
    expect((big.json.errors as { description: string }[]).map((e) => e.description)).toEqual([
      'recipients: must not have more than 250 items',
    ]);
    const bidi = await nothingWritten(() =>
      submit(app, {
        title: 'Lease\u202Efdp.exe',
        tags: [tenant],
        recipients: [{ ...ann, name: 'Ann\nBcc' }],
      }),
    );
    expect(bidi.status).toBe(400);
    expect(
      (bidi.json.errors as { description: string }[]).map((e) => e.description.split(':')[0]),
    ).toEqual(['title', 'recipients[0].name']);
  });

  it('refuses an unfilled tag, naming tags, and a body without tags', async () => {
    const app = await server();
    const r = await nothingWritten(() => submit(app, { tags: [], recipients: [ann] }));
    expect(r.status).toBe(400);
    expect(r.json.errors).toEqual([
      expect.objectContaining({
        code: 400,
        description: expect.stringMatching(/^tags: no value for "tenant"/) as string,
      }),
    ]);
    const missing = await nothingWritten(() => submit(app, { recipients: [ann] }));
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.json)).toContain('tags: is required');
  });

  it('lists a bad value with the other problems in one answer, before any template is filled', async () => {
    const app = await server();
    const r = await nothingWritten(() =>
      submit(app, {
        tags: [
          { tag: 'start', value: 'tomorrow', type: 'date' },
          { tag: 'rent', value: 'a lot', type: 'number' },
        ],
        recipients: [ann],
      }),
    );
    expect(r.status).toBe(400);
    const descriptions = (r.json.errors as { description: string }[]).map((e) => e.description);
    expect(descriptions).toEqual([
      expect.stringMatching(/^tags: no value for "tenant"/),
      'tags[0] (start): "tomorrow" is not an ISO 8601 date (YYYY-MM-DD, optionally with a time)',
      'tags[1] (rent): "a lot" is not a number; send a JSON number or a decimal string such as 45250.50',
    ]);
  });

  it("never submits another company's form, and refuses a path of another company", async () => {
    const app = await server();
    const body = { tags: [tenant], recipients: [ann] };
    const other = await nothingWritten(() => submit(app, body, 'lease', 'globex'));
    expect([other.status, other.json]).toEqual([
      400,
      { code: 400, message: 'Bad Request', description: 'Form not found' },
    ]);
    const path = await nothingWritten(() =>
      call(app, 'POST', '/api/v2/acme/forms/lease/submit', body, 'globex'),
    );
    expect(path.status).toBe(400);
    expect(path.json).toMatchObject({ description: 'Invalid company id' });
  });

  it('reads an inactive form, and refuses its submit as Form not found', async () => {
    const app = await server();
    const read = await call(app, 'GET', '/api/v2/acme/forms/old-lease/get');
    expect(read.json).toMatchObject({ _id: 'old-lease', active: false });
    const r = await nothingWritten(() =>
      submit(app, { tags: [tenant], recipients: [ann] }, 'old-lease'),
    );
    expect([r.status, r.json]).toEqual([
      400,
      { code: 400, message: 'Bad Request', description: 'Form not found' },
    ]);
  });

  it('without a CPR key: a submit with a CPR number is refused (503), nothing stored; others work', async () => {
    const app = await server(false);
    const r = await nothingWritten(() =>
      submit(app, { tags: [tenant], recipients: [{ ...ann, needsCpr: true, cpr: CPR }] }),
    );
    expect(r.status).toBe(503);
    expect(JSON.stringify(r.json)).toContain('DOCPIPE_CPR_KEY');
    const plain = await submit(app, { tags: [tenant], recipients: [ann] });
    expect(plain.status).toBe(200);
  });

  it('uses the key a docpipe start keeps in the data folder when DOCPIPE_CPR_KEY is not set', async () => {
    const app = await server('file', CPR_EID);
    const { status, json } = await submit(app, {
      tags: [tenant],
      recipients: [{ ...ann, needsCpr: true, cpr: CPR }],
    });
    expect(status, JSON.stringify(json)).toBe(200);
    const { recipients } = await caseRows((json.contract as { _id: string })._id);
    const fileKey = (await readCprKeyFile(lastDataDir))!;
    expect(new CprCipher(fileKey).decrypt(recipients[0]!.cpr_encrypted!, 'acme')).toBe(
      '0101901234',
    );
    expect(() => new CprCipher(CPR_KEY).decrypt(recipients[0]!.cpr_encrypted!, 'acme')).toThrow();
  });
});

describe('the example form of docs/forms.md', () => {
  it('takes the submit of "Try it" word for word, and fills every placeholder', async () => {
    // The form folder as the docs import it, under another id: acme has a "lease" already.
    const folder = join(dir, 'docs-lease');
    cpSync(join(projectRoot(), 'examples', 'forms', 'lease'), folder, { recursive: true });
    const config = loadConfig({});
    await importForm(
      { db: t.db, storage: stack.storage, limits: config.limits, delimiters: config.delimiters },
      'acme',
      folder,
    );
    const docs = readFileSync(join(projectRoot(), 'docs', 'forms.md'), 'utf8');
    const tryIt = docs.slice(docs.indexOf('\n## Try it\n'));
    const body = /-d '(\{"tags"[\s\S]*?\})' \\\n\s+\$DP\/api\/v2\/acme\/forms\/lease\/submit/.exec(
      tryIt,
    )?.[1];
    if (!body) throw new Error('docs/forms.md "Try it" has no submit body');
    const app = await server();
    const { status, json } = await call(
      app,
      'POST',
      '/api/v2/acme/forms/docs-lease/submit',
      JSON.parse(body),
    );
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.message).toBe('Contract created and sent');
    const { documents } = await caseRows((json.contract as { _id: string })._id);
    const lease = pdfText((await stack.storage.get(documents[0]!.storage_key!))!);
    expect(lease).toContain('Mette Sørensen');
    expect(lease).toContain('Ejendomsselskabet Å & Ø ApS');
    expect(lease).not.toMatch(/[{}]/);
  });
});
