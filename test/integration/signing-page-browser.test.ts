import { randomUUID } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import { DocpipeMetrics } from '../../src/base/metrics/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { writtenDate } from '../../src/base/util/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { decodePng } from '../../src/formats/raster/index.js';
import { DocpipeClient, DocpipeWorker } from '../../src/jobs/queue/index.js';
import { createRedis } from '../../src/platform/redis/index.js';
import { Renderer } from '../../src/render/pipeline/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import type { HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { buildHttpServer } from '../../src/surfaces/http/server.js';
import { leaseTags } from '../helpers/lease.js';
import {
  BODY_LIMIT,
  call,
  startConformanceStack,
  type ConformanceStack,
} from './cases-conformance-stack.js';

/**
 * A recipient's signing page in headless Chromium (Debian's, driven by playwright-core as in
 * dashboard-browser.test.ts), over a real socket, as the recipient would use it: one server for
 * the file (real PostgreSQL, Redis, worker and LibreOffice), its cases made over HTTP. What only
 * a browser shows: the page's script builds the page from the API, the page images and the logo
 * load, the recipient's places sit over them, the policy refuses nothing the page uses, it asks
 * no other site for anything, it fits a phone, and a signer can draw with the mouse, sign with
 * the keyboard alone, decline, or wait for their turn.
 */

/** Kept after the run (git ignores test/results/): what the recipient saw. */
const SCREENSHOTS = join(projectRoot(), 'test', 'results', 'signing-page-browser');

/** The lease's signature line on its second page, in PDF points: where {sign:N} would be. */
const SIGN_RECT = { x: 72, y: 120, width: 173, height: 24 };
const JONAS_RECT = { x: 320, y: 120, width: 173, height: 24 };
/**
 * A signer's places on consecutive lines, as the pipeline finds them for a template's
 * `Signed for the client: {sign:1}` line followed by `Name: {name:1}` and `Date: {date:1}` (as
 * in the e2e lease): a 24 pt marker's box, then two 10 pt ones a line apart, each top just under
 * the box above; stackedPdf draws the words before them.
 */
const STACKED = [
  { kind: 'sign', rect: { x: 180, y: 560, width: 173, height: 28 } },
  { kind: 'name', rect: { x: 104, y: 547, width: 144, height: 11.5 } },
  { kind: 'date', rect: { x: 100, y: 535, width: 84, height: 11.5 } },
] as const;
/** The lease case's settings.message, as its sender wrote it: two lines, and markup as text. */
const LEASE_MESSAGE = 'Husk at læse § 4 om depositum.\n<b>Venlig hilsen</b> Owner';
const DRAW = 'draw';
const MITID = 'urn:grn:authn:dk:mitid:substantial';

let s: ConformanceStack;
let browser: Browser;
let app: HttpApp;
let origin: string;
let connection: Redis;
let worker: DocpipeWorker;
let client: DocpipeClient;

/** The file's cases, made once in beforeAll: each recipient's signingUrl. */
const links = {
  /** Danish (globex has no language), the lease, a logo: Mette signs in group 1, Jonas in 2. */
  mette: '',
  jonas: '',
  /** English, an uploaded two-page PDF that must be read, one signer. */
  typed: '',
  /** English, as above, to decline. */
  deny: '',
  /** English, as above, its signer's places on consecutive lines of page 1. */
  stacked: '',
};
/** The logo the lease case shows, 120 x 40 pixels. */
let logoPng: Buffer;

beforeAll(async () => {
  [s, browser] = await Promise.all([
    startConformanceStack(),
    chromium.launch({ executablePath: '/usr/bin/chromium', headless: true }),
  ]);
  // One worker lane for the file (the stack's lanes belong to a test each).
  const prefix = `signing-browser-${randomUUID()}`;
  connection = createRedis(s.stack.url, 'worker');
  const library = new FolderLibrary(s.libraryDir);
  worker = await DocpipeWorker.start({
    redisUrl: s.stack.url,
    prefix,
    concurrency: 2,
    renderer: new Renderer({
      preparer: s.stack.preparer,
      converter: s.stack.office,
      storage: s.stack.storage,
    }),
    storage: s.stack.storage,
    library,
  });
  client = await DocpipeClient.connect({
    redisUrl: s.stack.url,
    prefix,
    storage: s.stack.storage,
    backoffMs: 200,
  });
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    DOCPIPE_SIGNING_SECRET: 'a-test-signing-secret-of-32-chars',
    DOCPIPE_QUEUE_PREFIX: prefix,
    DOCPIPE_TEMPLATES_DIR: s.libraryDir,
    DOCPIPE_HTTP_BODY_LIMIT_BYTES: String(BODY_LIMIT),
  });
  // globex has no signing domain: its links are on the service's own public URL (rule 7).
  app = await buildHttpServer({
    config,
    publicUrl: origin,
    redis: connection,
    redisUrl: s.stack.url,
    db: s.t.db,
    keys: s.keys,
    client,
    storage: s.stack.storage,
    library,
    preparer: new InlinePreparer(),
    metrics: new DocpipeMetrics({ queues: [], processMetrics: false }),
    checks: {},
    queues: [],
  });
  await app.listen({ port, host: '127.0.0.1' });

  const logo = new PNG({ width: 120, height: 40 });
  for (let i = 0; i < logo.data.length; i += 4) logo.data.set([29, 78, 216, 255], i);
  logoPng = PNG.sync.write(logo);
  const pdf = await twoPagePdf();
  const stackedPdfBase64 = await stackedPdf();
  const [lease, typed, deny, stacked] = await Promise.all([
    makeCase({
      title: 'Lejekontrakt for Nørrebrogade 12',
      settings: { logo: logoPng.toString('base64'), message: LEASE_MESSAGE },
      recipients: [
        { name: 'Mette Sørensen', email: 'mette@example.com', group: 1 },
        { name: 'Jonas Holm', email: 'jonas@example.com', group: 2 },
      ],
      documents: [{ name: 'Lejekontrakt', documentId: 'lease', tags: leaseTags }],
    }),
    makeCase({
      title: 'Consulting agreement',
      settings: { language: 'en' },
      recipients: [{ name: 'Kim Typed', email: 'kim@example.com' }],
      documents: [{ name: 'Agreement', content: pdf }],
    }),
    makeCase({
      title: 'Consulting agreement to decline',
      settings: { language: 'en' },
      recipients: [{ name: 'Dana Declines', email: 'dana@example.com' }],
      documents: [{ name: 'Agreement', content: pdf }],
    }),
    makeCase({
      title: 'Consulting agreement, signed at the foot',
      settings: { language: 'en' },
      recipients: [{ name: 'Sam Stacked', email: 'sam@example.com' }],
      documents: [{ name: 'Agreement', content: stackedPdfBase64 }],
    }),
  ]);
  links.mette = lease.links[0]!;
  links.jonas = lease.links[1]!;
  links.typed = typed.links[0]!;
  links.deny = deny.links[0]!;
  links.stacked = stacked.links[0]!;
  // What the pipeline and the case body store for a document with anchors and
  // documentMustBeRead: the places of both signers on the lease's last page, and reading first.
  await s.t.db
    .updateTable('case_documents')
    .set({
      must_be_read: true,
      places: JSON.stringify([
        { kind: 'sign', recipient: 1, page: 2, rect: SIGN_RECT },
        { kind: 'sign', recipient: 2, page: 2, rect: JONAS_RECT },
      ]),
    })
    .where('case_id', '=', lease.id)
    .execute();
  await s.t.db
    .updateTable('case_documents')
    .set({ must_be_read: true })
    .where('case_id', 'in', [typed.id, deny.id])
    .execute();
  await s.t.db
    .updateTable('case_documents')
    .set({
      places: JSON.stringify(STACKED.map((p) => ({ ...p, recipient: 1, page: 1 }))),
    })
    .where('case_id', '=', stacked.id)
    .execute();
  // The case to decline may also be signed with MitID (as a case names it when a broker serves
  // it; this stack has none, so the case could not be made with it).
  await s.t.db
    .updateTable('cases')
    .set({ signing_schemas: JSON.stringify([DRAW, MITID]) })
    .where('id', '=', deny.id)
    .execute();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await client?.close();
  await worker?.close(5000);
  connection?.disconnect();
  await s?.close();
});

/** A free port on the loopback, so that the server's public URL is where it listens. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function twoPagePdf(): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const n of [1, 2]) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Agreement, page ${n}`, { x: 72, y: 760, size: 20, font });
    for (let line = 0; line < 30; line++)
      page.drawText('The consultant delivers the work described in the annex.', {
        x: 72,
        y: 720 - line * 18,
        size: 11,
        font,
      });
  }
  return Buffer.from(await doc.save()).toString('base64');
}

/** Two pages, the first ending in a signature block whose places are STACKED's. */
async function stackedPdf(): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText('Agreement', { x: 72, y: 760, size: 20, font });
  for (let line = 0; line < 9; line++)
    page.drawText('The consultant delivers the work described in the annex.', {
      x: 72,
      y: 720 - line * 14,
      size: 11,
      font,
    });
  for (const [text, y] of [
    ['Signed for the client:', 566],
    ['Name:', 549.5],
    ['Date:', 537.5],
  ] as const)
    page.drawText(text, { x: 72, y, size: 10, font });
  doc.addPage([595, 842]).drawText('Annex', { x: 72, y: 760, size: 20, font });
  return Buffer.from(await doc.save()).toString('base64');
}

async function makeCase(body: Record<string, unknown>): Promise<{ id: string; links: string[] }> {
  const res = await call(app, 'POST', '/v3/api/cases', s.globex.key, body);
  expect(res.status, res.raw).toBe(201);
  const made = res.body.case as { id: string; recipients: { signingUrl: string }[] };
  for (const r of made.recipients) expect(new URL(r.signingUrl).origin).toBe(origin);
  return { id: made.id, links: made.recipients.map((r) => r.signingUrl) };
}

/** What the page did that it must not: console errors, CSP refusals, other origins asked. */
interface Watch {
  errors: string[];
  violations: string[];
  requested: string[];
}

/** A page of a context of its own (closed when the test ends), watched from its first request. */
async function openPage(options: Parameters<Browser['newContext']>[0] = {}): Promise<{
  page: Page;
  w: Watch;
}> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  onTestFinished(() => context.close());
  const page = await context.newPage();
  // What the Content-Security-Policy refuses is reported to the page as well as the console.
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

/** Nothing refused, nothing failed, nothing asked of another origin. */
function expectClean(w: Watch): void {
  expect(w.violations).toEqual([]);
  expect(w.errors).toEqual([]);
  expect(w.requested.filter((url) => new URL(url).origin !== origin)).toEqual([]);
}

/** The page built from the API: its documents' section is there. */
async function opened(page: Page, url: string): Promise<void> {
  const answer = await page.goto(url);
  expect(answer?.status()).toBe(200);
  await page.locator('.documents').waitFor();
}

/** Each page image scrolled into view (they load lazily) and its natural width once loaded. */
async function imageWidths(page: Page): Promise<number[]> {
  const images = page.locator('.page img');
  const n = await images.count();
  const widths: number[] = [];
  for (let i = 0; i < n; i++) {
    const image = images.nth(i);
    await image.scrollIntoViewIfNeeded();
    // Settled: loaded (a width) or failed (complete with none); either way it answers.
    await image.evaluate(
      (el) =>
        new Promise<void>((resolve) => {
          const img = el as unknown as {
            complete: boolean;
            addEventListener(type: string, f: () => void): void;
          };
          if (img.complete) resolve();
          else {
            img.addEventListener('load', () => resolve());
            img.addEventListener('error', () => resolve());
          }
        }),
    );
    widths.push(
      await image.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth),
    );
  }
  return widths;
}

/** Two frames: what a scroll or a key press changes has been drawn and checked. */
const frames = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const g = globalThis as unknown as { requestAnimationFrame(f: () => void): void };
        g.requestAnimationFrame(() => g.requestAnimationFrame(() => resolve()));
      }),
  );

/** Whether an element has the focus (for `locator.evaluate`). */
const hasFocus = (el: unknown) =>
  el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement;

/** The page as it is, every page image loaded (lazy ones too), kept as an artifact. */
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

/** The API's answer for a link, as the page would get it. */
async function load(link: string): Promise<number> {
  return (await fetch(`${link}/api`)).status;
}

async function signatureOf(name: string) {
  return s.t.db
    .selectFrom('signatures')
    .innerJoin('recipients', 'recipients.id', 'signatures.recipient_id')
    .select(['signatures.method', 'signatures.image', 'signatures.typed_name'])
    .where('recipients.name', '=', name)
    .execute();
}

describe('a signing page in headless Chromium', () => {
  it('shows a Danish case: title, sender, logo, recipient, every page image, her place on page 2, reading before signing; nothing refused, nothing from elsewhere', async () => {
    const { page, w } = await openPage();
    await opened(page, links.mette);
    await expect(page.title()).resolves.toBe('Lejekontrakt for Nørrebrogade 12');
    await expect(page.locator('h1').textContent()).resolves.toBe(
      'Lejekontrakt for Nørrebrogade 12',
    );
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('da');
    const text = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
    // globex has no language of its own: the case is Danish.
    for (const words of [
      'Fra Owner of globex (owner@globex.example)',
      'Du underskriver som Mette Sørensen',
      'Sådan gør du',
      'Læs dokumenterne herunder',
      'Dokumenter',
      'Side 1 af 2',
      'Side 2 af 2 · Dine felter på denne side: Underskriv her',
      'Underskriv dokumenterne',
      'Skriv dit navn i stedet',
      'Afvis at underskrive',
    ])
      expect(text).toContain(words);
    expect(text).not.toContain('Jonas');
    // The sender's message, as the invitation has it: its lines kept, its markup as text.
    await expect(page.locator('.message h2').textContent()).resolves.toBe(
      'Besked fra Owner of globex',
    );
    await expect(page.locator('.message-text').innerText()).resolves.toBe(LEASE_MESSAGE);
    await expect(page.locator('.message b').count()).resolves.toBe(0);
    // The expiry as the e-mails write it: Danish, the installation's zone (DOCPIPE_TIME_ZONE).
    const { expires_at } = await s.t.db
      .selectFrom('cases')
      .select('expires_at')
      .where('title', '=', 'Lejekontrakt for Nørrebrogade 12')
      .executeTakeFirstOrThrow();
    const expiresOn = writtenDate(expires_at, 'da', 'Europe/Copenhagen');
    expect(expiresOn).toMatch(/^\d{1,2}\. [a-zæøå]+ \d{4}$/);
    expect(text).toContain(`Underskriv senest ${expiresOn}`);

    const logo = page.locator('img.logo');
    await expect(
      logo.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth),
    ).resolves.toBe(120);

    // The lease renders to two pages (templates/lease's fixture).
    const widths = await imageWidths(page);
    expect(widths).toHaveLength(2);
    for (const width of widths) expect(width).toBeGreaterThan(700);

    // Her place, over page 2 where its rect says: percentages of the page, top from y up.
    const place = page.locator('.place-sign');
    await expect(place.count()).resolves.toBe(1);
    await expect(place.textContent()).resolves.toBe('Underskriv her');
    const geometry = await page
      .locator('.page')
      .nth(1)
      .evaluate((figure) => {
        const f = figure as unknown as {
          querySelector(s: string): {
            naturalWidth: number;
            naturalHeight: number;
            getBoundingClientRect(): { left: number; top: number; width: number; height: number };
          };
        };
        const img = f.querySelector('img');
        const box = f.querySelector('.place');
        return {
          natural: [img.naturalWidth, img.naturalHeight],
          img: img.getBoundingClientRect(),
          box: box.getBoundingClientRect(),
        };
      });
    const [pxWidth, pxHeight] = geometry.natural as [number, number];
    const scale = geometry.img.width / ((pxWidth * 72) / 96);
    const pageHeightPt = (pxHeight * 72) / 96;
    expect(geometry.box.left - geometry.img.left).toBeCloseTo(SIGN_RECT.x * scale, 0);
    expect(geometry.box.top - geometry.img.top).toBeCloseTo(
      (pageHeightPt - SIGN_RECT.y - SIGN_RECT.height) * scale,
      0,
    );
    expect(geometry.box.width).toBeCloseTo(SIGN_RECT.width * scale, 0);
    expect(geometry.box.height).toBeCloseTo(SIGN_RECT.height * scale, 0);

    // imageWidths scrolled to the last page: the document is read, and signing is open.
    await expect(page.locator('.read-state').textContent()).resolves.toBe('Læst');
    await expect(
      page.getByRole('button', { name: 'Underskriv dokumenterne' }).isEnabled(),
    ).resolves.toBe(true);

    await page.evaluate(() =>
      (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
    );
    await screenshot(page, 'desktop');
    expect(w.requested.map((url) => new URL(url).pathname)).toEqual(
      expect.arrayContaining([
        '/sign/assets/signing.css',
        '/sign/assets/signature_pad.js',
        '/sign/assets/signing.js',
        `${new URL(links.mette).pathname}/api`,
        `${new URL(links.mette).pathname}/logo`,
      ]),
    );
    expectClean(w);
  });

  it('fits a phone: no horizontal overflow, the page images and the signature pad within the width', async () => {
    const { page, w } = await openPage({
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    await opened(page, links.mette);
    // Not read yet: the last page is far below a phone's window.
    await expect(
      page.getByRole('button', { name: 'Underskriv dokumenterne' }).isDisabled(),
    ).resolves.toBe(true);
    await expect(page.locator('.read-hint').textContent()).resolves.toBe(
      'Læs først hvert dokument til sidste side: 0 af 1 læst.',
    );
    const widths = await imageWidths(page);
    expect(widths).toHaveLength(2);
    await page.locator('canvas').scrollIntoViewIfNeeded();
    const fit = await page.evaluate(() => {
      const d = (
        globalThis as unknown as {
          document: {
            documentElement: { scrollWidth: number; clientWidth: number };
            querySelector(s: string): {
              width: number;
              getBoundingClientRect(): { right: number; width: number };
            };
            querySelectorAll(s: string): ArrayLike<{ getBoundingClientRect(): { right: number } }>;
          };
        }
      ).document;
      const rights = Array.from(d.querySelectorAll('main *')).map((el) =>
        Math.ceil(el.getBoundingClientRect().right),
      );
      const canvas = d.querySelector('canvas');
      return {
        scrollWidth: d.documentElement.scrollWidth,
        clientWidth: d.documentElement.clientWidth,
        widest: Math.max(...rights),
        pad: canvas.getBoundingClientRect().width,
        padPixels: canvas.width,
      };
    });
    expect(fit.clientWidth).toBe(360);
    expect(fit.scrollWidth).toBeLessThanOrEqual(fit.clientWidth);
    expect(fit.widest).toBeLessThanOrEqual(fit.clientWidth);
    expect(fit.pad).toBeGreaterThan(280);
    // Drawn at the screen's density, so that a finger's line is sharp.
    expect(Math.abs(fit.padPixels - fit.pad * 2)).toBeLessThanOrEqual(2);
    await page.evaluate(() =>
      (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
    );
    await screenshot(page, 'phone');
    expectClean(w);
  });

  for (const [device, options] of [
    ['phone', { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true }],
    ['desktop', { viewport: { width: 1280, height: 900 } }],
  ] as const)
    it(`marks places on consecutive lines on a ${device} without one label over another or over the line above`, async () => {
      const { page, w } = await openPage(options);
      await opened(page, links.stacked);
      await imageWidths(page);
      await frames(page);
      const marks = await page
        .locator('.page')
        .first()
        .evaluate((figure) => {
          type Rect = { left: number; top: number; right: number; bottom: number };
          type Node = { getBoundingClientRect(): Rect; querySelector(s: string): Node };
          const g = globalThis as unknown as {
            getComputedStyle(e: unknown): { display: string; visibility: string };
          };
          const boxes = Array.from(
            (
              figure as unknown as { querySelectorAll(s: string): ArrayLike<Node> }
            ).querySelectorAll('.place'),
          );
          const rect = (n: Node) => {
            const { left, top, right, bottom } = n.getBoundingClientRect();
            return { left, top, right, bottom };
          };
          return boxes.map((box) => {
            const label = box.querySelector('span');
            const style = g.getComputedStyle(label);
            return {
              box: rect(box),
              label: rect(label),
              shown: style.display !== 'none' && style.visibility === 'visible',
            };
          });
        });
      expect(marks).toHaveLength(3);
      for (const m of marks) expect(m.box.bottom - m.box.top).toBeGreaterThan(4);
      const shown = marks.filter((m) => m.shown);
      // A phone has room for the sign place's label; a desktop for every label.
      expect(shown.length).toBeGreaterThanOrEqual(device === 'phone' ? 1 : 3);
      expect(marks[0]!.shown).toBe(true);
      for (const { box, label } of shown) {
        // Not over the line above (nor beside or below its place): inside its box.
        expect(label.top).toBeGreaterThanOrEqual(box.top - 0.5);
        expect(label.bottom).toBeLessThanOrEqual(box.bottom + 0.5);
        expect(label.left).toBeGreaterThanOrEqual(box.left - 0.5);
        expect(label.right).toBeLessThanOrEqual(box.right + 0.5);
      }
      for (let i = 0; i < shown.length; i++)
        for (let j = i + 1; j < shown.length; j++) {
          const [a, b] = [shown[i]!.label, shown[j]!.label];
          const apart =
            a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
          expect(apart, `label ${i} and ${j} overlap: ${JSON.stringify([a, b])}`).toBe(true);
        }
      // Every place in words under the page, whether its label fits or not.
      await expect(page.locator('.page figcaption').first().textContent()).resolves.toBe(
        'Page 1 of 2 · Your places on this page: Sign here, Your name here, Date here',
      );
      await screenshot(page, `${device}-stacked`);
      expectClean(w);
    });

  it('shows a second-group signer who the case waits for, and no way to sign before it is his turn', async () => {
    const { page, w } = await openPage({ viewport: { width: 360, height: 740 } });
    await opened(page, links.jonas);
    const todo = (await page.locator('.todo').innerText()).replace(/\s+/g, ' ');
    expect(todo).toContain('Det er ikke din tur til at underskrive endnu. Sagen venter på:');
    await expect(page.locator('.todo .names li').allTextContents()).resolves.toEqual([
      'Mette Sørensen',
    ]);
    // His own place is marked, hers is not shown to him.
    await expect(page.locator('.place-sign').count()).resolves.toBe(1);
    await expect(page.locator('canvas').count()).resolves.toBe(0);
    await expect(page.getByRole('button').count()).resolves.toBe(0);
    await expect(page.locator('.signing').count()).resolves.toBe(0);
    await screenshot(page, 'phone-waiting');
    expectClean(w);
  });

  it('says once why an eID login came back without a signature', async () => {
    const { page, w } = await openPage();
    await opened(page, `${links.jonas}?eid=unavailable`);
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'eID-tjenesten svarer ikke lige nu. Prøv igen om et par minutter.',
    );
    // Gone from the address, so that a reload does not say it again.
    expect(page.url()).toBe(links.jonas);
    expectClean(w);
  });

  it('says whose name a typed signature must be before it is typed, and refuses another in Danish alone', async () => {
    const { page, w } = await openPage();
    await opened(page, links.mette);
    await page.locator('.page').last().scrollIntoViewIfNeeded();
    await frames(page);
    await page.getByRole('button', { name: 'Skriv dit navn i stedet' }).click();
    const field = page.getByLabel('Skriv dit navn, som det står i sagen: Mette Sørensen');
    await expect(field.isVisible()).resolves.toBe(true);
    await expect(page.locator('#typed-hint').textContent()).resolves.toBe(
      'Du må gerne tilføje mellemnavne. Dit skrevne navn er din underskrift.',
    );
    await field.fill('Jonas Holm');
    await field.press('Enter');
    const alert = page.locator('.signing .problem').first();
    await page.getByText('Navnet kan ikke bruges som din underskrift.').waitFor();
    await expect(alert.textContent()).resolves.toBe(
      'Navnet kan ikke bruges som din underskrift. Skriv dit navn, som det står i sagen: Mette Sørensen (du må gerne tilføje mellemnavne). Skal en anden underskrive, så bed afsenderen om at rette sagen.',
    );
    await expect(page.locator('main').innerText()).resolves.not.toMatch(
      /must be|the name the case has|could not be used/,
    );
    await expect(signatureOf('Mette Sørensen')).resolves.toEqual([]);
    // The one failure is the refusal's own answer (its response and its console line).
    expect(w.errors.length).toBeGreaterThan(0);
    expect(w.errors.filter((e) => !(e.includes('400') && e.includes('/api/sign')))).toEqual([]);
    expect(w.violations).toEqual([]);
  });

  it('clears the draw-first error on switching to a typed name, and lines up the two switches', async () => {
    const { page } = await openPage();
    await opened(page, links.mette);
    await page.locator('.page').last().scrollIntoViewIfNeeded();
    await frames(page);
    const alert = page.locator('.signing .problem').first();
    await page.getByRole('button', { name: 'Underskriv dokumenterne' }).click();
    await page.getByText('Tegn din underskrift først, eller skriv dit navn i stedet.').waitFor();
    const toTyped = page.getByRole('button', { name: 'Skriv dit navn i stedet' });
    const typedAt = await toTyped.boundingBox();
    await toTyped.click();
    await expect(alert.textContent()).resolves.toBe('');
    const drawAt = await page.getByRole('button', { name: 'Tegn i stedet' }).boundingBox();
    expect(drawAt?.x).toBe(typedAt?.x);
  });

  it('signs a drawing made with the mouse; then the second group may sign and the used link says she has signed', async () => {
    const { page, w } = await openPage();
    await opened(page, links.mette);
    const sign = page.getByRole('button', { name: 'Underskriv dokumenterne' });
    await expect(sign.isDisabled()).resolves.toBe(true);
    await page.locator('.page').last().scrollIntoViewIfNeeded();
    await frames(page);
    await expect(sign.isEnabled()).resolves.toBe(true);

    // An empty pad is not sent: the page says what to do.
    await sign.click();
    await expect(page.locator('.signing .problem').first().textContent()).resolves.toBe(
      'Tegn din underskrift først, eller skriv dit navn i stedet.',
    );

    const canvas = page.locator('canvas');
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + 30, box.y + box.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 24; i++)
      await page.mouse.move(
        box.x + 30 + i * 15,
        box.y + box.height / 2 + Math.sin(i / 2) * (box.height / 4),
      );
    await page.mouse.up();
    await sign.click();
    const thanks = page.getByRole('heading', { name: 'Tak. Du har underskrevet.' });
    await thanks.waitFor();
    await expect(page.locator('main').innerText()).resolves.toContain(
      'Sagen venter nu på de andre, der skal underskrive.',
    );
    await expect(thanks.evaluate(hasFocus)).resolves.toBe(true);

    // What was kept: her drawing, a PNG with ink in it.
    const [signature, ...more] = await signatureOf('Mette Sørensen');
    expect(more).toEqual([]);
    expect(signature!.method).toBe('draw');
    const image = decodePng(signature!.image!, 'signature');
    expect(image.width).toBeGreaterThan(300);
    let ink = 0;
    for (let i = 3; i < image.data.length; i += 4) if (image.data[i]! > 0) ink++;
    expect(ink).toBeGreaterThan(200);

    // Her link opens nothing to act on; its page says she has signed, and what comes next.
    expect(await load(links.mette)).toBe(404);
    const receipt = await page.goto(links.mette);
    expect(receipt?.status()).toBe(200);
    await expect(page.locator('h1').textContent()).resolves.toBe('Du har underskrevet');
    const said = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
    expect(said).toContain('Du underskrev »Lejekontrakt for Nørrebrogade 12« den ');
    expect(said).toContain(
      'Sagen venter nu på, at de andre underskriver. Når alle har underskrevet, får du den underskrevne kopi på e-mail.',
    );
    const next = await openPage();
    await opened(next.page, links.jonas);
    await expect(next.page.locator('.todo.waiting').count()).resolves.toBe(0);
    await expect(next.page.locator('canvas').count()).resolves.toBe(1);
    expectClean(w);
    expectClean(next.w);
  });

  it('signs with a typed name by keyboard alone, in English, with the focus always visible', async () => {
    const { page, w } = await openPage({ viewport: { width: 1280, height: 900 } });
    await opened(page, links.typed);
    const text = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('What to do');
    expect(text).toContain('Read to the last page before signing');
    const sign = page.getByRole('button', { name: 'Sign the documents' });
    await expect(sign.isDisabled()).resolves.toBe(true);
    // Paging through with the keyboard reads the document.
    for (let i = 0; i < 10 && (await sign.isDisabled()); i++) {
      await page.keyboard.press('PageDown');
      await frames(page);
    }
    await expect(sign.isEnabled()).resolves.toBe(true);
    await expect(page.locator('.read-hint').textContent()).resolves.toBe(
      'You have read the documents.',
    );

    /** The focused element's text, and whether it is drawn with an outline. */
    const focused = () =>
      page.evaluate(() => {
        const d = (
          globalThis as unknown as {
            document: { activeElement: { textContent: string; id: string; tagName: string } };
            getComputedStyle(e: unknown): { outlineStyle: string; outlineWidth: string };
          }
        ).document;
        const el = d.activeElement;
        const style = (
          globalThis as unknown as {
            getComputedStyle(e: unknown): { outlineStyle: string; outlineWidth: string };
          }
        ).getComputedStyle(el);
        return {
          name: `${el.tagName}:${el.id || el.textContent.trim()}`,
          outlined: style.outlineStyle !== 'none' && style.outlineWidth !== '0px',
        };
      });
    const order: string[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      const f = await focused();
      expect(f.outlined, f.name).toBe(true);
      order.push(f.name);
    }
    // The pad's alternative comes right after Clear; no eID is configured, so none is offered.
    expect(order).toEqual([
      'BUTTON:Clear',
      'BUTTON:Type your name instead',
      'BUTTON:Sign the documents',
      'BUTTON:Decline to sign',
    ]);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await expect(focused()).resolves.toMatchObject({ name: 'BUTTON:Type your name instead' });
    await page.keyboard.press('Enter');
    await expect(focused()).resolves.toMatchObject({ name: 'INPUT:typed-name' });
    await expect(
      page.getByLabel('Type your name as the case has it: Kim Typed').isVisible(),
    ).resolves.toBe(true);
    // A middle name the sender did not write is still the signer's own name.
    await page.keyboard.type('Kim Alexander Typed');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Thank you. You have signed.' }).waitFor();
    await expect(page.locator('main').innerText()).resolves.toContain('Everyone has signed now.');
    await expect(signatureOf('Kim Typed')).resolves.toEqual([
      { method: 'typed', image: null, typed_name: 'Kim Alexander Typed' },
    ]);
    expectClean(w);
  });

  it('declines with a reason given in the dialog; the case is then closed to the link', async () => {
    const { page, w } = await openPage({ viewport: { width: 360, height: 740 }, isMobile: true });
    await opened(page, links.deny);
    // Its eID button starts the login by navigating to the API's eidStart; not before reading.
    const mitid = page.getByRole('link', { name: 'Sign with MitID' });
    await expect(mitid.getAttribute('href')).resolves.toBe(
      `${links.deny}/eid?scheme=${encodeURIComponent(MITID)}`,
    );
    await expect(mitid.getAttribute('aria-disabled')).resolves.toBe('true');
    await page.getByRole('button', { name: 'Decline to sign' }).click();
    const dialog = page.getByRole('dialog', { name: 'Decline to sign' });
    await dialog.waitFor();
    // The reason's field has the focus and its label.
    await expect(page.getByLabel('Reason').evaluate(hasFocus)).resolves.toBe(true);
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await expect(dialog.getByRole('alert').textContent()).resolves.toBe('Write a reason first.');
    await page.keyboard.type('The fee in § 4 is not what we agreed <b>.');
    // Clicking the opener scrolled past the document: read, so the eID button is open too.
    await expect(mitid.getAttribute('aria-disabled')).resolves.toBe('false');
    await screenshot(page, 'phone-decline');
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await page.getByRole('heading', { name: 'You have declined to sign.' }).waitFor();
    expect(await load(links.deny)).toBe(404);
    expectClean(w);
  });

  it('shows a link that opens nothing as the same page, styled, in its own words', async () => {
    const { page, w } = await openPage();
    const answer = await page.goto(`${origin}/sign/${'A'.repeat(43)}`);
    expect(answer?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('This link does not work');
    // The stylesheet applies: the page is not the browser's default serif on white.
    await expect(
      page.evaluate(() => {
        const g = globalThis as unknown as {
          document: { body: unknown };
          getComputedStyle(e: unknown): { backgroundColor: string };
        };
        return g.getComputedStyle(g.document.body).backgroundColor;
      }),
    ).resolves.toBe('rgb(244, 244, 245)');
    // The 404 itself is the one expected failure (its response and its console line).
    expect(w.errors.length).toBeGreaterThan(0);
    expect(w.errors.filter((e) => !e.includes('404'))).toEqual([]);
    expect(w.violations).toEqual([]);
    expect(w.requested.map((url) => new URL(url).pathname)).toContain('/sign/assets/signing.css');
  });
});
