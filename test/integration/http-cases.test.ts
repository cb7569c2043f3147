import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import { DocpipeMetrics } from '../../src/base/metrics/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { DocpipeClient } from '../../src/jobs/queue/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import { KeyStore } from '../../src/service/keys/index.js';
import { denyRecipient, signRecipient } from '../../src/service/signing/index.js';
import type { HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { buildHttpServer } from '../../src/surfaces/http/server.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';

/**
 * The v3 case endpoints over HTTP as `docpipe serve` composes them: real keys of two companies in
 * PostgreSQL, a real Redis for the rate limit, the real case service. No worker: the cases here
 * take their documents by URL (stored by reference, never fetched), so what is tested is the
 * surface — refusals with their paths and nothing written, the 201 answer's exact members, the
 * list's parameters and pages, and that one company never sees another's case. The documents
 * through the pipeline are the case service's tests.
 */

const PUBLIC = 'http://127.0.0.1:9';
/** The largest body the case route takes here: well past the server's small default (64 KiB). */
const BODY_LIMIT = 1024 * 1024;

let redis: RedisOnly;
let t: TestDatabase;
let app: HttpApp;
let client: DocpipeClient;
let storage: LocalStorage;
let connection: Redis;
let storageDir: string | undefined;
const key: Record<'acme' | 'globex', string> = { acme: '', globex: '' };

beforeAll(async () => {
  [redis, t] = await Promise.all([startRedisOnly(), testDatabase()]);
  // One prefix for the file (a lane is a test's): its keys are the rate limit's counts.
  const prefix = `http-cases-${randomUUID()}`;
  connection = new Redis(redis.url);
  const companies = new CompanyRepository(t.db);
  const users = new UserRepository(t.db);
  const keys = new KeyStore({ db: t.db, databaseUrl: t.url });
  for (const company of ['acme', 'globex'] as const) {
    await companies.create({ id: company, name: `Company ${company}` });
    const user = await users.add(company, { email: `owner@${company}.example`, name: 'Owner' });
    key[company] = (await keys.create({ company, user: user.email, name: 'test' })).key;
  }
  const config = loadConfig({
    DOCPIPE_SIGNING_SECRET: 'a-test-signing-secret-of-32-chars',
    DOCPIPE_QUEUE_PREFIX: prefix,
    DOCPIPE_TEMPLATES_DIR: join(projectRoot(), 'templates'),
    DOCPIPE_HTTP_BODY_LIMIT_BYTES: String(BODY_LIMIT),
  });
  // The file's (testDir is a test's): removed after the last test.
  storageDir = mkdtempSync(join(tmpdir(), 'http-cases-storage-'));
  storage = new LocalStorage(storageDir);
  client = await DocpipeClient.connect({
    redisUrl: redis.url,
    prefix: prefix,
    storage,
    noWorkerMs: 100,
  });
  app = await buildHttpServer({
    config,
    publicUrl: PUBLIC,
    redis: connection,
    redisUrl: redis.url,
    db: t.db,
    keys,
    client,
    storage,
    library: new FolderLibrary(config.templatesDir),
    preparer: new InlinePreparer(),
    metrics: new DocpipeMetrics({ queues: [], processMetrics: false }),
    checks: {},
    queues: [],
  });
});
afterAll(async () => {
  await app?.close();
  await client?.close();
  connection?.disconnect();
  await redis?.close();
  await t?.close();
  if (storageDir) rmSync(storageDir, { recursive: true, force: true });
});

type Company = keyof typeof key;
const auth = (company: Company) => ({ authorization: `Bearer ${key[company]}` });

async function create(body: unknown, company: Company = 'acme') {
  const res = await app.inject({
    method: 'POST',
    url: '/v3/api/cases',
    headers: auth(company),
    payload: body as object,
  });
  return { res, json: res.json<Record<string, unknown>>() };
}

async function get(url: string, company: Company = 'acme') {
  const res = await app.inject({ method: 'GET', url, headers: auth(company) });
  return { res, json: res.json<Record<string, unknown>>() };
}

/** Every row a case leaves, and every stored object: a 4xx must leave them as they were. */
async function written(): Promise<Record<string, number>> {
  const count = async (table: 'cases' | 'recipients' | 'case_documents' | 'case_events') =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  let stored = 0;
  for await (const _ of storage.list('')) stored++;
  return {
    cases: await count('cases'),
    recipients: await count('recipients'),
    case_documents: await count('case_documents'),
    case_events: await count('case_events'),
    stored,
  };
}

const ann = { name: 'Ann', email: 'ann@example.com' };
const byUrl = { name: 'Lease', url: 'https://example.com/lease.pdf' };
const draft = (extra: Record<string, unknown> = {}) => ({
  title: 'Lease',
  state: 'draft',
  recipients: [ann],
  documents: [byUrl],
  ...extra,
});

describe('POST /v3/api/cases', () => {
  it('refuses every structural problem at once with its path, v2’s members as unknown fields, and writes nothing', async () => {
    const before = await written();
    const { res, json } = await create({
      title: 'Lease',
      roles: ['signer'],
      user_email: 'owner@acme.example',
      settings: { deletion: { autoDelete: true }, reminders: { amount: 0 } },
      recipients: [{ ...ann, order: 1, type: 'phone' }],
      documents: [{ name: 'a', file: 'x', fileIsBlob: false, document_id: 'd' }],
    });
    expect(res.statusCode).toBe(400);
    expect(json.error).toBe('validation-failed');
    const details = json.details as { field: string; message: string }[];
    expect(details.map((d) => `${d.field}: ${d.message}`).sort()).toEqual(
      [
        'roles: unknown field',
        'user_email: unknown field',
        'settings.deletion: unknown field',
        'settings.reminders.amount: must be >= 1',
        'recipients[0].order: unknown field',
        'recipients[0].type: must be one of "email", "sms", "eboks"',
        'documents[0].file: unknown field',
        'documents[0].fileIsBlob: unknown field',
        'documents[0].document_id: unknown field',
        'documents[0]: needs one source: content, url or documentId',
      ].sort(),
    );
    expect(await written()).toEqual(before);
  });

  it('passes a sound body to the case service, whose refusals come in the same envelope', async () => {
    const before = await written();
    const { res, json } = await create(draft({ folder: 'Nowhere' }));
    expect(res.statusCode).toBe(400);
    expect(json.error).toBe('invalid-folder');
    expect(json.details).toEqual([expect.objectContaining({ field: 'folder' })]);
    expect(await written()).toEqual(before);
  });

  it('answers 201 with Location and exactly spec 2.2’s case, never a token, a service key or a CPR', async () => {
    const { res, json } = await create(
      draft({ referenceId: 'shape', recipients: [ann, { ...ann, name: 'Bo', needsCpr: false }] }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const body = json.case as Record<string, unknown> & {
      id: string;
      recipients: Record<string, unknown>[];
      notices: { code: string }[];
    };
    expect(Object.keys(json)).toEqual(['case']);
    expect(Object.keys(body).sort()).toEqual(
      ['activeGroup', 'delivery', 'documents', 'id', 'notices', 'recipients'].sort(),
    );
    expect(res.headers.location).toBe(`/v3/api/cases/${body.id}`);
    expect(body.recipients).toHaveLength(2);
    for (const r of body.recipients) {
      expect(Object.keys(r).sort()).toEqual(['id', 'signingUrl', 'status', 'uid']);
      expect(r.signingUrl).toMatch(new RegExp(`^${PUBLIC}/`));
      expect(r.status).toBe('pending');
    }
    expect(body.documents).toEqual([{ url: byUrl.url }]);
    expect(body.notices.map((n) => n.code)).toContain('sender-defaulted-to-key-creator');
    expect(res.body).not.toMatch(
      /signingToken|serviceKey|"cpr"|"signer"|"logs"|"events"|"roles"|__v/,
    );

    const read = await get(res.headers.location as string);
    expect(read.res.statusCode).toBe(200);
    expect(read.json.case).toMatchObject({
      id: body.id,
      title: 'Lease',
      state: 'draft',
      referenceId: 'shape',
      folder: { name: 'Default' },
    });
    expect(read.res.body).not.toMatch(/signingToken|serviceKey|"cpr"|token/i);
  });

  it('takes a body past the server’s small limit (documents travel as base64) and refuses one past its own', async () => {
    const big = { tag: 'notes', value: 'x'.repeat(200_000), type: 'text' };
    const { res } = await create(draft({ tags: [big] }));
    expect(res.statusCode, res.body).toBe(201);
    const before = await written();
    const over = await create(draft({ tags: [{ ...big, value: 'x'.repeat(BODY_LIMIT) }] }));
    expect(over.res.statusCode).toBe(413);
    expect(over.json).toEqual({
      error: 'validation-failed',
      details: [
        {
          field: 'body',
          message: `is larger than this endpoint's limit of ${BODY_LIMIT} bytes; send a smaller body`,
        },
      ],
    });
    expect(await written()).toEqual(before);
  });

  it('needs a key, and answers in the v3 envelope without one', async () => {
    const res = await app.inject({ method: 'POST', url: '/v3/api/cases', payload: draft() });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'missing-token' });
  });
});

describe('POST /v3/api/documents/{id}/cases', () => {
  it('answers a document the library lacks 404 document-not-found, and writes nothing', async () => {
    const before = await written();
    const res = await app.inject({
      method: 'POST',
      url: '/v3/api/documents/no-such-document/cases',
      headers: auth('acme'),
      payload: { title: 'Lease', state: 'draft', recipients: [ann] },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      error: 'document-not-found',
      details: [expect.objectContaining({ field: 'id' })],
    });
    expect(await written()).toEqual(before);
  });
});

describe('GET /v3/api/cases/{id}', () => {
  it('answers another company’s case as absent: 404 case-not-found, like an id that is nobody’s', async () => {
    const { json } = await create(draft({ referenceId: 'mine' }));
    const id = (json.case as { id: string }).id;
    expect((await get(`/v3/api/cases/${id}`)).res.statusCode).toBe(200);
    for (const url of [
      `/v3/api/cases/${id}`,
      '/v3/api/cases/00000000-0000-4000-8000-000000000000',
      '/v3/api/cases/not-a-uuid',
    ]) {
      const other = await get(url, 'globex');
      expect(other.res.statusCode, url).toBe(404);
      expect(other.json.error).toBe('case-not-found');
    }
    const theirs = await get('/v3/api/cases?referenceId=mine', 'globex');
    expect(theirs.json).toEqual({ cases: [] });
  });

  it("says each recipient's status as the events do: a signer's method and ip, a denier's reason and ip", async () => {
    const { json } = await create({
      title: 'Lease',
      referenceId: 'crm-read-1',
      recipients: [
        { name: 'Signer', email: 'signer@example.com', group: 1 },
        { name: 'Denier', email: 'denier@example.com', group: 2 },
      ],
      documents: [byUrl],
      settings: { signingSchemas: ['draw'] },
    });
    const made = json.case as { id: string; recipients: { signingUrl: string }[] };
    const tokenOf = (i: number) => made.recipients[i]!.signingUrl.split('/').pop()!;
    const now = new Date();
    await signRecipient(
      t.db,
      { token: tokenOf(0) },
      { method: 'typed', name: 'Signer' },
      { ip: '198.51.100.20', userAgent: 'test', now },
    );
    await denyRecipient(t.db, tokenOf(1), 'Not this rent', {
      ip: '203.0.113.21',
      userAgent: 'test',
      now,
    });
    const read = await get(`/v3/api/cases/${made.id}`);
    expect(read.res.statusCode).toBe(200);
    const kase = read.json.case as { referenceId: string; recipients: unknown[] };
    expect(kase.referenceId).toBe('crm-read-1');
    expect(kase.recipients).toMatchObject([
      { name: 'Signer', status: 'signed', method: 'typed', ip: '198.51.100.20' },
      {
        name: 'Denier',
        status: 'denied',
        denialReason: 'Not this rent',
        ip: '203.0.113.21',
        actedAt: now.toISOString(),
      },
    ]);
  });
});

describe('GET /v3/api/cases', () => {
  it('filters by referenceId, state and createdAfter, and pages with the cursor it gives', async () => {
    const ids: string[] = [];
    for (const title of ['one', 'two', 'three'])
      ids.push(
        ((await create(draft({ title, referenceId: 'paged' }))).json.case as { id: string }).id,
      );
    const seen: string[] = [];
    let url = '/v3/api/cases?referenceId=paged&limit=2';
    for (;;) {
      const page = await get(url);
      expect(page.res.statusCode, page.res.body).toBe(200);
      const { cases, nextCursor } = page.json as { cases: { id: string }[]; nextCursor?: string };
      expect(cases.length).toBeLessThanOrEqual(2);
      seen.push(...cases.map((c) => c.id));
      if (nextCursor === undefined) break;
      url = `/v3/api/cases?referenceId=paged&limit=2&cursor=${encodeURIComponent(nextCursor)}`;
    }
    // Newest first, each once.
    expect(seen).toEqual([...ids].reverse());
    const open = await get('/v3/api/cases?referenceId=paged&state=open');
    expect(open.json).toEqual({ cases: [] });
    const drafts = await get('/v3/api/cases?referenceId=paged&state=draft&createdAfter=2000-01-01');
    expect((drafts.json.cases as unknown[]).length).toBe(3);
    const later = await get('/v3/api/cases?referenceId=paged&createdAfter=2999-01-01T00:00:00Z');
    expect(later.json).toEqual({ cases: [] });
  });

  it('refuses a createdAfter that is no ISO 8601 date at createdAfter, and an unknown parameter', async () => {
    const bad = await get('/v3/api/cases?createdAfter=last%20week');
    expect(bad.res.statusCode).toBe(400);
    expect(bad.json).toEqual({
      error: 'validation-failed',
      details: [
        {
          field: 'createdAfter',
          message:
            'must be an ISO 8601 date (2026-05-01) or date-time (2026-05-01T12:00:00Z) (got "last week")',
        },
      ],
    });
    const unknown = await get('/v3/api/cases?title=Lease&createdAfter=2026-02-30');
    expect(unknown.res.statusCode).toBe(400);
    expect(unknown.json).toEqual({
      error: 'validation-failed',
      details: [
        { field: 'title', message: 'unknown field' },
        { field: 'createdAfter', message: 'names no day of the calendar (got "2026-02-30")' },
      ],
    });
  });

  it('refuses a cursor it did not give', async () => {
    const res = await get('/v3/api/cases?cursor=made-up');
    expect(res.res.statusCode).toBe(400);
    expect(res.json).toMatchObject({
      error: 'validation-failed',
      details: [expect.objectContaining({ field: 'cursor' })],
    });
  });
});
