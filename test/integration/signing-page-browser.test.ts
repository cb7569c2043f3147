import { mkdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { leaseTags } from '../helpers/lease.js';
import {
  call,
  caseServer,
  startConformanceStack,
  type ConformanceStack,
} from './cases-conformance-stack.js';

/**
 * A recipient's signing page in headless Chromium (Debian's, driven by playwright-core as in
 * dashboard-browser.test.ts): a case made over HTTP from the library's lease (rendered by the
 * real worker and LibreOffice), its signingUrl opened as the recipient would, over a real socket.
 * What only a browser shows: the page images really load, the page's Content-Security-Policy
 * refuses nothing it uses, it asks no other site for anything, and it fits a phone's width.
 */

/** Kept after the run (git ignores test/results/): what the recipient saw. */
const SCREENSHOTS = join(projectRoot(), 'test', 'results', 'signing-page-browser');

let s: ConformanceStack;
let browser: Browser;
beforeAll(async () => {
  [s, browser] = await Promise.all([
    startConformanceStack(),
    chromium.launch({ executablePath: '/usr/bin/chromium', headless: true }),
  ]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
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

/** The server over a real socket, and the signingUrl of a lease case's recipient. */
async function signingLink(): Promise<{ origin: string; signingUrl: string }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // globex has no signing domain: its links are on the service's own public URL (rule 7).
  const app = await caseServer(s, { publicUrl: origin });
  await app.listen({ port, host: '127.0.0.1' });
  const res = await call(app, 'POST', '/v3/api/cases', s.globex.key, {
    title: 'Lejekontrakt for Nørrebrogade 12',
    recipients: [{ name: 'Mette Sørensen', email: 'mette@example.com' }],
    documents: [{ name: 'Lejekontrakt', documentId: 'lease', tags: leaseTags }],
  });
  expect(res.status, res.raw).toBe(201);
  const signingUrl = (res.body.case as { recipients: { signingUrl: string }[] }).recipients[0]!
    .signingUrl;
  expect(new URL(signingUrl).origin).toBe(origin);
  return { origin, signingUrl };
}

/** What the page did that it must not: console errors, CSP refusals, other origins asked. */
interface Watch {
  errors: string[];
  violations: string[];
  requested: string[];
}

function watch(page: Page): Watch {
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
  return w;
}

/** Each page image scrolled into view (they load lazily) and its natural width once loaded. */
async function imageWidths(page: Page): Promise<number[]> {
  const images = page.locator('img');
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

describe('a signing page in headless Chromium', () => {
  it('shows the title, the recipient and her status, and every page image loads; nothing refused, nothing from elsewhere', async () => {
    const { origin, signingUrl } = await signingLink();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    onTestFinished(() => context.close());
    const page = await context.newPage();
    // What the Content-Security-Policy refuses is reported to the page as well as the console.
    await page.addInitScript(() => {
      const g = globalThis as unknown as {
        violations: string[];
        addEventListener(
          type: string,
          f: (e: { violatedDirective: string; blockedURI: string }) => void,
        ): void;
      };
      g.violations = [];
      g.addEventListener('securitypolicyviolation', (e) =>
        g.violations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    const w = watch(page);
    const answer = await page.goto(signingUrl);
    expect(answer?.status()).toBe(200);
    await expect(page.title()).resolves.toBe('Lejekontrakt for Nørrebrogade 12');
    await expect(page.locator('h1').textContent()).resolves.toBe(
      'Lejekontrakt for Nørrebrogade 12',
    );
    const text = (await page.locator('body').innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('Mette Sørensen');
    // globex has no language of its own: the case is Danish, and so is the status.
    expect(text).toContain('Afventer');

    const widths = await imageWidths(page);
    // The lease renders to two pages (templates/lease's fixture).
    expect(widths).toHaveLength(2);
    for (const width of widths) expect(width).toBeGreaterThan(700);

    mkdirSync(SCREENSHOTS, { recursive: true });
    const shot = join(SCREENSHOTS, 'desktop.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10_000);

    const inPage = await page.evaluate(
      () => (globalThis as unknown as { violations: string[] }).violations,
    );
    expect(inPage).toEqual([]);
    expect(w.violations).toEqual([]);
    expect(w.errors).toEqual([]);
    expect(w.requested.length).toBeGreaterThanOrEqual(3);
    expect(w.requested.filter((url) => new URL(url).origin !== origin)).toEqual([]);
  });

  it('fits a phone: no horizontal overflow, the page images within the width', async () => {
    const { signingUrl } = await signingLink();
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    onTestFinished(() => context.close());
    const page = await context.newPage();
    const w = watch(page);
    expect((await page.goto(signingUrl))?.status()).toBe(200);
    const widths = await imageWidths(page);
    expect(widths.every((width) => width > 0)).toBe(true);
    const fit = await page.evaluate(() => {
      const d = (
        globalThis as unknown as {
          document: {
            documentElement: { scrollWidth: number; clientWidth: number };
            querySelectorAll(s: string): ArrayLike<{ getBoundingClientRect(): { right: number } }>;
          };
        }
      ).document;
      const rights = Array.from(d.querySelectorAll('img, h1, dl, p')).map((el) =>
        Math.ceil(el.getBoundingClientRect().right),
      );
      return {
        scrollWidth: d.documentElement.scrollWidth,
        clientWidth: d.documentElement.clientWidth,
        widest: Math.max(...rights),
      };
    });
    expect(fit.clientWidth).toBe(360);
    expect(fit.scrollWidth).toBeLessThanOrEqual(fit.clientWidth);
    expect(fit.widest).toBeLessThanOrEqual(fit.clientWidth);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'phone.png'), fullPage: true });
    expect(w.errors).toEqual([]);
    expect(w.violations).toEqual([]);
  });
});
