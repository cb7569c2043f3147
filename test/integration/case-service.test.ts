import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { signUrl } from '../../src/render/storage/index.js';
import {
  CaseService,
  eventCaseOf,
  readCaseStatus,
  type CaseInput,
} from '../../src/service/cases/index.js';
import {
  CompanyRepository,
  FolderRepository,
  MessageTemplateRepository,
  UserRepository,
} from '../../src/service/companies/index.js';
import { buildDocx, para, run } from '../helpers/docx-builder.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';
import { convertedPdf } from '../helpers/scripted-converter.js';

const PUBLIC = 'http://docpipe.test';
const SECRET = 'case-service-test-secret';
const library = new FolderLibrary(join(projectRoot(), 'templates'));
const welcomeTags = JSON.parse(
  readFileSync(join(projectRoot(), 'templates/welcome-letter/fixtures/remote.tags.json'), 'utf8'),
) as { tag: string }[];

let t: TestDatabase;
let stack: QueueStack;
let pdf: string;
let annId: string;

beforeAll(async () => {
  [t, stack] = await Promise.all([testDatabase(), startQueueStack()]);
  pdf = (await convertedPdf()).toString('base64');
  const companies = new CompanyRepository(t.db);
  await companies.create({
    id: 'acme',
    name: 'Acme',
    signingDomain: 'sign.acme.example',
    defaultLanguage: 'en',
  });
  await companies.create({ id: 'beta', name: 'Beta' });
  const users = new UserRepository(t.db);
  annId = (await users.add('acme', { email: 'ann@acme.example', name: 'Ann' })).id;
  await users.add('acme', { email: 'bob@acme.example', name: 'Bob' });
  await users.add('beta', { email: 'cy@beta.example', name: 'Cy' });
  await new FolderRepository(t.db).add('acme', 'Leases');
  await new MessageTemplateRepository(t.db).add('acme', {
    id: 'welcome',
    subject: 'Hello',
    body: 'Please sign',
  });
});

afterAll(async () => {
  await Promise.all([t?.close(), stack?.close()]);
});

async function service() {
  const lane = await stack.lane();
  return new CaseService({
    db: t.db,
    client: lane.client,
    storage: stack.storage,
    library,
    documentUrl: (key, name) =>
      signUrl(PUBLIC, key, new Date(Date.now() + 3_600_000), SECRET, name),
  });
}

const key = () => ({ id: 'k1', userId: annId });

/** Rows of every case table and every stored case document or render: what a 4xx must not change. */
async function footprint() {
  const counts: Record<string, number> = {};
  for (const table of ['cases', 'recipients', 'case_documents', 'case_events'] as const) {
    const row = await t.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  const stored: string[] = [];
  for (const prefix of ['cases/', 'renders/'])
    for await (const o of stack.storage.list(prefix))
      if (!o.key.endsWith('.kept')) stored.push(o.key);
  return { counts, stored: stored.sort() };
}

async function refused(promise: Promise<unknown>): Promise<DocpipeError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DocpipeError);
  return err as DocpipeError;
}

const base = (over: Partial<CaseInput> = {}): CaseInput => ({
  title: 'Lease',
  recipients: [{ name: 'Tenant', email: 'tenant@example.com' }],
  documents: [{ name: 'lease.pdf', content: pdf }],
  ...over,
});

describe('creating a case', () => {
  it('writes the case, its recipients, documents and event, with the defaults, and answers spec 2.2', async () => {
    const cases = await service();
    const now = new Date('2026-01-10T10:00:00.000Z');
    const { case: answer, notices } = await cases.createCase(
      'acme',
      key(),
      base({
        referenceId: 'ref-1',
        recipients: [
          { name: 'Tenant', email: 'tenant@example.com', group: 2 },
          { name: 'Landlord', type: 'sms', phone: '+4512345678', group: 3 },
          { name: 'Copy', email: 'copy@example.com', signing: false, group: 1 },
        ],
        documents: [
          { name: 'lease.pdf', content: pdf },
          { name: 'annex', url: 'https://files.example.com/annex.pdf' },
        ],
      }),
      { publicUrl: PUBLIC, now },
    );
    expect(Object.keys(answer).sort()).toEqual(
      ['activeGroup', 'delivery', 'documents', 'id', 'notices', 'recipients'].sort(),
    );
    expect(answer.activeGroup).toBe(2);
    expect(answer.recipients).toHaveLength(3);
    for (const r of answer.recipients) {
      expect(Object.keys(r).sort()).toEqual(['id', 'signingUrl', 'status', 'uid']);
      expect(r.status).toBe('pending');
      expect(r.signingUrl).toMatch(/^https:\/\/sign\.acme\.example\/sign\/[A-Za-z0-9_-]{43}$/);
    }
    expect(answer.documents[0]!.url).toMatch(new RegExp(`^${PUBLIC}/files/cases/`));
    expect(answer.documents[1]!.url).toBe('https://files.example.com/annex.pdf');
    expect(answer.delivery).toMatchObject({
      attempted: false,
      email: { ok: true, attempted: false },
    });
    expect(notices.map((n) => n.code)).toEqual([
      'sender-defaulted-to-key-creator',
      'default-signing-schemas',
    ]);
    expect(notices[1]).toMatchObject({ using: ['draw'] });

    const row = await t.db
      .selectFrom('cases')
      .selectAll()
      .where('id', '=', answer.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      company_id: 'acme',
      state: 'open',
      language: 'en',
      sender_id: annId,
    });
    expect(row.expires_at.toISOString()).toBe('2026-02-09T10:00:00.000Z');
    expect(
      (await t.db.selectFrom('cases').select('folder_id').executeTakeFirstOrThrow()).folder_id,
    ).toBe((await new FolderRepository(t.db).defaultFolder('acme')).id);
    // Only the token's hash is stored: no recipient column holds the token of its link.
    const tokens = answer.recipients.map((r) => r.signingUrl.split('/').pop()!);
    const recipients = await t.db
      .selectFrom('recipients')
      .selectAll()
      .where('case_id', '=', answer.id)
      .execute();
    expect(JSON.stringify(recipients)).not.toContain(tokens[0]!);
    expect(recipients.map((r) => r.signing_token_hash.length)).toEqual([32, 32, 32]);
    const events = await t.db
      .selectFrom('case_events')
      .selectAll()
      .where('case_id', '=', answer.id)
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ trigger: 'case.created', published_at: null });
    expect(events[0]!.payload).toMatchObject({
      trigger: 'case.created',
      case: { _id: answer.id, updatedAt: now.toISOString() },
    });
    // The event's case is the status as the read builds it from the rows (issue 32, item 18).
    const status = await readCaseStatus(t.db, 'acme', answer.id);
    expect(status).toBeDefined();
    expect(events[0]!.payload).toMatchObject({ case: eventCaseOf(status!) });

    const view = await cases.getCase('acme', answer.id);
    expect(view).toMatchObject({
      title: 'Lease',
      state: 'open',
      referenceId: 'ref-1',
      activeGroup: 2,
    });
    expect(view.documents.map((d) => d.source)).toEqual(['content', 'url']);
    expect(JSON.stringify(view)).not.toMatch(/token|cpr|serviceKey/i);
  });

  it('makes a draft without recipients or documents, in a folder by name, Danish by default', async () => {
    const cases = await service();
    const { case: answer } = await cases.createCase(
      'beta',
      { id: 'k2' },
      { title: 'Draft', state: 'draft', senderEmail: 'CY@beta.example' },
      { publicUrl: PUBLIC },
    );
    expect(answer).toMatchObject({ recipients: [], documents: [], activeGroup: null });
    expect(answer.delivery.email).toMatchObject({
      ok: true,
      attempted: false,
      reason: expect.stringMatching(/draft/),
    });
    expect(answer.notices?.map((n) => n.code)).toEqual(['default-signing-schemas']);
    const view = await cases.getCase('beta', answer.id);
    expect(view).toMatchObject({ state: 'draft', language: 'da', folder: { name: 'Default' } });
  });

  it('keeps where a case came from and who made it: a key over v3 or v2, a member in the dashboard', async () => {
    const cases = await service();
    const draft = { title: 'Where from', state: 'draft' as const };
    const v3 = await cases.createCase('acme', key(), draft, { publicUrl: PUBLIC });
    const dashboard = await cases.createCase('acme', { userId: annId }, draft, {
      publicUrl: PUBLIC,
      source: 'dashboard',
    });
    const v2 = await cases.createV2Case(
      'acme',
      key(),
      {
        title: 'Where from',
        settings: {},
        documents: [{ name: 'a.pdf', file: pdf, fileIsBlob: true }],
      },
      { publicUrl: PUBLIC, state: 'draft' },
    );
    const rows = await t.db
      .selectFrom('cases')
      .select(['id', 'source', 'created_by_key', 'created_by_user', 'sender_id'])
      .where('id', 'in', [v3.case.id, dashboard.case.id, v2.data._id])
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(v3.case.id)).toMatchObject({
      source: 'v3',
      created_by_key: 'k1',
      created_by_user: null,
    });
    // No key: the member is the creator and, naming no sender, the sender.
    expect(byId.get(dashboard.case.id)).toMatchObject({
      source: 'dashboard',
      created_by_key: null,
      created_by_user: annId,
      sender_id: annId,
    });
    expect(byId.get(v2.data._id)).toMatchObject({
      source: 'v2',
      created_by_key: 'k1',
      created_by_user: null,
    });
  });

  it('fills and converts a .docx with the case tags, and a library document strictly', async () => {
    const cases = await service();
    const docx = buildDocx({ body: para(run('Dear {name}')) }).toString('base64');
    const { case: answer } = await cases.createCase(
      'acme',
      key(),
      base({
        tags: [{ tag: 'name', value: 'Ann', type: 'text' }],
        documents: [
          { name: 'letter.docx', content: docx },
          { name: 'welcome', documentId: 'welcome-letter', tags: welcomeTags as never },
        ],
      }),
      { publicUrl: PUBLIC },
    );
    const docs = await t.db
      .selectFrom('case_documents')
      .selectAll()
      .where('case_id', '=', answer.id)
      .orderBy('index')
      .execute();
    expect(docs.map((d) => [d.source, d.pages! > 0, d.library_document_id])).toEqual([
      ['content', true, null],
      ['library', true, 'welcome-letter'],
    ]);
    expect(await stack.storage.stat(docs[1]!.storage_key!)).toMatchObject({
      type: 'application/pdf',
    });
    // Each document's render evidence is kept at creation: the template's and values' hashes.
    const hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
    expect(docs[0]!.evidence).toMatchObject({
      sha256: docs[0]!.sha256,
      templateSha256: hex(Buffer.from(docx, 'base64')),
      valuesSha256: hex('[{"tag":"name","type":"text","value":"Ann"}]'),
      officeVersion: expect.stringMatching(/^LibreOffice /),
      pages: docs[0]!.pages,
    });
  });

  it("answers its documents' notices at their place in the case: a value not shown, characters no font draws", async () => {
    const cases = await service();
    // A hidden run (w:vanish) does not show; a private-use character has no glyph in any font.
    const hidden = '<w:p><w:r><w:rPr><w:vanish/></w:rPr><w:t>Secret {clause}</w:t></w:r></w:p>';
    const docx = buildDocx({ body: para(run('Dear {name}')) + hidden }).toString('base64');
    const { case: answer, notices } = await cases.createCase(
      'acme',
      key(),
      base({
        tags: [
          { tag: 'name', value: 'Ann \ue000', type: 'text' },
          { tag: 'clause', value: 'keep a cat', type: 'text' },
        ],
        documents: [
          { name: 'annex', url: 'https://files.example.com/annex.pdf' },
          { name: 'letter.docx', content: docx },
        ],
      }),
      { publicUrl: PUBLIC },
    );
    const own = notices.filter((n) => 'field' in n);
    expect(own).toEqual([
      expect.objectContaining({ code: 'value-not-shown', field: 'documents[1].tags.clause' }),
      expect.objectContaining({
        code: 'characters-not-drawn',
        field: 'documents[1].tags.name',
        characters: ['\ue000'],
      }),
    ]);
    expect(answer.notices).toEqual(notices);
  });
});

describe('refusals leave nothing behind', () => {
  it('rule 2: every reference problem at once, the first one its slug', async () => {
    const cases = await service();
    const before = await footprint();
    const err = await refused(
      cases.createCase(
        'acme',
        key(),
        base({
          folder: 'Nope',
          presetId: 'nope',
          messageTemplateId: 'missing',
          senderEmail: 'zed@acme.example',
          settings: {
            logo: Buffer.from('GIF89a').toString('base64'),
            signingSchemas: ['urn:grn:authn:se:bankid', 'draw'],
            integrations: { microsoft: { returnPath: 'x' } },
          },
          recipients: [
            { name: 'A', email: 'a@example.com', messageTemplateId: 'welcome' },
            { name: 'B', type: 'sms', messageTemplateId: 'gone' },
          ],
        }),
        { publicUrl: PUBLIC },
      ),
    );
    expect(err.slug).toBe('invalid-folder');
    expect(err.details.map((d) => d.field)).toEqual([
      'folder',
      'presetId',
      'messageTemplateId',
      'recipients[1].messageTemplateId',
      'senderEmail',
      'settings.signingSchemas[0]',
      'settings.logo',
      'settings.integrations.microsoft.returnPath',
      'recipients[1].phone',
    ]);
    expect(await footprint()).toEqual(before);
  });

  it.each([
    [{ folder: 'Nope' }, 'invalid-folder', 'folder'],
    [{ presetId: 'nope' }, 'preset-not-found', 'presetId'],
    [{ messageTemplateId: 'nope' }, 'message-template-not-found', 'messageTemplateId'],
    [{ senderId: '00000000-0000-4000-8000-000000000000' }, 'sender-user-not-found', 'senderId'],
    [
      { settings: { logo: 'https://evil.example/logo.png' } },
      'invalid-signing-page-logo',
      'settings.logo',
    ],
    [{ recipients: [] }, 'validation-failed', 'recipients'],
    [{ documents: [] }, 'validation-failed', 'documents'],
  ] as const)('%j is %s at %s', async (over, slug, field) => {
    const cases = await service();
    const err = await refused(
      cases.createCase('acme', key(), base(over as Partial<CaseInput>), { publicUrl: PUBLIC }),
    );
    expect(err.slug).toBe(slug);
    expect(err.details.map((d) => d.field)).toEqual([field]);
  });

  it('accepts a PNG logo, a service URL logo and a good return path (with its notice)', async () => {
    const cases = await service();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]).toString('base64');
    for (const logo of [png, `${PUBLIC}/files/x.png`, 'https://sign.acme.example/logo.png']) {
      const { notices } = await cases.createCase(
        'acme',
        key(),
        base({
          settings: {
            logo,
            signingSchemas: ['draw'],
            integrations: { microsoft: { returnPath: '/back' } },
          },
        }),
        { publicUrl: PUBLIC },
      );
      expect(notices.map((n) => n.code)).toEqual([
        'sender-defaulted-to-key-creator',
        'no-sharepoint-integration',
      ]);
    }
  });

  it('a key without a user and no sender named is key-has-no-user', async () => {
    const cases = await service();
    const err = await refused(
      cases.createCase('acme', { id: 'old' }, base(), { publicUrl: PUBLIC }),
    );
    expect(err.slug).toBe('key-has-no-user');
  });

  it('rule 3: every failing document in one answer, and nothing stored', async () => {
    const cases = await service();
    const before = await footprint();
    const err = await refused(
      cases.createCase(
        'acme',
        key(),
        base({
          documents: [
            { name: 'good.pdf', content: pdf },
            { name: 'text', content: Buffer.from('just some text').toString('base64') },
            { name: 'gone', documentId: 'no-such-document', versionId: '1' },
            { name: 'old', documentId: 'welcome-letter', versionId: '99' },
            { name: 'welcome', documentId: 'welcome-letter', tags: [] },
          ],
        }),
        { publicUrl: PUBLIC },
      ),
    );
    const fields = err.details.map((d) => d.field);
    expect(err.slug).toBe('unsupported-file-type');
    expect(fields).toContain('documents[1]');
    expect(fields).toContain('documents[2]');
    expect(fields).toContain('documents[3]');
    expect(fields.filter((f) => f.startsWith('documents[4].tags.')).length).toBeGreaterThan(0);
    expect(fields.some((f) => f.startsWith('documents[0]'))).toBe(false);
    expect(await footprint()).toEqual(before);
  });

  it('a library document alone answers document-not-found and document-version-not-found naming documents[i]', async () => {
    const cases = await service();
    const missing = await refused(
      cases.createCase(
        'acme',
        key(),
        base({ documents: [{ name: 'x', documentId: 'nope', versionId: '1' }] }),
        { publicUrl: PUBLIC },
      ),
    );
    expect([missing.slug, missing.details[0]!.field]).toEqual([
      'document-not-found',
      'documents[0]',
    ]);
    const version = await refused(
      cases.createCase(
        'acme',
        key(),
        base({ documents: [{ name: 'x', documentId: 'welcome-letter', versionId: '9' }] }),
        { publicUrl: PUBLIC },
      ),
    );
    expect([version.slug, version.details[0]!.field]).toEqual([
      'document-version-not-found',
      'documents[0]',
    ]);
  });

  it('a failure at the write leaves no row and no stored document', async () => {
    const cases = await service();
    const before = await footprint();
    await sql`create function refuse_event() returns trigger language plpgsql as $$ begin raise exception 'injected'; end $$`.execute(
      t.db,
    );
    await sql`create trigger refuse_event before insert on case_events for each row execute function refuse_event()`.execute(
      t.db,
    );
    try {
      const docx = buildDocx({ body: para(run('Fresh {n}')) }).toString('base64');
      const err = await cases
        .createCase(
          'acme',
          key(),
          base({
            tags: [{ tag: 'n', value: String(Date.now()), type: 'text' }],
            documents: [{ name: 'a.docx', content: docx }],
          }),
          { publicUrl: PUBLIC },
        )
        .then(
          () => undefined,
          (e: unknown) => e as Error,
        );
      expect(err?.message).toMatch(/injected/);
      expect(await footprint()).toEqual(before);
    } finally {
      await sql`drop trigger refuse_event on case_events`.execute(t.db);
      await sql`drop function refuse_event()`.execute(t.db);
    }
  });
});

describe('reading cases', () => {
  it("another company's case is case-not-found, and lists never show it", async () => {
    const cases = await service();
    const { case: answer } = await cases.createCase('acme', key(), base({ referenceId: 'iso' }), {
      publicUrl: PUBLIC,
    });
    expect((await refused(cases.getCase('beta', answer.id))).slug).toBe('case-not-found');
    expect((await refused(cases.getCase('acme', 'not-a-uuid'))).slug).toBe('case-not-found');
    expect((await cases.listCases('beta', { referenceId: 'iso' }, {})).cases).toEqual([]);
    expect(
      (await cases.listCases('acme', { referenceId: 'iso' }, {})).cases.map((c) => c.id),
    ).toEqual([answer.id]);
  });

  it('filters by state, folder and createdAfter, and pages with a cursor without repeats', async () => {
    const cases = await service();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { case: c } = await cases.createCase(
        'acme',
        key(),
        { title: `P${i}`, state: 'draft', folder: 'Leases', referenceId: 'paged' },
        { publicUrl: PUBLIC, now: new Date(Date.UTC(2030, 0, 1 + i)) },
      );
      made.push(c.id);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await cases.listCases(
        'acme',
        { folder: 'Leases', state: 'draft' },
        { limit: 2, ...(cursor ? { cursor } : {}) },
      );
      seen.push(...page.cases.map((c) => c.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...made].reverse());
    const recent = await cases.listCases(
      'acme',
      { createdAfter: new Date(Date.UTC(2030, 0, 4)) },
      {},
    );
    expect(recent.cases.map((c) => c.title)).toEqual(['P4', 'P3']);
    expect(
      (await cases.listCases('acme', { state: 'open', referenceId: 'paged' }, {})).cases,
    ).toEqual([]);
    expect((await cases.listCases('acme', { folder: 'No such folder' }, {})).cases).toEqual([]);
    expect(
      (await refused(cases.listCases('acme', {}, { cursor: 'garbage' }))).details[0]!.field,
    ).toBe('cursor');
  });
});
