import { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { join } from 'node:path';
import { loadConfig } from '../../src/app/config/index.js';
import { DocpipeMetrics } from '../../src/base/metrics/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import {
  CompanyRepository,
  FolderRepository,
  MessageTemplateRepository,
  UserRepository,
} from '../../src/service/companies/index.js';
import type { FailureDetail } from '../../src/base/errors/index.js';
import type {
  CaseNotice,
  CaseView,
  V2CaseData,
  V2CaseOne,
  V2CaseSummary,
  V2DeleteResult,
  V2DocumentAnswer,
  V2RecipientAnswer,
} from '../../src/service/cases/index.js';
import { CprCipher } from '../../src/service/cpr/index.js';
import { KeyStore, tokenId } from '../../src/service/keys/index.js';
import type { HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { buildHttpServer } from '../../src/surfaces/http/server.js';
import { buildDocx, para, run } from '../helpers/docx-builder.js';
import { expectNothingWritten, footprint } from '../helpers/nothing-written.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';
import { convertedPdf } from '../helpers/scripted-converter.js';

/**
 * The v2 case endpoints (spec 4.2, 2.3, 7.1, 9) as `docpipe serve` composes them, with a real
 * worker and LibreOffice, PostgreSQL and Redis: every route, v2's error shapes, and spec 9's
 * mapping table row by row — the same case created through v2 and through v3 reads the same
 * (GET /v3/api/cases/{id} and its rows, ids and times aside) — plus v2's behaviour differences.
 * Each 4xx is shown to write nothing (rows and the storage listing); another company's key
 * never sees, lists or deletes a case.
 */

const PUBLIC = 'http://127.0.0.1:9';
const DAY = 24 * 60 * 60 * 1000;
/** The server's CPR key (DOCPIPE_CPR_KEY): a recipient's cpr is stored only encrypted with it. */
const CPR_KEY = randomBytes(32);
/** The smallest PNG signature the logo check takes (its bytes, not a name). */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(24),
]).toString('base64');

let stack: QueueStack;
let t: TestDatabase;
let app: HttpApp;
let pdf: string;
let docx: string;
let bossId: string;
let salesId: string;
const key: Record<'acme' | 'globex', string> = { acme: '', globex: '' };

beforeAll(async () => {
  [stack, t] = await Promise.all([startQueueStack(), testDatabase()]);
  pdf = (await convertedPdf()).toString('base64');
  docx = buildDocx({ body: para(run('A v2 case, converted by LibreOffice')) }).toString('base64');
  const companies = new CompanyRepository(t.db);
  const users = new UserRepository(t.db);
  const keys = new KeyStore({ db: t.db, databaseUrl: t.url });
  // acme speaks English: a v3 case follows it, a v2 case is Danish (spec 9).
  await companies.create({ id: 'acme', name: 'Acme', defaultLanguage: 'en' });
  await companies.create({ id: 'globex', name: 'Globex' });
  for (const company of ['acme', 'globex'] as const) {
    const owner = await users.add(company, { email: `owner@${company}.example`, name: 'Owner' });
    key[company] = (await keys.create({ company, user: owner.email, name: 'test' })).key;
  }
  bossId = (await users.add('acme', { email: 'boss@acme.example', name: 'The Boss' })).id;
  salesId = (await new FolderRepository(t.db).add('acme', 'Sales')).id;
  const templates = new MessageTemplateRepository(t.db);
  for (const id of ['welcome', 'personal'])
    await templates.add('acme', { id, subject: 'Please sign', body: 'Dear recipient' });
});
/**
 * The composed server on a lane of this test's own (a worker and its client; the lane is a
 * test's, so the server is too), over the file's database and storage; `env` adds settings.
 */
async function startApp(env: Record<string, string> = {}): Promise<void> {
  const keys = new KeyStore({ db: t.db, databaseUrl: t.url });
  const lane = await stack.lane();
  const config = loadConfig({
    DOCPIPE_SIGNING_SECRET: 'a-test-signing-secret-of-32-chars',
    DOCPIPE_CPR_KEY: CPR_KEY.toString('base64'),
    DOCPIPE_QUEUE_PREFIX: lane.prefix,
    DOCPIPE_TEMPLATES_DIR: join(projectRoot(), 'templates'),
    ...env,
  });
  const queues: Queue[] = [];
  app = await buildHttpServer({
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
    metrics: new DocpipeMetrics({ queues, processMetrics: false }),
    checks: {},
    queues,
  });
  const made = app;
  onTestFinished(() => made.close());
}
beforeEach(() => startApp());
afterAll(async () => {
  await stack?.close();
  await t?.close();
});

type Company = keyof typeof key;
/** A request body, or part of one. */
type Json = Record<string, unknown>;
/** Every member an answer of these routes may have (each route's own subset, read loosely). */
interface Answer {
  data: V2CaseData;
  notices: CaseNotice[];
  errors: { code: number; message: string; description: string; error?: string }[];
  message: string;
  status: string;
  cases: V2CaseSummary[];
  case: V2CaseOne & CaseView;
  return: V2DeleteResult;
  error: string;
  details: FailureDetail[];
  code: number;
  description: string;
}
const auth = (company: Company) => ({ authorization: `Bearer ${key[company]}` });
const probe = (company: string = 'acme') => ({ db: t.db, storage: stack.storage, company });

async function v2(body: unknown, company: Company = 'acme', path: string = company) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v2/${path}/case/create`,
    headers: auth(company),
    payload: body as object,
  });
  return { status: res.statusCode, json: res.json<Answer>() };
}

async function v3(body: unknown) {
  const res = await app.inject({
    method: 'POST',
    url: '/v3/api/cases',
    headers: auth('acme'),
    payload: body as object,
  });
  return { status: res.statusCode, json: res.json<Answer>() };
}

async function get(url: string, company: Company = 'acme') {
  const res = await app.inject({ method: 'GET', url, headers: auth(company) });
  return { status: res.statusCode, json: res.json<Answer>() };
}

/** A v2 create that must succeed: its `data`. */
async function created2(body: unknown): Promise<V2CaseData> {
  const res = await v2(body);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.data;
}

/** A v3 create that must succeed: its case id. */
async function created3(body: unknown): Promise<string> {
  const res = await v3(body);
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.case.id;
}

/**
 * A case as v3 reads it and as its rows hold it, without what differs between any two cases
 * (ids, times, signed URLs): two cases that read the same here are the same case.
 */
async function reading(id: string) {
  const view: CaseView = (await get(`/v3/api/cases/${id}`)).json.case;
  const { id: _id, createdAt: _c, updatedAt: _u, expiresAt, ...rest } = view;
  const row = await t.db
    .selectFrom('cases')
    .select([
      'message_template_id',
      'settings',
      'language',
      'signing_schemas',
      'sender_id',
      'sender_name',
      'sender_email',
      'folder_id',
      'active_group',
      'state',
      'title',
      'created_at',
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const recipients = await t.db
    .selectFrom('recipients')
    .select([
      'name',
      'email',
      'phone',
      'type',
      'signing',
      'group',
      'message_template_id',
      'details',
    ])
    .where('case_id', '=', id)
    .orderBy('position')
    .execute();
  const documents = await t.db
    .selectFrom('case_documents')
    .select(['name', 'source', 'url', 'sha256', 'bytes', 'pages'])
    .where('case_id', '=', id)
    .orderBy('index')
    .execute();
  const { created_at, ...caseRow } = row;
  return {
    ...rest,
    lifetimeDays: Math.round((Date.parse(expiresAt) - created_at.getTime()) / DAY),
    recipients: rest.recipients.map(({ id: _i, uid: _x, ...r }) => r),
    documents: rest.documents.map(({ url, ...d }) => ({
      ...d,
      url: d.source === 'url' ? url : 'stored',
    })),
    row: caseRow,
    recipientRows: recipients,
    documentRows: documents,
  };
}

/**
 * The v2 and v3 bodies of the same plain case, v2's defaults (signing false, 90 days, Danish)
 * and v3's (true, 30 days, the company's English) spelled out on the side that differs, so that
 * each row below changes one thing only.
 */
const v2Base = (): Json => ({
  title: 'Lease',
  settings: { availability: { days: 30 } },
  recipients: [{ name: 'Ann', email: 'ann@example.com', signing: true }],
  documents: [{ name: 'lease.pdf', file: pdf, fileIsBlob: true }],
});
const v3Base = (): Json => ({
  title: 'Lease',
  settings: { language: 'da' },
  recipients: [{ name: 'Ann', email: 'ann@example.com' }],
  documents: [{ name: 'lease.pdf', content: pdf }],
});

/** Deep merge of plain objects (arrays replaced): a row's members over its base. */
function merged(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) delete out[k];
    else if (isPlain(v) && isPlain(out[k])) out[k] = merged(out[k], v);
    else out[k] = v;
  }
  return out;
}
const isPlain = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const recipient = (over: Json): Json[] => [{ name: 'Ann', email: 'ann@example.com', ...over }];

describe('spec 9: the mapping table, row by row (v2 and v3 read the same)', () => {
  const rows: [string, () => Json, () => Json][] = [
    ['title', () => ({ title: 'Rent' }), () => ({ title: 'Rent' })],
    ['name (title)', () => ({ title: undefined, name: 'Rent' }), () => ({ title: 'Rent' })],
    ['autoSend', () => ({ autoSend: false }), () => ({ settings: { autoSend: false } })],
    [
      'settings.lang',
      () => ({ settings: { lang: 'sv' } }),
      () => ({ settings: { language: 'sv' } }),
    ],
    [
      'settings.availability.days',
      () => ({ settings: { availability: { days: 12 } } }),
      () => ({ settings: { expiresInDays: 12 } }),
    ],
    [
      'reminderAutoSend',
      () => ({ reminderAutoSend: true, settings: { reminders: { send: true, amount: 3 } } }),
      () => ({ settings: { reminders: { autoSend: true, send: true, amount: 3 } } }),
    ],
    ['template', () => ({ template: 4 }), () => ({ settings: { template: 4 } })],
    [
      'emailtemplate',
      () => ({ emailtemplate: 'welcome' }),
      () => ({ messageTemplateId: 'welcome' }),
    ],
    [
      'emailTemplate',
      () => ({ emailTemplate: 'welcome' }),
      () => ({ messageTemplateId: 'welcome' }),
    ],
    [
      'customMessage with message',
      () => ({ customMessage: true, message: 'Please sign by Friday' }),
      () => ({ settings: { message: 'Please sign by Friday' } }),
    ],
    ['user', () => ({ user: bossId }), () => ({ senderId: bossId })],
    [
      'user_email',
      () => ({ user_email: 'boss@acme.example' }),
      () => ({ senderEmail: 'boss@acme.example' }),
    ],
    [
      'signingSchemas',
      () => ({ signingSchemas: ['draw'] }),
      () => ({ settings: { signingSchemas: ['draw'] } }),
    ],
    [
      'signingPage.logo',
      () => ({ signingPage: { logo: PNG } }),
      () => ({ settings: { logo: PNG } }),
    ],
    [
      'integrations.microsoft.returnPath',
      () => ({ integrations: { microsoft: { returnPath: '/sites/contracts' } } }),
      () => ({ settings: { integrations: { microsoft: { returnPath: '/sites/contracts' } } } }),
    ],
    [
      'recipient group',
      () => ({ recipients: recipient({ signing: true, group: 2 }) }),
      () => ({ recipients: recipient({ group: 2 }) }),
    ],
    [
      'recipient order',
      () => ({ recipients: recipient({ signing: true, order: 2 }) }),
      () => ({ recipients: recipient({ group: 2 }) }),
    ],
    [
      'recipient template',
      () => ({ recipients: recipient({ signing: true, template: 'personal' }) }),
      () => ({ recipients: recipient({ messageTemplateId: 'personal' }) }),
    ],
    [
      'recipient type phone',
      () => ({
        recipients: [{ name: 'Ann', type: 'phone', phone: '+4512345678', signing: true }],
      }),
      () => ({ recipients: [{ name: 'Ann', type: 'sms', phone: '+4512345678' }] }),
    ],
    [
      'document file with fileIsBlob true (a .docx through LibreOffice)',
      () => ({ documents: [{ name: 'letter.docx', file: docx, fileIsBlob: true }] }),
      () => ({ documents: [{ name: 'letter.docx', content: docx }] }),
    ],
    [
      'document file with fileIsBlob false',
      () => ({
        documents: [{ name: 'annex', file: 'https://files.example.com/a.pdf', fileIsBlob: false }],
      }),
      () => ({ documents: [{ name: 'annex', url: 'https://files.example.com/a.pdf' }] }),
    ],
    [
      'document name optional',
      () => ({ documents: [{ file: pdf, fileIsBlob: true }] }),
      () => ({ documents: [{ name: 'Document 1', content: pdf }] }),
    ],
  ];

  it.each(rows)('%s', async (_row, v2Row, v3Row) => {
    const fromV2 = await created2(merged(v2Base(), v2Row()));
    const fromV3 = await created3(merged(v3Base(), v3Row()));
    const [a, b] = [await reading(fromV2._id), await reading(fromV3)];
    expect(a).toEqual(b);
  });

  it('the base case itself reads the same, so that each row above differs by its row only', async () => {
    const a = await reading((await created2(v2Base()))._id);
    const b = await reading(await created3(v3Base()));
    expect(a).toEqual(b);
    expect(a.lifetimeDays).toBe(30);
  });
});

describe('spec 9: what v2 accepts and v3 does not', () => {
  it('v2 keeps settings.deletion and allowRecipientsViewOthers; v3 refuses them', async () => {
    const extra = { deletion: { autoDelete: true, days: 30 }, allowRecipientsViewOthers: true };
    const data = await created2(merged(v2Base(), { settings: extra }));
    expect(data.settings).toMatchObject(extra);
    const one = await get(`/api/v2/acme/case/${data._id}/get`);
    expect(one.json.case.settings).toMatchObject(extra);
    const refused = await expectNothingWritten(probe(), () =>
      v3(merged(v3Base(), { settings: extra })),
    );
    expect(refused.status).toBe(400);
    expect(refused.json.details.map((d) => d.field).sort()).toEqual([
      'settings.allowRecipientsViewOthers',
      'settings.deletion',
    ]);
  });

  it('v2 ignores members it does not know (roles, realtime, type); v3 refuses them', async () => {
    const extra = { roles: ['signer'], realtime: true, type: 'simple', whatever: { a: 1 } };
    const a = await reading((await created2(merged(v2Base(), extra)))._id);
    expect(a).toEqual(await reading(await created3(v3Base())));
    const refused = await v3(merged(v3Base(), extra));
    expect(refused.status).toBe(400);
  });

  it('user_name: v2 shows the sender’s name as given; v3 refuses it', async () => {
    const data = await created2(merged(v2Base(), { user_name: 'Sales Desk' }));
    const row = await t.db
      .selectFrom('cases')
      .select(['sender_name', 'sender_email', 'sender_id'])
      .where('id', '=', data._id)
      .executeTakeFirstOrThrow();
    expect(row.sender_name).toBe('Sales Desk');
    expect(row.sender_email).toBe('owner@acme.example');
    expect((await v3(merged(v3Base(), { user_name: 'Sales Desk' }))).status).toBe(400);
  });

  it('document_id: v2 refuses it by name, saying to upload the file; nothing is written', async () => {
    const res = await expectNothingWritten(probe(), () =>
      v2(merged(v2Base(), { documents: [{ name: 'x', document_id: 'abc' }] })),
    );
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([
      {
        code: 400,
        message: 'Bad Request',
        description: expect.stringMatching(
          /^documents\[0\]\.document_id: is not supported.*upload the file/,
        ) as string,
        error: 'validation-failed',
      },
    ]);
  });

  it('a recipient’s cpr with needsCpr is stored encrypted, and never answered', async () => {
    // A server whose eID broker gives the CPR number: only an eID can check it (never asked here).
    await startApp({
      DOCPIPE_EID_ISSUER: 'http://127.0.0.1:9',
      DOCPIPE_EID_CLIENT_ID: 'docpipe',
      DOCPIPE_EID_CLIENT_SECRET: 'a-client-secret',
      DOCPIPE_EID_SCHEMES: 'urn:grn:authn:dk:mitid:substantial',
      DOCPIPE_EID_CPR_CLAIM: 'cprNumberIdentifier',
    });
    const data = await created2(
      merged(v2Base(), { recipients: recipient({ needsCpr: true, cpr: '010101-1234' }) }),
    );
    expect(JSON.stringify(data)).not.toMatch(/0101011234|010101-1234/);
    const row = await t.db
      .selectFrom('recipients')
      .select('cpr_encrypted')
      .where('case_id', '=', data._id)
      .executeTakeFirstOrThrow();
    expect(row.cpr_encrypted).toBeInstanceOf(Buffer);
    expect(row.cpr_encrypted!.toString('latin1')).not.toContain('0101011234');
    expect(new CprCipher(CPR_KEY).decrypt(row.cpr_encrypted!, 'acme')).toBe('0101011234');
  });

  it('a cpr without needsCpr, or not a CPR number, is refused and never echoed', async () => {
    const res = await expectNothingWritten(probe(), () =>
      v2(
        merged(v2Base(), {
          recipients: [
            { name: 'Ann', email: 'ann@example.com', cpr: '0101011234' },
            { name: 'Bo', email: 'bo@example.com', needsCpr: true, cpr: '01010112' },
          ],
        }),
      ),
    );
    expect(res.status).toBe(400);
    expect(res.json.errors.map((e) => e.description)).toEqual([
      expect.stringMatching(/^recipients\[0\]\.cpr: is only taken with needsCpr: true/),
      expect.stringMatching(/^recipients\[1\]\.cpr: /),
    ]);
    expect(JSON.stringify(res.json)).not.toMatch(/0101011234|01010112/);
  });
});

describe('spec 9: the behaviour differences', () => {
  it('an unknown folder: v2 files the case in the default folder; v3 refuses it', async () => {
    const data = await created2(merged(v2Base(), { folder: 'No such folder' }));
    const defaultFolder = await new FolderRepository(t.db).defaultFolder('acme');
    expect([data.folder, data.folderId]).toEqual([defaultFolder.name, defaultFolder.id]);
    const refused = await expectNothingWritten(probe(), () =>
      v3(merged(v3Base(), { folder: 'No such folder' })),
    );
    expect([refused.status, refused.json.error]).toEqual([400, 'invalid-folder']);
    // A known folder, by name or id, is the same folder either way.
    expect((await created2(merged(v2Base(), { folder: 'Sales' }))).folderId).toBe(salesId);
  });

  it('recipients[].signing: false by default in v2, true in v3', async () => {
    const body = { recipients: [{ name: 'Ann', email: 'ann@example.com' }] };
    const data = await created2(merged(v2Base(), body));
    expect(data.recipients[0]!.signing).toBe(false);
    const a = await reading(data._id);
    const b = await reading(await created3(merged(v3Base(), body)));
    expect([a.recipients[0]!.signing, b.recipients[0]!.signing]).toEqual([false, true]);
    // Nobody signs the v2 case: no group is active.
    expect([a.activeGroup, b.activeGroup]).toEqual([null, 1]);
  });

  it('lifetime: 90 days in v2, 30 in v3', async () => {
    const body = { settings: { availability: undefined } };
    const data = await created2(merged(v2Base(), body));
    expect(data.settings.availability?.days).toBe(90);
    const a = await reading(data._id);
    const b = await reading(await created3(v3Base()));
    expect([a.lifetimeDays, b.lifetimeDays]).toEqual([90, 30]);
  });

  it('settings.availability.expiration is the case’s expiry; a past one is refused at its path', async () => {
    const at = new Date(Date.now() + 10 * DAY);
    at.setUTCMilliseconds(0);
    const data = await created2(
      merged(v2Base(), { settings: { availability: { days: 90, expiration: at.toISOString() } } }),
    );
    expect(data.settings.availability).toMatchObject({ expiration: at.toISOString(), days: 10 });
    const row = await t.db
      .selectFrom('cases')
      .select('expires_at')
      .where('id', '=', data._id)
      .executeTakeFirstOrThrow();
    expect(row.expires_at.toISOString()).toBe(at.toISOString());
    const past = new Date(Date.now() - DAY).toISOString();
    const res = await expectNothingWritten(probe(), () =>
      v2(merged(v2Base(), { settings: { availability: { expiration: past } } })),
    );
    expect(res.status).toBe(400);
    expect(res.json.errors[0]).toMatchObject({ code: 400, error: 'validation-failed' });
    expect(String(res.json.errors[0]!.description)).toMatch(
      /^settings\.availability\.expiration: is .* which is not after /,
    );
  });

  it('language: v2 Danish whatever the company speaks; v3 the company’s (English here)', async () => {
    const data = await created2(v2Base());
    expect(data.settings.lang).toBe('da');
    const b = await reading(
      await created3(merged(v3Base(), { settings: { language: undefined } })),
    );
    expect([(await reading(data._id)).language, b.language]).toEqual(['da', 'en']);
  });

  it('user_email naming nobody: the key’s user sends, and the case shows the e-mail as given', async () => {
    const res = await v2(merged(v2Base(), { user_email: 'desk@elsewhere.example' }));
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.data.user_email).toBe('desk@elsewhere.example');
    expect(res.json.notices.map((n) => n.code)).toContain('sender-defaulted-to-key-creator');
    const owner = await new UserRepository(t.db).findByEmail('acme', 'owner@acme.example');
    const row = await t.db
      .selectFrom('cases')
      .select(['sender_id'])
      .where('id', '=', res.json.data._id)
      .executeTakeFirstOrThrow();
    expect(row.sender_id).toBe(owner!.id);
    const refused = await v3(merged(v3Base(), { senderEmail: 'desk@elsewhere.example' }));
    expect([refused.status, refused.json.error]).toEqual([400, 'sender-user-not-found']);
  });
});

describe('POST /api/v2/{company}/case/create', () => {
  it('answers 200 {data, notices} with exactly spec 2.3’s members; the links work', async () => {
    const res = await v2(
      merged(v2Base(), {
        referenceId: 'ref-1',
        recipients: [
          {
            name: 'Ann',
            email: 'ann@example.com',
            signing: true,
            redirectUrl: 'https://x.example/done',
          },
          { name: 'Bo', type: 'phone', phone: '+4512345678' },
        ],
        documents: [
          { name: 'lease.pdf', file: pdf, fileIsBlob: true, signObligated: true },
          { name: 'annex', file: 'https://files.example.com/a.pdf', fileIsBlob: false },
        ],
      }),
    );
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['data', 'notices']);
    const data = res.json.data;
    expect(Object.keys(data).sort()).toEqual(
      [
        '_id',
        'id',
        'title',
        'folder',
        'folderId',
        'type',
        'user_email',
        'user_company',
        'serviceKey',
        'signingSchemas',
        'settings',
        'recipients',
        'documents',
        'createdAt',
        'updatedAt',
      ].sort(),
    );
    expect(data).toMatchObject({
      id: data._id,
      title: 'Lease',
      user_email: 'owner@acme.example',
      user_company: 'acme',
      serviceKey: tokenId(key.acme),
      signingSchemas: ['draw'],
      settings: { lang: 'da', availability: { days: 30, isExpired: false } },
    });
    // The key's public id, never its secret.
    expect(key.acme).not.toBe(data.serviceKey);
    expect(JSON.stringify(res.json)).not.toContain(key.acme);
    const [ann, bo] = data.recipients as [V2RecipientAnswer, V2RecipientAnswer];
    expect(ann).toMatchObject({
      name: 'Ann',
      email: 'ann@example.com',
      signing: true,
      redirectUrl: 'https://x.example/done',
      signed: 'pending',
      type: 'email',
    });
    expect(bo).toMatchObject({ name: 'Bo', type: 'phone', phone: '+4512345678', signing: false });
    for (const r of [ann, bo]) {
      expect(r.url).toBe(`${PUBLIC}/sign/${r.signingToken}`);
      const path = new URL(r.url as string).pathname;
      const page = await app.inject({ method: 'GET', url: path });
      expect(page.statusCode).toBe(200);
      // The page is a shell; its API says whose link it is.
      const session = await app.inject({ method: 'GET', url: `${path}/api` });
      expect(session.json<{ recipient: { name: string } }>().recipient.name).toBe(r.name);
    }
    const [stored, byUrl] = data.documents as [V2DocumentAnswer, V2DocumentAnswer];
    expect(stored).toMatchObject({ name: 'lease.pdf', signObligated: true, fileIsBlob: false });
    expect(stored._id).toBe(stored.document_id);
    const file = new URL(stored.file);
    const download = await app.inject({ method: 'GET', url: file.pathname + file.search });
    expect(download.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(byUrl).toMatchObject({ name: 'annex', file: 'https://files.example.com/a.pdf' });
    expect(res.json.notices.map((n) => n.code).sort()).toEqual([
      'default-signing-schemas',
      'sender-defaulted-to-key-creator',
    ]);
    // The tokens are shown once: the reads never hold them.
    const again = await get(`/api/v2/acme/case/${data._id}/get`);
    expect(JSON.stringify(again.json)).not.toContain(ann.signingToken);
  });

  it('takes the body wrapped in values', async () => {
    const data = await created2({ values: merged(v2Base(), { title: 'Wrapped' }) });
    expect(data.title).toBe('Wrapped');
  });

  it('takes a body past the small default limit (documents travel as base64)', async () => {
    const big = merged(v2Base(), { padding: 'x'.repeat(200 * 1024) });
    expect((await v2(big)).status).toBe(200);
  });

  it('lists every problem of the body at once, each at its v2 path, and writes nothing', async () => {
    const res = await expectNothingWritten(probe(), () =>
      v2({
        name: '',
        settings: { availability: { days: 0 }, lang: 'tlh' },
        recipients: [{ email: 'not an e-mail' }],
        documents: [{ name: 'a' }],
        signingSchemas: ['urn:nope'],
      }),
    );
    expect(res.status).toBe(400);
    expect(Object.keys(res.json)).toEqual(['errors']);
    for (const e of res.json.errors as Json[])
      expect(e).toMatchObject({ code: 400, message: 'Bad Request', error: 'validation-failed' });
    const fields = res.json.errors.map((e) => String(e.description).split(':')[0]);
    expect(fields).toEqual(
      expect.arrayContaining([
        'name',
        'settings.availability.days',
        'settings.lang',
        'recipients[0].name',
        'recipients[0].email',
        'documents[0].file',
        'signingSchemas[0]',
      ]),
    );
  });

  it('says a wrapped body’s problems under values', async () => {
    const res = await v2({ values: { settings: {} } });
    expect(res.status).toBe(400);
    expect(res.json.errors[0]!.description).toMatch(/^values\.title: /);
  });

  it('answers the references’ failures at their v2 paths, with their slugs; nothing written', async () => {
    const res = await expectNothingWritten(probe(), () =>
      v2(
        merged(v2Base(), {
          emailtemplate: 'nope',
          user: '00000000-0000-4000-8000-000000000000',
          recipients: recipient({ template: 'nope-too' }),
          signingPage: { logo: Buffer.from('GIF89a').toString('base64') },
        }),
      ),
    );
    expect(res.status).toBe(400);
    const byField = Object.fromEntries(
      res.json.errors.map((e) => [String(e.description).split(':')[0], e.error]),
    );
    // Every problem at its v2 path; `error` is the answer's slug (v3's `error`: the first
    // problem's, in rule 2's order), the same in each object.
    expect(byField).toEqual({
      emailtemplate: 'message-template-not-found',
      'recipients[0].template': 'message-template-not-found',
      user: 'message-template-not-found',
      'signingPage.logo': 'message-template-not-found',
    });
    const logo = await expectNothingWritten(probe(), () =>
      v2(merged(v2Base(), { signingPage: { logo: Buffer.from('GIF89a').toString('base64') } })),
    );
    expect(logo.json.errors).toEqual([
      {
        code: 400,
        message: 'Bad Request',
        description: expect.stringMatching(/^signingPage\.logo: /) as string,
        error: 'invalid-signing-page-logo',
      },
    ]);
    const sender = await v2(merged(v2Base(), { user: '00000000-0000-4000-8000-000000000000' }));
    expect(sender.json.errors[0]!).toMatchObject({ error: 'sender-user-not-found' });
    expect(sender.json.errors[0]!.description).toMatch(/^user: /);
  });

  it('answers the pipeline’s failures for each document at its v2 path; nothing written', async () => {
    const res = await expectNothingWritten(probe(), () =>
      v2(
        merged(v2Base(), {
          documents: [
            { name: 'ok.pdf', file: pdf, fileIsBlob: true },
            {
              name: 'notes.txt',
              file: Buffer.from('plain text').toString('base64'),
              fileIsBlob: true,
            },
            { name: 'bad', file: '***', fileIsBlob: true },
            { name: 'link', file: 'not a url', fileIsBlob: false },
          ],
        }),
      ),
    );
    expect(res.status).toBe(400);
    const descriptions = res.json.errors.map((e) => String(e.description));
    // The URL's shape is structure (checked first); the bytes are the pipeline's, once it passes.
    expect(descriptions).toEqual([expect.stringMatching(/^documents\[3\]\.file: /)]);
    const piped = await expectNothingWritten(probe(), () =>
      v2(
        merged(v2Base(), {
          documents: [
            { name: 'ok.pdf', file: pdf, fileIsBlob: true },
            {
              name: 'notes.txt',
              file: Buffer.from('plain text').toString('base64'),
              fileIsBlob: true,
            },
            { name: 'bad', file: '***', fileIsBlob: true },
          ],
        }),
      ),
    );
    expect(piped.status).toBe(400);
    const fields = piped.json.errors.map((e) => String(e.description).split(':')[0]);
    expect(fields).toEqual(['documents[1]', 'documents[2].file']);
    expect(piped.json.errors[0]!.error).toBe('unsupported-file-type');
  });

  it('401 Bearer token not found without a key; another company in the path is refused', async () => {
    const before = await footprint(probe());
    const none = await app.inject({
      method: 'POST',
      url: '/api/v2/acme/case/create',
      payload: v2Base(),
    });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({
      errors: [{ code: 401, message: 'Unauthorized', description: 'Bearer token not found' }],
    });
    const other = await v2(v2Base(), 'globex', 'acme');
    expect(other.status).toBe(400);
    expect(other.json).toEqual({
      code: 400,
      message: 'Bad Request',
      description: 'Invalid company id',
    });
    expect(await footprint(probe())).toEqual(before);
    expect(await footprint(probe('globex'))).toMatchObject({
      rows: { cases: 0, recipients: 0, case_documents: 0, case_events: 0 },
    });
  });

  it('a body that is not JSON is v2’s 4xx; nothing written', async () => {
    const res = await expectNothingWritten(probe(), () =>
      app.inject({
        method: 'POST',
        url: '/api/v2/acme/case/create',
        headers: { ...auth('acme'), 'content-type': 'application/json' },
        payload: '{"title":',
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json<Answer>().errors[0]!).toMatchObject({ code: 400, message: 'Bad Request' });
  });
});

describe('the v2 reads and delete', () => {
  /** A company of its own, so that its list holds only these cases. */
  let ids: string[] = [];
  let initech = '';
  // Once, with the first test's server (the server is a test's; the cases stay in the file's
  // database and storage).
  beforeEach(async () => {
    if (initech) return;
    await new CompanyRepository(t.db).create({ id: 'initech', name: 'Initech' });
    const owner = await new UserRepository(t.db).add('initech', {
      email: 'owner@initech.example',
      name: 'Owner',
    });
    initech = (
      await new KeyStore({ db: t.db, databaseUrl: t.url }).create({
        company: 'initech',
        user: owner.email,
        name: 'test',
      })
    ).key;
    await new FolderRepository(t.db).add('initech', 'Archive');
    ids = [];
    for (const [i, folder] of ['Archive', undefined, undefined].entries()) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v2/initech/case/create',
        headers: { authorization: `Bearer ${initech}` },
        payload: merged(v2Base(), { title: `Case ${i}`, ...(folder ? { folder } : {}) }),
      });
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json<Answer>().data._id);
    }
    // One of them signed, one denied (the signing issue makes these transitions).
    await t.db.updateTable('cases').set({ state: 'signed' }).where('id', '=', ids[1]!).execute();
    await t.db.updateTable('cases').set({ state: 'denied' }).where('id', '=', ids[2]!).execute();
  });
  const as = async (url: string) => {
    const res = await app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${initech}` },
    });
    return { status: res.statusCode, json: res.json<Answer>() };
  };
  const titles = (json: Answer) => json.cases.map((c) => c.title);

  it('GET cases/get lists newest first, with summaries of spec 2.1', async () => {
    const res = await as('/api/v2/initech/cases/get');
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('company_found');
    expect(titles(res.json)).toEqual(['Case 2', 'Case 1', 'Case 0']);
    expect(Object.keys(res.json.cases[0]!).sort()).toEqual(
      ['_id', 'title', 'folder', 'type', 'createdAt', 'updatedAt'].sort(),
    );
    expect(res.json.cases[2]!.folder).toBe('Archive');
  });

  it('filters by status, folder (name or id), and pages with limit and index', async () => {
    expect(titles((await as('/api/v2/initech/cases/get?status=signed')).json)).toEqual(['Case 1']);
    expect(titles((await as('/api/v2/initech/cases/get?status=denied')).json)).toEqual(['Case 2']);
    expect(titles((await as('/api/v2/initech/cases/get?status=pending')).json)).toEqual(['Case 0']);
    expect(titles((await as('/api/v2/initech/cases/get?folder=Archive')).json)).toEqual(['Case 0']);
    const archive = await new FolderRepository(t.db).find('initech', 'Archive');
    expect(titles((await as(`/api/v2/initech/cases/get?folder=${archive!.id}`)).json)).toEqual([
      'Case 0',
    ]);
    expect(titles((await as('/api/v2/initech/cases/get?limit=2&index=0')).json)).toEqual([
      'Case 2',
      'Case 1',
    ]);
    expect(titles((await as('/api/v2/initech/cases/get?limit=2&index=1')).json)).toEqual([
      'Case 0',
    ]);
    expect(await as('/api/v2/initech/cases/get?limit=2&index=2')).toEqual({
      status: 404,
      json: { message: 'Cases not found' },
    });
    expect(await as('/api/v2/initech/cases/get?folder=Nowhere')).toEqual({
      status: 404,
      json: { message: 'Cases not found' },
    });
  });

  it('refuses bad list parameters in v2’s shape, every one', async () => {
    const res = await as('/api/v2/initech/cases/get?status=maybe&limit=0&index=-1');
    expect(res.status).toBe(400);
    const fields = res.json.errors.map((e) => String(e.description).split(':')[0]);
    expect(fields.sort()).toEqual(['index', 'status']);
    const zero = await as('/api/v2/initech/cases/get?limit=0');
    expect(zero.status).toBe(400);
    expect(zero.json.errors[0]!).toMatchObject({ code: 400, error: 'validation-failed' });
    expect(zero.json.errors[0]!.description).toMatch(/^limit: /);
  });

  it('GET cases/{case_ids}/get reads the ones that are the company’s, in the order asked', async () => {
    const res = await as(`/api/v2/initech/cases/${ids[2]},nope,${ids[0]}/get`);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('cases_found');
    expect(titles(res.json)).toEqual(['Case 2', 'Case 0']);
    expect(await as('/api/v2/initech/cases/00000000-0000-4000-8000-000000000000/get')).toEqual({
      status: 404,
      json: { message: 'Cases not found' },
    });
  });

  it('GET case/{case_id}/get reads one with its v2 settings; an unknown one is 200 {message}', async () => {
    const res = await as(`/api/v2/initech/case/${ids[0]}/get`);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('case_found');
    expect(Object.keys(res.json.case).sort()).toEqual(
      ['_id', 'title', 'type', 'createdAt', 'updatedAt', 'settings'].sort(),
    );
    expect(res.json.case.settings).toMatchObject({
      lang: 'da',
      availability: { days: 30, isExpired: false },
    });
    expect(await as('/api/v2/initech/case/not-an-id/get')).toEqual({
      status: 200,
      json: { message: 'Case not found' },
    });
  });

  it('another company’s key never sees, lists or deletes the case', async () => {
    const acmeSees = async (url: string) => get(url.replace('initech', 'acme'), 'acme');
    expect((await acmeSees(`/api/v2/initech/case/${ids[0]}/get`)).json).toEqual({
      message: 'Case not found',
    });
    expect((await acmeSees(`/api/v2/initech/cases/${ids.join(',')}/get`)).status).toBe(404);
    const listed = await acmeSees('/api/v2/initech/cases/get?limit=1000');
    expect(JSON.stringify(listed.json)).not.toContain(ids[0]);
    // Its own company in the path, another company's key: refused before anything is read.
    const wrong = await get(`/api/v2/initech/case/${ids[0]}/get`, 'acme');
    expect(wrong).toEqual({
      status: 400,
      json: { code: 400, message: 'Bad Request', description: 'Invalid company id' },
    });
    const before = await footprint(probe('initech'));
    const deleted = await acmeSees(`/api/v2/initech/case/${ids[0]}/delete`);
    expect(deleted).toEqual({
      status: 200,
      json: { status: 'case_not_found', return: { acknowledged: true, deletedCount: 0 } },
    });
    expect(await footprint(probe('initech'))).toEqual(before);
  });

  it('GET case/{case_id}/delete removes the case, its rows, its stored PDFs and its folder, and writes case.deleted', async () => {
    const id = ids[0]!;
    const hex = Buffer.from('initech').toString('hex');
    const stored = async () => {
      const keys: string[] = [];
      for await (const o of stack.storage.list(`cases/${hex}/${id}/`)) keys.push(o.key);
      return keys;
    };
    expect(await stored()).toHaveLength(1);
    const folderOf = (caseId: string) => join(stack.storage.root, 'cases', hex, caseId);
    expect(existsSync(folderOf(ids[1]!))).toBe(true);
    const res = await as(`/api/v2/initech/case/${id}/delete`);
    expect(res).toEqual({
      status: 200,
      json: { status: 'case_deleted', return: { acknowledged: true, deletedCount: 1 } },
    });
    expect(await stored()).toEqual([]);
    // No empty folder is left on local storage, and another case's folder is untouched.
    expect(existsSync(folderOf(id))).toBe(false);
    expect(existsSync(folderOf(ids[1]!))).toBe(true);
    for (const table of ['cases', 'recipients', 'case_documents'] as const) {
      const column = table === 'cases' ? 'id' : 'case_id';
      const row = await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where(column, '=', id)
        .executeTakeFirstOrThrow();
      expect([table, Number(row.n)]).toEqual([table, 0]);
    }
    // Its events went with it but one: case.deleted, written with the delete, the case as it was.
    const events = await t.db
      .selectFrom('case_events')
      .select(['trigger', 'payload'])
      .where('case_id', '=', id)
      .execute();
    expect(events.map((e) => e.trigger)).toEqual(['case.deleted']);
    const payload = events[0]!.payload as {
      trigger: string;
      case: Record<string, unknown> & { recipients: unknown[]; updatedAt: string };
    };
    expect(payload).toMatchObject({
      trigger: 'case.deleted',
      case: { _id: id, title: 'Case 0', state: 'open', deletedAt: payload.case.updatedAt },
    });
    expect(payload.case.recipients).toHaveLength(1);
    expect((await as(`/api/v2/initech/case/${id}/get`)).json).toEqual({
      message: 'Case not found',
    });
    expect((await as(`/api/v2/initech/case/${id}/delete`)).json.return.deletedCount).toBe(0);
    // The others are still there.
    expect(titles((await as('/api/v2/initech/cases/get')).json)).toEqual(['Case 2', 'Case 1']);
  });

  it('401 on every read without a key', async () => {
    for (const url of [
      '/api/v2/initech/cases/get',
      `/api/v2/initech/cases/${ids[1]}/get`,
      `/api/v2/initech/case/${ids[1]}/get`,
      `/api/v2/initech/case/${ids[1]}/delete`,
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect([url, res.statusCode, res.json()]).toEqual([
        url,
        401,
        { errors: [{ code: 401, message: 'Unauthorized', description: 'Bearer token not found' }] },
      ]);
    }
  });
});
