import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { signUrl } from '../../src/render/storage/index.js';
import { CaseService } from '../../src/service/cases/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import { CprCipher } from '../../src/service/cpr/index.js';
import { importForm, type StoredFormDocument } from '../../src/service/forms/index.js';
import {
  copyFlowTemplates,
  createWebflow,
  flowCaseCreatorKey,
  flowTemplatesFolder,
  makeCaseOfFlow,
  type FlowCaseDeps,
  type WebflowBody,
} from '../../src/service/webflows/index.js';
import { para } from '../helpers/docx-builder.js';
import { leaseDocx, leaseFormFolder } from '../fixtures/forms/form-folder.js';
import { pdfText } from '../helpers/pdf-text.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';

/**
 * A completed web-flow makes its signing case (issue 36): the lease form (web-flow enabled, with
 * a CPR question) on a real PostgreSQL, storage, queue, worker and LibreOffice; the flow made by
 * createWebflow, its answers written as the answer page writes them (a CPR number only as
 * ciphertext), its state completed; then makeCaseOfFlow. The case is filled with the answers
 * from the flow's own copy of the form, made once (two calls at once, a call after a crash), and
 * a refusal is kept on the flow rather than thrown.
 */

const PUBLIC = 'http://docpipe.test';
const SECRET = 'a-test-signing-secret-of-32-chars';
const CPR = '0101901234';
const cipher = new CprCipher(randomBytes(32));

let t: TestDatabase;
let stack: QueueStack;
let dir: string;
let ownerId: string;

/** The lease form's folder with a CPR question, web-flow enabled; `docx` its lease template. */
async function formFolder(name: string, docx: Buffer) {
  const at = mkdtempSync(join(dir, `${name}-`));
  return leaseFormFolder(at, {
    edit: (f) => {
      f.webflow = true;
      (f.tags as unknown[]).push({ _id: 't-cpr', name: 'CPR number', tag: 'cpr', type: 'text' });
    },
    docx,
  });
}

const LEASE = leaseDocx(para('Lease for {tenant} ({cpr}): {rent} DKK a month from {start}.'));
const REVISED = leaseDocx(para('Revised lease for {tenant} ({cpr}), {rent} DKK from {start}.'));

async function importLease(docx = LEASE) {
  const config = loadConfig({});
  return importForm(
    { db: t.db, storage: stack.storage, limits: config.limits, delimiters: config.delimiters },
    'acme',
    await formFolder('lease', docx),
  );
}

beforeAll(async () => {
  [t, stack] = await Promise.all([testDatabase(), startQueueStack()]);
  dir = mkdtempSync(join(tmpdir(), 'webflows-case-'));
  mkdirSync(join(dir, 'acme'));
  await new CompanyRepository(t.db).create({ id: 'acme', name: 'Acme' });
  await new CompanyRepository(t.db).create({ id: 'globex', name: 'Globex' });
  ownerId = (
    await new UserRepository(t.db).add('acme', { email: 'owner@acme.example', name: 'Owner' })
  ).id;
  await importLease();
}, 120_000);

afterAll(async () => {
  await Promise.all([t?.close(), stack?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** makeCaseOfFlow's deps on a lane of the test's own (a worker renders the case). */
async function deps(): Promise<FlowCaseDeps> {
  const lane = await stack.lane();
  const cases = new CaseService({
    db: t.db,
    client: lane.client,
    storage: stack.storage,
    library: new FolderLibrary(join(projectRoot(), 'templates')),
    documentUrl: (key, name) =>
      signUrl(PUBLIC, key, new Date(Date.now() + 3_600_000), SECRET, name),
    cprCipher: cipher,
    signingSecret: SECRET,
  });
  return { db: t.db, storage: stack.storage, cases, cipher, publicUrl: PUBLIC };
}

const tenant = { name: 'Ann Tenant', email: 'ann@tenant.example', signing: true };

/**
 * A flow of the lease form asking Ann, with `case` as its case member, sent by `sender`. Its
 * creation copies the form's templates to the flow's own keys.
 */
async function flow(
  caseRequest: WebflowBody['case'],
  sender = 'owner@acme.example',
  title?: string,
) {
  const made = await createWebflow(
    { db: t.db, signingSecret: SECRET, storage: stack.storage, cipher },
    {
      company: 'acme',
      keyUserId: ownerId,
      idempotencyKey: `key-${randomUUID()}`,
      body: {
        formId: 'lease',
        senderEmail: sender,
        ...(title !== undefined ? { title } : {}),
        recipients: [{ name: 'Ann Tenant', email: 'ann@tenant.example' }],
        ...(caseRequest !== undefined ? { case: caseRequest } : {}),
      },
    },
  );
  const id = made.webflow.id;
  return { id, recipientId: made.webflow.recipients[0]!.id };
}

/** The answers as the answer page writes them (the CPR number encrypted), then completed. */
async function answerAndComplete(
  f: { id: string; recipientId: string },
  answers: { tenant?: string; rent?: number; cpr?: string } = {
    tenant: 'Ann Tenant',
    rent: 999,
    cpr: CPR,
  },
) {
  const rows = [];
  if (answers.tenant !== undefined)
    rows.push({ tag: 'tenant', type: 'text', value: JSON.stringify(answers.tenant) });
  if (answers.rent !== undefined)
    rows.push({ tag: 'rent', type: 'number', value: JSON.stringify(answers.rent) });
  if (answers.cpr !== undefined)
    rows.push({
      tag: 'cpr',
      type: 'text',
      value: null,
      value_encrypted: cipher.encrypt(answers.cpr, 'acme'),
    });
  if (rows.length > 0)
    await t.db
      .insertInto('webflow_answers')
      .values(rows.map((r) => ({ flow_id: f.id, answered_by: f.recipientId, ...r })))
      .execute();
  await t.db
    .updateTable('webflows')
    .set({ state: 'completed', completed_at: new Date() })
    .where('id', '=', f.id)
    .execute();
}

const flowRow = (id: string) =>
  t.db.selectFrom('webflows').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The cases a flow made, by the creating key it writes them with. */
const casesOf = (id: string) =>
  t.db
    .selectFrom('cases')
    .selectAll()
    .where('created_by_key', '=', flowCaseCreatorKey(id))
    .execute();

async function leaseText(caseId: string): Promise<string> {
  const doc = await t.db
    .selectFrom('case_documents')
    .selectAll()
    .where('case_id', '=', caseId)
    .where('index', '=', 0)
    .executeTakeFirstOrThrow();
  return pdfText((await stack.storage.get(doc.storage_key!))!);
}

/** Every case row and stored case document or render: what a refusal must leave as it was. */
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

describe('makeCaseOfFlow', () => {
  it('makes the case from the answers (the CPR number decrypted for the document only), once', async () => {
    const d = await deps();
    const f = await flow({ recipients: [tenant], title: 'Lease from the flow' });
    await answerAndComplete(f);

    const first = await makeCaseOfFlow(d, 'acme', f.id);
    expect(first.outcome).toBe('created');
    const caseId = (first as { caseId: string }).caseId;
    const row = await flowRow(f.id);
    expect(row.case_id).toBe(caseId);
    expect(row.case_error).toBeNull();
    expect(row.updated_at.getTime()).toBeGreaterThanOrEqual(row.completed_at!.getTime());

    const made = await casesOf(f.id);
    expect(made.map((c) => [c.id, c.title, c.state, c.source])).toEqual([
      [caseId, 'Lease from the flow', 'open', 'form'],
    ]);
    // Sent by the flow's sender.
    expect([made[0]!.sender_id, made[0]!.sender_email]).toEqual([ownerId, 'owner@acme.example']);
    const recipients = await t.db
      .selectFrom('recipients')
      .select(['name', 'email'])
      .where('case_id', '=', caseId)
      .orderBy('position')
      .execute();
    expect(recipients).toEqual([
      { name: 'Ann Tenant', email: 'ann@tenant.example' },
      { name: 'Acme office', email: 'office@acme.example' },
    ]);
    const text = await leaseText(caseId);
    // The answers, the form's default for the question left unanswered (start).
    expect(text).toContain(`Lease for Ann Tenant (${CPR}): 999 DKK a month from`);
    expect(text).toMatch(/2026/);
    // The number is in the document and nowhere in plain text in the database's flow rows.
    const answers = await t.db
      .selectFrom('webflow_answers')
      .selectAll()
      .where('flow_id', '=', f.id)
      .execute();
    expect(JSON.stringify(answers)).not.toContain(CPR);

    const again = await makeCaseOfFlow(d, 'acme', f.id);
    expect(again).toEqual({ outcome: 'existing', caseId });
    expect(await casesOf(f.id)).toHaveLength(1);
  });

  it('takes the flow’s title for its case, unless the case member names one', async () => {
    const d = await deps();
    const f = await flow({ recipients: [tenant] }, 'owner@acme.example', 'Lease, Havnegade 12');
    await answerAndComplete(f);
    expect(await makeCaseOfFlow(d, 'acme', f.id)).toMatchObject({ outcome: 'created' });
    expect((await casesOf(f.id)).map((c) => c.title)).toEqual(['Lease, Havnegade 12']);
    const own = await flow(
      { recipients: [tenant], title: 'The case’s own' },
      'owner@acme.example',
      'Lease, Havnegade 14',
    );
    await answerAndComplete(own);
    await makeCaseOfFlow(d, 'acme', own.id);
    expect((await casesOf(own.id)).map((c) => c.title)).toEqual(['The case’s own']);
  });

  it('two calls at once make one case; a call after a crash before the flow was written finds it', async () => {
    const d = await deps();
    const f = await flow({ recipients: [tenant] });
    await answerAndComplete(f);
    const [a, b] = await Promise.all([
      makeCaseOfFlow(d, 'acme', f.id),
      makeCaseOfFlow(d, 'acme', f.id),
    ]);
    expect([a.outcome, b.outcome].sort()).toEqual(['created', 'existing']);
    const made = await casesOf(f.id);
    expect(made).toHaveLength(1);
    expect(a).toMatchObject({ caseId: made[0]!.id });
    expect(b).toMatchObject({ caseId: made[0]!.id });

    // As if the process died after the case's commit and before the flow's.
    await t.db.updateTable('webflows').set({ case_id: null }).where('id', '=', f.id).execute();
    expect(await makeCaseOfFlow(d, 'acme', f.id)).toEqual({
      outcome: 'existing',
      caseId: made[0]!.id,
    });
    expect((await flowRow(f.id)).case_id).toBe(made[0]!.id);
    expect(await casesOf(f.id)).toHaveLength(1);
  });

  it('uses the flow’s version of the form after the form is re-imported with another template', async () => {
    const d = await deps();
    const f = await flow({ recipients: [tenant] });
    await importLease(REVISED);
    try {
      await answerAndComplete(f);
      const made = await makeCaseOfFlow(d, 'acme', f.id);
      expect(made.outcome).toBe('created');
      const text = await leaseText((made as { caseId: string }).caseId);
      expect(text).toContain('Lease for Ann Tenant');
      expect(text).not.toContain('Revised');
    } finally {
      await importLease();
    }
  });

  it('makes nothing for a flow not completed, without a case member, or of another company', async () => {
    const d = await deps();
    const running = await flow({ recipients: [tenant] });
    expect(await makeCaseOfFlow(d, 'acme', running.id)).toEqual({
      outcome: 'none',
      reason: 'not-completed',
    });
    expect(await makeCaseOfFlow(d, 'globex', running.id)).toEqual({
      outcome: 'none',
      reason: 'no-flow',
    });
    expect(await makeCaseOfFlow(d, 'acme', 'not-a-uuid')).toEqual({
      outcome: 'none',
      reason: 'no-flow',
    });
    const plain = await flow(undefined);
    await answerAndComplete(plain);
    expect(await makeCaseOfFlow(d, 'acme', plain.id)).toEqual({
      outcome: 'none',
      reason: 'no-case-request',
    });
    expect(await casesOf(running.id)).toHaveLength(0);
    expect(await casesOf(plain.id)).toHaveLength(0);
  });

  it('the sender removed from the company: sender-not-in-company on the flow, no case', async () => {
    const d = await deps();
    await new UserRepository(t.db).add('acme', { email: 'leaver@acme.example', name: 'Leaver' });
    const f = await flow({ recipients: [tenant] }, 'leaver@acme.example');
    await answerAndComplete(f);
    await new UserRepository(t.db).remove('acme', 'leaver@acme.example');
    const before = await footprint();

    const out = await makeCaseOfFlow(d, 'acme', f.id);
    expect(out).toMatchObject({ outcome: 'refused', error: { slug: 'sender-not-in-company' } });
    const row = await flowRow(f.id);
    expect(row.case_id).toBeNull();
    expect(row.case_error).toMatchObject({
      slug: 'sender-not-in-company',
      details: [{ field: 'senderId', message: expect.stringContaining('leaver@acme.example') }],
    });
    expect(await footprint()).toEqual(before);
    // Kept: a second call answers the same refusal and still makes nothing.
    expect(await makeCaseOfFlow(d, 'acme', f.id)).toEqual(out);
  });

  it('a case member the submit refuses: validation-failed with its paths on the flow, nothing written', async () => {
    const d = await deps();
    const f = await flow({ recipients: [tenant], state: 'sealed' });
    // The tenant's question left unanswered: the form has no default for it.
    await answerAndComplete(f, { rent: 999, cpr: CPR });
    const before = await footprint();

    const out = await makeCaseOfFlow(d, 'acme', f.id);
    expect(out.outcome).toBe('refused');
    const row = await flowRow(f.id);
    expect(row.case_id).toBeNull();
    expect(row.case_error).toEqual({
      slug: 'validation-failed',
      details: expect.arrayContaining([
        { field: 'case.state', message: expect.stringContaining('open or draft') as string },
        { field: 'answers', message: expect.stringContaining('"tenant"') as string },
      ]) as unknown,
    });
    expect((out as { error: unknown }).error).toEqual(row.case_error);
    expect(JSON.stringify(row.case_error)).not.toContain(CPR);
    expect(await footprint()).toEqual(before);
    expect(await casesOf(f.id)).toHaveLength(0);
  });
});

describe('copyFlowTemplates', () => {
  it('copies each template under the flow’s folder, the rest of each document as it was', async () => {
    const form = await importLease();
    const folder = flowTemplatesFolder('acme', randomUUID());
    const copied = await copyFlowTemplates(stack.storage, 'acme', folder, form.form.documents);
    expect(copied.map((c) => c.storageKey)).toEqual([`${folder}0.docx`, `${folder}1.pdf`]);
    for (const [i, c] of copied.entries()) {
      const { storageKey: _was, ...rest } = form.form.documents[i]!;
      expect(c).toEqual({ ...rest, storageKey: c.storageKey });
      expect(await stack.storage.get(c.storageKey)).toEqual(
        await stack.storage.get(form.form.documents[i]!.storageKey),
      );
    }
  });

  it('a template gone from storage: throws, and leaves none of its copies behind', async () => {
    const form = await importLease();
    const folder = flowTemplatesFolder('acme', randomUUID());
    const gone: StoredFormDocument = {
      ...form.form.documents[1]!,
      storageKey: `${form.form.documents[1]!.storageKey}.gone`,
    };
    await expect(
      copyFlowTemplates(stack.storage, 'acme', folder, [form.form.documents[0]!, gone]),
    ).rejects.toMatchObject({
      slug: 'document-production-failed',
      details: [{ field: 'formId', message: expect.stringMatching(/gone from storage/) as string }],
    });
    const left: string[] = [];
    for await (const o of stack.storage.list(folder)) left.push(o.key);
    expect(left).toEqual([]);
  });
});
