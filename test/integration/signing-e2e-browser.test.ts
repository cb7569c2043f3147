import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import { DocpipeMetrics } from '../../src/base/metrics/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { writtenDate } from '../../src/base/util/index.js';
import type { SignaturePlace } from '../../src/document/anchors/index.js';
import { AUDIT_WORDING } from '../../src/document/stamp/audit-wording.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { loadSealer, makeSelfSignedP12 } from '../../src/formats/pades/index.js';
import { DocpipeClient } from '../../src/jobs/queue/index.js';
import { createRedis } from '../../src/platform/redis/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { CaseService, type CaseInput } from '../../src/service/cases/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import { KeyStore } from '../../src/service/keys/index.js';
import { SEAL_QUEUE, SealWorker, sealedDocumentKey } from '../../src/service/sealing/index.js';
import type { HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { buildHttpServer } from '../../src/surfaces/http/server.js';
import { buildDocx, heading, pageBreak, para } from '../helpers/docx-builder.js';
import { pdfPages } from '../helpers/pdf-text.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';
import { bboxWords, drawSignature, inkIn, type Word } from '../helpers/signature-ink.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * Issue 23's "done means", end to end: a .docx template with both signers' anchors becomes a case
 * through the case service (fill, LibreOffice, the places pipeline), two recipients in two groups
 * open their links in headless Chromium (Debian's, driven by playwright-core) on a server composed
 * as `docpipe serve` composes it, listening on loopback; the second cannot sign first, both draw
 * with the mouse, the seal worker seals, and the sealed PDF is checked with poppler: pdfsig, the
 * ink at each signature's place, the names at theirs, the audit page last. Then a denial through
 * the page, and the dead links' page.
 */

/** Kept after the run (git ignores test/results/): what the signers saw. */
const SCREENSHOTS = join(projectRoot(), 'test', 'results', 'signing-e2e-browser');
/** The queue prefix of the server and the seal worker: the server adds seal jobs on it. */
const PREFIX = `signing-e2e-${randomUUID()}`;
const library = new FolderLibrary(join(projectRoot(), 'templates'));

/** A service agreement: the client's signature block on page 1, the supplier's on page 2. */
const template = buildDocx({
  body:
    heading('Service agreement') +
    para('The supplier delivers the services described in the annex to the client.') +
    para('The client pays each invoice within 30 days of its date.') +
    para('Signed for the client: {sign:1}') +
    para('Name: {name:1}') +
    para('Date: {date:1}') +
    pageBreak() +
    para('The supplier keeps the client’s data confidential.') +
    para('Signed for the supplier: {sign:2}') +
    para('Name: {name:2}') +
    para('Date: {date:2}'),
});

let t: TestDatabase;
let stack: QueueStack;
let browser: Browser;
let app: HttpApp;
let origin = '';
let connection: Redis;
let client: DocpipeClient;
let sealWorker: SealWorker;
let sealEvents: QueueEvents;
let userId = '';

beforeAll(async () => {
  let p12: { p12: Uint8Array; password: string };
  [t, stack, browser, p12] = await Promise.all([
    testDatabase(),
    startQueueStack(),
    chromium.launch({ executablePath: '/usr/bin/chromium', headless: true }),
    makeSelfSignedP12({ commonName: 'docpipe e2e seal' }),
  ]);
  await new CompanyRepository(t.db).create({ id: 'acme', name: 'Acme', defaultLanguage: 'en' });
  userId = (await new UserRepository(t.db).add('acme', { email: 'ann@acme.example', name: 'Ann' }))
    .id;
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    DOCPIPE_SIGNING_SECRET: 'a-test-signing-secret-of-32-chars',
    DOCPIPE_QUEUE_PREFIX: PREFIX,
  });
  connection = createRedis(stack.url, 'worker');
  // The server's own client renders nothing here: cases are made by the case service on a
  // test's lane. It is there because the server is composed with one.
  client = await DocpipeClient.connect({
    redisUrl: stack.url,
    prefix: PREFIX,
    storage: stack.storage,
    noWorkerMs: 100,
  });
  app = await buildHttpServer({
    config,
    publicUrl: origin,
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
  });
  await app.listen({ port, host: '127.0.0.1' });
  // Listening before any job exists: the seal's `completed` is never missed.
  const redisUrl = new URL(stack.url);
  sealEvents = new QueueEvents(SEAL_QUEUE, {
    connection: {
      host: redisUrl.hostname,
      port: Number(redisUrl.port),
      password: redisUrl.password,
    },
    prefix: PREFIX,
  });
  await sealEvents.waitUntilReady();
  const sealer = await loadSealer(p12.p12, p12.password);
  sealWorker = await SealWorker.start({
    redisUrl: stack.url,
    prefix: PREFIX,
    deps: { db: t.db, storage: stack.storage, sealer, version: '0.0.0-e2e' },
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await sealWorker?.close();
  await sealEvents?.close();
  await client?.close();
  connection?.disconnect();
  await Promise.all([t?.close(), stack?.close()]);
});

/** A free port on the loopback, so that the server's public URL is where it listens. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A case made by the case service on a lane of the calling test's own: id and signing links. */
async function makeCase(body: CaseInput): Promise<{ id: string; links: string[] }> {
  const lane = await stack.lane({ concurrency: 1 });
  const cases = caseService(lane.client);
  const { case: made } = await cases.createCase('acme', { id: 'k1', userId }, body, {
    publicUrl: origin,
  });
  for (const r of made.recipients) expect(new URL(r.signingUrl).origin).toBe(origin);
  return { id: made.id, links: made.recipients.map((r) => r.signingUrl) };
}

function caseService(laneClient: DocpipeClient): CaseService {
  return new CaseService({
    db: t.db,
    client: laneClient,
    storage: stack.storage,
    library,
    documentUrl: (key) => `${origin}/files/${key}`,
  });
}

/** What a page did that it must not: console errors, CSP refusals, other origins asked. */
interface Watch {
  errors: string[];
  violations: string[];
  requested: string[];
}

/** A page of a context of its own (closed when the test ends), watched from its first request. */
async function openPage(options: BrowserContextOptions): Promise<{ page: Page; w: Watch }> {
  const context = await browser.newContext(options);
  onTestFinished(() => context.close());
  const page = await context.newPage();
  await page.addInitScript(() => {
    const g = globalThis as unknown as {
      addEventListener(
        type: string,
        f: (e: { violatedDirective: string; blockedURI: string }) => void,
      ): void;
      console: { error(text: string): void };
    };
    g.addEventListener('securitypolicyviolation', (e) =>
      g.console.error(`Content Security Policy: ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const w: Watch = { errors: [], violations: [], requested: [] };
  page.on('response', (r) => {
    if (r.status() >= 400) w.errors.push(`${r.status()} ${r.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') w.errors.push(`${m.text()} (${m.location().url})`);
    if (/Content Security Policy/i.test(m.text())) w.violations.push(m.text());
  });
  page.on('pageerror', (e) => w.errors.push(e.message));
  page.on('request', (r) => w.requested.push(r.url()));
  return { page, w };
}

const PHONE: BrowserContextOptions = {
  viewport: { width: 360, height: 740 },
  deviceScaleFactor: 2,
};
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };

/** Nothing refused, nothing asked of another origin, and no error but the `expected` ones. */
function expectClean(w: Watch, expected: RegExp[] = []): void {
  expect(w.violations).toEqual([]);
  expect(w.errors.filter((e) => !expected.some((x) => x.test(e)))).toEqual([]);
  expect(w.requested.filter((url) => new URL(url).origin !== origin)).toEqual([]);
}

/** The page built from the API: its documents' section is there. */
async function opened(page: Page, url: string): Promise<void> {
  const answer = await page.goto(url);
  expect(answer?.status()).toBe(200);
  await page.locator('.documents').waitFor();
}

/** What a link that opens nothing shows: the status, the heading and the words. */
async function deadPage(page: Page, url: string) {
  const answer = await page.goto(url);
  await page.locator('h1').waitFor();
  return {
    status: answer?.status(),
    title: await page.title(),
    h1: await page.locator('h1').textContent(),
    text: (await page.locator('body').innerText()).replace(/\s+/g, ' ').trim(),
  };
}

/** The page as it is, every image loaded, kept as an artifact. */
async function screenshot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => {
    const images = (
      globalThis as unknown as {
        document: {
          querySelectorAll(s: string): ArrayLike<{ loading: string; decode(): Promise<void> }>;
        };
      }
    ).document.querySelectorAll('img');
    return Promise.all(
      Array.from(images, (img) => {
        img.loading = 'eager';
        return img.decode().catch(() => undefined);
      }),
    );
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  expect(statSync(path).size).toBeGreaterThan(10_000);
}

/** The seal job of a case finished (its id is `seal-<caseId>`); rejects when it fails. */
function sealOf(caseId: string): Promise<void> {
  const jobId = `seal-${caseId}`;
  return new Promise<void>((resolve, reject) => {
    const completed = (e: { jobId: string }) => {
      if (e.jobId !== jobId) return;
      stop();
      resolve();
    };
    const failed = (e: { jobId: string; failedReason: string }) => {
      if (e.jobId !== jobId) return;
      stop();
      reject(new Error(`sealing failed: ${e.failedReason}`));
    };
    const stop = () => {
      sealEvents.off('completed', completed);
      sealEvents.off('failed', failed);
    };
    sealEvents.on('completed', completed);
    sealEvents.on('failed', failed);
  });
}

const label = (p: SignaturePlace) => `${p.page} ${p.kind}:${p.recipient}`;

/** The words of `page` whose box overlaps a place's rect (PDF points, y up, page `height`). */
function wordsIn(words: Word[], place: SignaturePlace, height: number): string[] {
  const { x, y, width, height: h } = place.rect;
  const top = height - y - h;
  return words
    .filter(
      (w) =>
        w.page === place.page &&
        w.xMin < x + width &&
        w.xMax > x &&
        w.yMin < top + h &&
        w.yMax > top,
    )
    .map((w) => w.text);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('signing a case in headless Chromium, end to end', () => {
  it('two groups from a .docx template with anchors: the second waits, both draw, the seal verifies with both signatures at their anchors and the audit page last', async () => {
    const client1 = 'Alice Client';
    const supplier = 'Bob Supplier';
    const made = await makeCase({
      title: 'Service agreement 2026',
      settings: { language: 'en' },
      recipients: [
        { name: client1, email: 'alice@example.com', group: 1 },
        { name: supplier, email: 'bob@example.com', group: 2 },
      ],
      documents: [{ name: 'Service agreement', content: template.toString('base64') }],
    });
    const [aliceLink, bobLink] = made.links as [string, string];

    // Fill, LibreOffice and the places pipeline found every anchor, each on its page.
    const doc = await t.db
      .selectFrom('case_documents')
      .select(['places', 'storage_key', 'sha256', 'pages'])
      .where('case_id', '=', made.id)
      .executeTakeFirstOrThrow();
    const places = doc.places as SignaturePlace[];
    expect(places.map(label).sort()).toEqual([
      '1 date:1',
      '1 name:1',
      '1 sign:1',
      '2 date:2',
      '2 name:2',
      '2 sign:2',
    ]);
    expect(doc.pages).toBe(2);
    const placeOf = (kind: SignaturePlace['kind'], recipient: number) =>
      places.find((p) => p.kind === kind && p.recipient === recipient)!;

    // The second group first: told whom the case waits for, offered nothing to sign with, and
    // refused by the API when it tries anyway with the page's own CSRF token.
    const early = await openPage(DESKTOP);
    await opened(early.page, bobLink);
    await expect(early.page.locator('.todo.waiting .names li').allTextContents()).resolves.toEqual([
      client1,
    ]);
    await expect(early.page.locator('.todo').innerText()).resolves.toContain(
      'It is not your turn to sign yet.',
    );
    await expect(early.page.locator('canvas').count()).resolves.toBe(0);
    await expect(early.page.locator('.signing').count()).resolves.toBe(0);
    await expect(early.page.getByRole('button').count()).resolves.toBe(0);
    const refused = await early.page.evaluate(async () => {
      const g = globalThis as unknown as { location: { pathname: string } };
      const api = `${g.location.pathname.replace(/\/+$/, '')}/api`;
      const session = (await (await fetch(api)).json()) as { csrfToken: string };
      const answer = await fetch(`${api}/sign`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
        body: JSON.stringify({ method: 'typed', name: 'Bob Supplier' }),
      });
      return { status: answer.status, body: await answer.json() };
    });
    expect(refused).toEqual({
      status: 409,
      body: expect.objectContaining({ error: 'not-your-turn', waitingFor: [client1] }),
    });
    const nothingSigned = await t.db
      .selectFrom('signatures')
      .select('recipient_id')
      .where('case_id', '=', made.id)
      .execute();
    expect(nothingSigned).toEqual([]);
    expectClean(early.w, [/^409 .*\/api\/sign$/, /status of 409/]);

    // The first group on a phone: draws with the mouse and signs.
    const alice = await openPage(PHONE);
    await opened(alice.page, aliceLink);
    await expect(alice.page.locator('.place').count()).resolves.toBe(3);
    await drawSignature(alice.page);
    await screenshot(alice.page, 'phone-drawn');
    await alice.page.getByRole('button', { name: 'Sign the documents' }).click();
    await alice.page.getByRole('heading', { name: 'Thank you. You have signed.' }).waitFor();
    await expect(alice.page.locator('main').innerText()).resolves.toContain(
      'The case now waits for the others who sign.',
    );
    expectClean(alice.w);

    // The second group on a desktop, now free to sign; the last signature queues the seal.
    const sealed = sealOf(made.id);
    const bob = await openPage(DESKTOP);
    await opened(bob.page, bobLink);
    await expect(bob.page.locator('.todo.waiting').count()).resolves.toBe(0);
    await drawSignature(bob.page);
    await screenshot(bob.page, 'desktop-drawn');
    await bob.page.getByRole('button', { name: 'Sign the documents' }).click();
    await bob.page.getByRole('heading', { name: 'Thank you. You have signed.' }).waitFor();
    await expect(bob.page.locator('main').innerText()).resolves.toContain(
      'Everyone has signed now.',
    );
    expectClean(bob.w);
    await sealed;

    // The case is signed, and its read downloads the sealed PDF; the shown one is kept.
    const view = await caseService(client).getCase('acme', made.id);
    expect(view.state).toBe('signed');
    expect(view.recipients.map((r) => [r.name, r.status])).toEqual([
      [client1, 'signed'],
      [supplier, 'signed'],
    ]);
    const sealedKey = sealedDocumentKey('acme', made.id, 0);
    expect(view.documents[0]!.url).toBe(`${origin}/files/${sealedKey}`);
    const sealedPdf = (await stack.storage.get(sealedKey))!;
    expect(sealedPdf).toBeDefined();
    expect(view.documents[0]!.sha256).toBe(sha256(sealedPdf));
    const shownPdf = (await stack.storage.get(doc.storage_key!))!;
    expect(shownPdf).toBeDefined();
    expect(sha256(shownPdf)).toBe(doc.sha256);
    expect(sha256(shownPdf)).not.toBe(sha256(sealedPdf));

    const dir = testDir('docpipe-e2e-sealed-');
    const sealedFile = join(dir, 'sealed.pdf');
    const shownFile = join(dir, 'shown.pdf');
    writeFileSync(sealedFile, sealedPdf);
    writeFileSync(shownFile, shownPdf);

    // pdfsig: one valid signature over the whole file.
    const report = execFileSync('pdfsig', [sealedFile], { encoding: 'utf8' });
    expect(report).toContain('Signature is Valid.');
    expect(report).toContain('Total document signed');
    expect(report).not.toContain('Signature #2');

    // Each drawing at its anchor: ink added inside the sign place's rect. Counted against the
    // shown PDF's own ink there: a 24 pt marker's rect reaches a few points into the line above,
    // whose descenders are in it already.
    const { words, heights } = bboxWords(sealedFile);
    for (const recipient of [1, 2]) {
      const place = placeOf('sign', recipient);
      const height = heights[place.page - 1]!;
      const before = inkIn(shownFile, place, height);
      expect(inkIn(sealedFile, place, height) - before, label(place)).toBeGreaterThan(200);
    }
    // The names and dates as text at theirs.
    const signedAt = await t.db
      .selectFrom('signatures')
      .innerJoin('recipients', 'recipients.id', 'signatures.recipient_id')
      .select(['recipients.position', 'signatures.signed_at', 'signatures.method'])
      .where('signatures.case_id', '=', made.id)
      .orderBy('recipients.position')
      .execute();
    expect(signedAt.map((s) => s.method)).toEqual(['draw', 'draw']);
    for (const [recipient, name] of [
      [1, client1],
      [2, supplier],
    ] as const) {
      const namePlace = placeOf('name', recipient);
      expect(wordsIn(words, namePlace, heights[namePlace.page - 1]!).join(' ')).toBe(name);
      const datePlace = placeOf('date', recipient);
      // The day as the e-mails and the page write a date, in the installation's zone.
      expect(wordsIn(words, datePlace, heights[datePlace.page - 1]!).join(' ')).toBe(
        writtenDate(signedAt[recipient - 1]!.signed_at, 'en', 'Europe/Copenhagen'),
      );
    }
    // No marker is left anywhere.
    expect(words.filter((w) => /DP[SIND]\d{5}/.test(w.text))).toEqual([]);

    // The audit page last: both names under the audit trail's title.
    const pages = await pdfPages(sealedPdf);
    expect(pages).toBeGreaterThanOrEqual(3);
    const last = execFileSync(
      'pdftotext',
      ['-enc', 'UTF-8', '-f', String(pages), '-l', String(pages), sealedFile, '-'],
      { encoding: 'utf8' },
    );
    expect(last).toContain(AUDIT_WORDING.en.title);
    expect(last).toContain(client1);
    expect(last).toContain(supplier);
    expect(last).toContain(AUDIT_WORDING.en.methods.draw);

    // A used link then tells its signer that she signed, and how the signed copy came; a wrong
    // token is still the dead link's page.
    const again = await openPage(DESKTOP);
    const reused = await deadPage(again.page, aliceLink);
    const wrong = await deadPage(again.page, `${origin}/sign/${'A'.repeat(43)}`);
    expect(reused.status).toBe(200);
    expect(reused.h1).toBe('You have signed');
    expect(reused.text).toContain('You signed “Service agreement 2026” on ');
    expect(reused.text).toContain(
      'Everyone has signed, and the documents are sealed so that they cannot be changed. The signed copy has been sent to you by e-mail.',
    );
    expect(wrong.status).toBe(404);
    expect(wrong.h1).toBe('This link does not work');
  });

  it('denies through the page: the case ends denied, and the other recipient’s link shows the dead link’s page', async () => {
    const made = await makeCase({
      title: 'Agreement to decline',
      settings: { language: 'en' },
      recipients: [
        { name: 'Carol Declines', email: 'carol@example.com', group: 1 },
        { name: 'Dave Later', email: 'dave@example.com', group: 2 },
      ],
      documents: [{ name: 'Agreement', content: await onePagePdf() }],
    });
    const [carolLink, daveLink] = made.links as [string, string];
    const { page, w } = await openPage(PHONE);
    await opened(page, carolLink);
    await page.getByRole('button', { name: 'Decline to sign' }).click();
    const dialog = page.getByRole('dialog', { name: 'Decline to sign' });
    await dialog.waitFor();
    await page.getByLabel('Reason').fill('The fee is not what we agreed.');
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await page.getByRole('heading', { name: 'You have declined to sign.' }).waitFor();
    expectClean(w);

    const kase = await t.db
      .selectFrom('cases')
      .select(['state', 'active_group'])
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(kase).toEqual({ state: 'denied', active_group: null });
    const carol = await t.db
      .selectFrom('recipients')
      .select(['status', 'denial_reason'])
      .where('case_id', '=', made.id)
      .where('position', '=', 0)
      .executeTakeFirstOrThrow();
    expect(carol).toEqual({ status: 'denied', denial_reason: 'The fee is not what we agreed.' });

    const other = await openPage(DESKTOP);
    const dave = await deadPage(other.page, daveLink);
    const wrong = await deadPage(other.page, `${origin}/sign/${'B'.repeat(43)}`);
    expect(dave.status).toBe(404);
    expect(dave.h1).toBe('This link does not work');
    expect(dave).toEqual(wrong);
  });
});

async function onePagePdf(): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText('The consultant delivers the work described in the annex.', {
    x: 72,
    y: 760,
    size: 11,
    font,
  });
  return Buffer.from(await doc.save()).toString('base64');
}
