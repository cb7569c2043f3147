import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import { DocpipeMetrics } from '../../src/base/metrics/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import { KeyStore } from '../../src/service/keys/index.js';
import { buildHttpServer } from '../../src/surfaces/http/server.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';

/**
 * The v3 case routes end to end: the composed server, a real worker with LibreOffice, the
 * project's library. What only the whole path shows: a case from a library document over
 * `POST /v3/api/documents/{id}/cases` (its missing fields named at this request's `tags.<field>`,
 * not the service's `documents[0]`), and a 201's document URLs that download the case's PDF.
 */

const PUBLIC = 'http://127.0.0.1:9';
const LEASE_TAGS = JSON.parse(
  readFileSync(join(projectRoot(), 'templates/lease/fixtures/basic.tags.json'), 'utf8'),
) as { tag: string }[];

let stack: QueueStack;
let t: TestDatabase;
let key: string;

beforeAll(async () => {
  [stack, t] = await Promise.all([startQueueStack(), testDatabase()]);
  await new CompanyRepository(t.db).create({ id: 'acme', name: 'Acme' });
  const user = await new UserRepository(t.db).add('acme', {
    email: 'owner@acme.example',
    name: 'Owner',
  });
  const keys = new KeyStore({ db: t.db, databaseUrl: t.url });
  key = (await keys.create({ company: 'acme', user: user.email, name: 'test' })).key;
});
afterAll(async () => {
  await stack?.close();
  await t?.close();
});

/** The composed server over a lane of its own (a worker and its client). */
async function server() {
  const lane = await stack.lane();
  const config = loadConfig({
    DOCPIPE_SIGNING_SECRET: 'a-test-signing-secret-of-32-chars',
    DOCPIPE_QUEUE_PREFIX: lane.prefix,
    DOCPIPE_TEMPLATES_DIR: join(projectRoot(), 'templates'),
  });
  const queues: Queue[] = [];
  const app = await buildHttpServer({
    config,
    publicUrl: PUBLIC,
    redis: lane.connection,
    redisUrl: stack.url,
    db: t.db,
    keys: new KeyStore({ db: t.db, databaseUrl: t.url }),
    client: lane.client,
    storage: stack.storage,
    library: new FolderLibrary(config.templatesDir),
    preparer: new InlinePreparer(),
    metrics: new DocpipeMetrics({ queues, processMetrics: false }),
    checks: {},
    queues,
  });
  onTestFinished(() => app.close());
  return app;
}

const auth = () => ({ authorization: `Bearer ${key}` });
const body = (extra: Record<string, unknown> = {}) => ({
  title: 'Lease',
  recipients: [{ name: 'Mette Sørensen', email: 'mette@example.com' }],
  ...extra,
});

describe('POST /v3/api/documents/{id}/cases through the pipeline', () => {
  it("names a library document's missing fields at tags.<field>, and writes no case", async () => {
    const app = await server();
    // Every value but the contract number's: that field, and only it, lacks a value.
    const tags = LEASE_TAGS.filter((t) => t.tag !== 'contract_no');
    const res = await app.inject({
      method: 'POST',
      url: '/v3/api/documents/lease/cases',
      headers: auth(),
      payload: body({ tags }),
    });
    expect(res.statusCode, res.body).toBe(400);
    const failure = res.json<{ error: string; details: { field: string; message: string }[] }>();
    expect(failure.error).toBe('validation-failed');
    expect(failure.details.map((d) => d.field)).toEqual(['tags.contract_no']);
    const cases = await t.db
      .selectFrom('cases')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(cases.n)).toBe(0);
  });

  it("names a bad value at this request's tags[i], in the field and in the message", async () => {
    const app = await server();
    expect(LEASE_TAGS[1]!.tag).toBe('signing_date');
    const tags = LEASE_TAGS.map((t, i) => (i === 1 ? { ...t, value: 'not a date' } : t));
    const res = await app.inject({
      method: 'POST',
      url: '/v3/api/documents/lease/cases',
      headers: auth(),
      payload: body({ tags }),
    });
    expect(res.statusCode, res.body).toBe(400);
    const failure = res.json<{ error: string; details: { field: string; message: string }[] }>();
    expect(failure.error).toBe('validation-failed');
    expect(failure.details).toEqual([
      {
        field: 'tags[1].value',
        message: expect.stringMatching(/^tags\[1\] \(signing_date\): /),
      },
    ]);
    expect(res.body).not.toContain('documents');
  });

  it('creates the case from the filled document; its URL downloads the PDF, and GET reads it', async () => {
    const app = await server();
    const res = await app.inject({
      method: 'POST',
      url: '/v3/api/documents/lease/cases',
      headers: auth(),
      payload: body({ tags: LEASE_TAGS, referenceId: 'from-library' }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<{ case: { id: string; documents: { url: string }[] } }>().case;
    expect(res.headers.location).toBe(`/v3/api/cases/${created.id}`);
    expect(created.documents).toHaveLength(1);
    const url = new URL(created.documents[0]!.url);
    expect(url.origin).toBe(PUBLIC);
    const pdf = await app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const read = await app.inject({
      method: 'GET',
      url: res.headers.location as string,
      headers: auth(),
    });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      case: {
        id: created.id,
        state: 'open',
        referenceId: 'from-library',
        documents: [{ name: 'Lejekontrakt (beboelse)', source: 'library' }],
      },
    });
  });
});
