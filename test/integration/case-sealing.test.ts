import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueueEvents } from 'bullmq';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { writtenDate, writtenDateTime } from '../../src/base/util/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { loadSealer, makeSelfSignedP12, type Sealer } from '../../src/formats/pades/index.js';
import { CaseService } from '../../src/service/cases/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import {
  SEAL_QUEUE,
  SealWorker,
  sealCase,
  sealedDocumentKey,
  type SealDeps,
} from '../../src/service/sealing/index.js';
import { signRecipient } from '../../src/service/signing/index.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * Sealing a case as the worker does, on the real stack: a case made by the case service, signed
 * by two recipients in two groups through the signing service, then sealed; checked with
 * poppler's pdfsig and pdftotext, and for the idempotence a retried job needs.
 */

const PUBLIC = 'http://127.0.0.1:9';
const library = new FolderLibrary(join(projectRoot(), 'templates'));
let t: TestDatabase;
let stack: QueueStack;
let userId = '';
let sealer: Sealer;
let deps: SealDeps;

async function twoPages(): Promise<string> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]).drawText('The lease, page one', { x: 50, y: 780 });
  doc.addPage([595, 842]).drawText('The lease, page two', { x: 50, y: 780 });
  return Buffer.from(await doc.save()).toString('base64');
}

beforeAll(async () => {
  [t, stack] = await Promise.all([testDatabase(), startQueueStack()]);
  await new CompanyRepository(t.db).create({ id: 'acme', name: 'Acme', defaultLanguage: 'en' });
  userId = (await new UserRepository(t.db).add('acme', { email: 'ann@acme.example', name: 'Ann' }))
    .id;
  const { p12, password } = await makeSelfSignedP12({ commonName: 'docpipe case seal test' });
  sealer = await loadSealer(p12, password);
  deps = { db: t.db, storage: stack.storage, sealer, version: '0.0.0-test' };
}, 120_000);

afterAll(async () => {
  await Promise.all([t?.close(), stack?.close()]);
});

/** A case whose two signers (two groups) have both signed: its id. */
async function signedCase(title = 'Lease'): Promise<string> {
  // A lane belongs to the test that opens it.
  const lane = await stack.lane();
  const cases = new CaseService({
    db: t.db,
    client: lane.client,
    storage: stack.storage,
    library,
    documentUrl: (key) => `${PUBLIC}/files/${key}`,
  });
  const { case: made } = await cases.createCase(
    'acme',
    { id: 'k1', userId },
    {
      title,
      recipients: [
        { name: 'Første Lejer', email: 'a@example.com', group: 1 },
        { name: 'Second Tenant', email: 'b@example.com', group: 2 },
        { name: 'Copy Only', email: 'c@example.com', signing: false },
      ],
      documents: [{ name: 'lease.pdf', content: await twoPages() }],
    },
    { publicUrl: PUBLIC },
  );
  const tokens = made.recipients.map((r) => new URL(r.signingUrl).pathname.split('/')[2]!);
  // Both before the seal's own moment, as they would be.
  const context = {
    ip: '192.0.2.7',
    userAgent: 'case-sealing test',
    now: new Date(Date.now() - 2000),
  };
  await signRecipient(
    t.db,
    { token: tokens[0]! },
    { method: 'typed', name: 'Første Lejer' },
    context,
  );
  const last = await signRecipient(
    t.db,
    { token: tokens[1]! },
    { method: 'typed', name: 'Second Tenant' },
    { ...context, now: new Date() },
  );
  expect(last.completed).toBe(true);
  return made.id;
}

function poppler(tool: string, pdf: Uint8Array, ...args: string[]): string {
  const file = join(testDir('docpipe-case-seal-'), 'sealed.pdf');
  writeFileSync(file, pdf);
  const result = spawnSync(tool, [...args, file, ...(tool === 'pdftotext' ? ['-'] : [])], {
    encoding: 'utf8',
  });
  return `${result.stdout}${result.stderr}`;
}

async function sealedBytes(caseId: string): Promise<Buffer> {
  const doc = await t.db
    .selectFrom('case_documents')
    .select(['sealed_storage_key', 'storage_key', 'sealed_sha256'])
    .where('case_id', '=', caseId)
    .executeTakeFirstOrThrow();
  expect(doc.sealed_storage_key).toBe(sealedDocumentKey('acme', caseId, 0));
  const bytes = await stack.storage.get(doc.sealed_storage_key!);
  expect(bytes).toBeDefined();
  return bytes!;
}

describe('sealing a signed case', () => {
  it('stamps a signature page, appends the audit trail, signs, and marks the case signed', async () => {
    const id = await signedCase();
    // The installation's zone (DOCPIPE_TIME_ZONE), here one far from UTC.
    const zone = 'Asia/Tokyo';
    expect(await sealCase({ ...deps, timeZone: zone }, 'acme', id)).toEqual({
      kind: 'sealed',
      documents: 1,
    });
    const sealed = await sealedBytes(id);
    const report = poppler('pdfsig', sealed);
    expect(report).toContain('Signature is Valid.');
    expect(report).toContain('Total document signed');
    const text = poppler('pdftotext', sealed);
    expect(text).toContain('The lease, page one');
    // No anchors: a signature page with both signers' typed names, then the audit trail.
    expect(text).toContain('Første Lejer');
    expect(text).toContain('Second Tenant');
    expect(text).toContain('192.0.2.7');
    // The dates at the places and the audit trail's times are written as the e-mails write a
    // date (English here), in the installation's zone, a time with its offset; never ISO days.
    const signedAt = await t.db
      .selectFrom('signatures')
      .select('signed_at')
      .where('case_id', '=', id)
      .orderBy('signed_at')
      .execute();
    expect(signedAt).toHaveLength(2);
    for (const { signed_at } of signedAt) {
      expect(text).toContain(writtenDate(signed_at, 'en', zone));
      expect(text).toContain(writtenDateTime(signed_at, 'en', zone, { seconds: true }));
      expect(text).not.toContain(signed_at.toISOString().slice(0, 10));
    }
    expect(text).toContain('(UTC+9)');
    const kase = await t.db
      .selectFrom('cases')
      .select(['state', 'sealed_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(kase.state).toBe('signed');
    expect(kase.sealed_at).toBeInstanceOf(Date);
    const doc = await t.db
      .selectFrom('case_documents')
      .select(['evidence', 'sha256', 'storage_key'])
      .where('case_id', '=', id)
      .executeTakeFirstOrThrow();
    // The original is kept as evidence, and the evidence names both.
    expect(await stack.storage.get(doc.storage_key!)).toBeDefined();
    expect(doc.evidence).toMatchObject({
      shownSha256: doc.sha256,
      places: 'signature-page',
      level: 'B-B',
      pages: 2,
      docpipeVersion: '0.0.0-test',
    });
    expect((doc.evidence as { sealedPages: number }).sealedPages).toBeGreaterThanOrEqual(4);
    // Merged into the render's evidence kept at creation, not over it.
    expect(doc.evidence).toMatchObject({
      sha256: doc.sha256,
      normalizedSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      templateSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      valuesSha256: null,
      officeVersion: null,
    });
    const events = await t.db
      .selectFrom('case_events')
      .select('trigger')
      .where('case_id', '=', id)
      .execute();
    // Which events, not their order: the case's own moment is taken when its request began.
    expect(events.map((e) => e.trigger).sort()).toEqual([
      'case.created',
      'case.signed',
      'recipient.signed',
      'recipient.signed',
    ]);
    expect(await sealCase(deps, 'acme', id)).toEqual({ kind: 'skipped', reason: 'already sealed' });
  });

  it('lists in the audit trail a signing link a member took from the dashboard', async () => {
    const id = await signedCase('Lease with a link handed on');
    const second = await t.db
      .selectFrom('recipients')
      .select('id')
      .where('case_id', '=', id)
      .where('position', '=', 1)
      .executeTakeFirstOrThrow();
    // As takeSigningLink writes it (its own test is dashboard-case-page.test.ts).
    await t.db
      .insertInto('case_audit')
      .values({
        company_id: 'acme',
        case_id: id,
        action: 'signing-link-taken',
        user_id: userId,
        user_name: 'Ann',
        recipient_id: second.id,
      })
      .execute();
    expect(await sealCase(deps, 'acme', id)).toEqual({ kind: 'sealed', documents: 1 });
    const text = poppler('pdftotext', await sealedBytes(id)).replace(/\s+/g, ' ');
    expect(text).toContain('Actions by the sender’s company');
    expect(text).toContain(
      'Ann took the signing link of recipient 2 (Second Tenant) from the dashboard',
    );
  });

  it('makes the same sealed bytes when a crashed seal runs again', async () => {
    const id = await signedCase('Crashed');
    await sealCase(deps, 'acme', id);
    const first = await sealedBytes(id);
    // As if the first run had crashed before its commit, and its file had not been written.
    await t.db
      .updateTable('cases')
      .set({ state: 'open', sealed_at: null })
      .where('id', '=', id)
      .execute();
    await stack.storage.delete(sealedDocumentKey('acme', id, 0));
    expect(await sealCase(deps, 'acme', id)).toMatchObject({ kind: 'sealed' });
    const second = await sealedBytes(id);
    expect(second.equals(first)).toBe(true);
  });

  it('is done by the seal worker, whose sweep finds a complete case nobody queued', async () => {
    const id = await signedCase('Swept');
    const prefix = `case-sealing-${randomUUID()}`;
    const events = new QueueEvents(SEAL_QUEUE, {
      connection: {
        host: new URL(stack.url).hostname,
        port: Number(new URL(stack.url).port),
        password: new URL(stack.url).password,
      },
      prefix,
    });
    await events.waitUntilReady();
    const done = new Promise<void>((resolve, reject) => {
      events.on('completed', ({ jobId }) => {
        if (jobId === `seal-${id}`) resolve();
      });
      events.on('failed', ({ jobId, failedReason }) => {
        if (jobId === `seal-${id}`) reject(new Error(failedReason));
      });
    });
    // A certificate made at the first seal (as a first start without DOCPIPE_SEAL_P12 does).
    let asked = 0;
    const lazy = {
      ...deps,
      sealer: () => {
        asked += 1;
        return Promise.resolve(sealer);
      },
    };
    const worker = await SealWorker.start({ redisUrl: stack.url, prefix, deps: lazy });
    try {
      await done;
    } finally {
      await worker.close();
      await events.close();
    }
    const kase = await t.db
      .selectFrom('cases')
      .select('state')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(kase.state).toBe('signed');
    expect(asked).toBe(1);
  });
});

describe('what a client reads between the last signature and the seal (issue 31)', () => {
  const reader = () =>
    new CaseService({
      db: t.db,
      client: {
        render: () => Promise.reject(new Error('not used')),
        renderDocumentSet: () => Promise.reject(new Error('not used')),
      },
      storage: stack.storage,
      library,
      documentUrl: (key) => `${PUBLIC}/files/${key}`,
    });
  const events = async (id: string) =>
    (
      await t.db.selectFrom('case_events').select('trigger').where('case_id', '=', id).execute()
    ).map((e) => e.trigger);

  it('is open and sealing, its documents the copy the signers saw, until the sealed PDFs exist; then signed, each document sealed', async () => {
    const id = await signedCase('Under way');
    const shown = await t.db
      .selectFrom('case_documents')
      .select(['storage_key', 'sha256', 'pages'])
      .where('case_id', '=', id)
      .executeTakeFirstOrThrow();
    const during = await reader().getCase('acme', id);
    expect(during.recipients.filter((r) => r.signing).map((r) => r.status)).toEqual([
      'signed',
      'signed',
    ]);
    expect({ state: during.state, sealing: during.sealing }).toEqual({
      state: 'open',
      sealing: true,
    });
    expect(during.documents).toEqual([
      expect.objectContaining({
        url: `${PUBLIC}/files/${shown.storage_key}`,
        sha256: shown.sha256,
        pages: shown.pages,
        shownPages: shown.pages,
        sealed: false,
      }),
    ]);
    expect(await events(id)).not.toContain('case.signed');

    await sealCase(deps, 'acme', id);
    const after = await reader().getCase('acme', id);
    const sealedPdf = await sealedBytes(id);
    const sealedSha = createHash('sha256').update(sealedPdf).digest('hex');
    // The file's own count (signature page and audit trail added), and the signers' document's.
    const sealedPageCount = (await PDFDocument.load(sealedPdf)).getPageCount();
    expect(sealedPageCount).toBeGreaterThan(shown.pages!);
    expect({ state: after.state, sealing: after.sealing }).toEqual({
      state: 'signed',
      sealing: false,
    });
    expect(after.documents).toEqual([
      expect.objectContaining({
        url: `${PUBLIC}/files/${sealedDocumentKey('acme', id, 0)}`,
        sha256: sealedSha,
        pages: sealedPageCount,
        shownPages: shown.pages,
        sealed: true,
      }),
    ]);
    expect(await events(id)).toContain('case.signed');
  });

  it('a seal that cannot store its PDF leaves the case open and sealing, with no case.signed', async () => {
    const id = await signedCase('Storage down');
    const failing = {
      ...deps,
      storage: Object.assign(Object.create(stack.storage) as typeof stack.storage, {
        put: () => Promise.reject(new Error('storage down')),
      }),
    };
    await expect(sealCase(failing, 'acme', id)).rejects.toThrow('storage down');
    const view = await reader().getCase('acme', id);
    expect([view.state, view.sealing, view.documents[0]!.sealed]).toEqual(['open', true, false]);
    expect(await events(id)).not.toContain('case.signed');
  });
});
