import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createHttpApp } from '../../src/surfaces/http/common/create-app.js';
import { dashboardRoutes } from '../../src/surfaces/http/operations/dashboard-routes.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';
import { lease, leaseTags } from '../helpers/lease.js';

const PASSWORD = 'correct horse battery';
/** Kept after the run (git ignores test/results/): what the dashboard showed. */
const SCREENSHOTS = join(projectRoot(), 'test', 'results', 'dashboard-browser');

const tags = leaseTags;

/** What the test reads of a page's `document.fonts`. */
interface PageFonts extends Iterable<{ family: string; status: string }> {
  ready: Promise<unknown>;
}

let stack: QueueStack;
let browser: Browser;
beforeAll(async () => {
  stack = await startQueueStack();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true });
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** A lane with one document rendered by the real worker, and the dashboard over a real socket. */
async function dashboardWithFinishedJob(): Promise<{ base: string; answered: string[] }> {
  const lane = await stack.lane();
  const result = await lane.client.render({
    name: 'Lease for the dashboard',
    content: lease,
    tags,
  });
  expect(result.kind).toBe('rendered');
  expect(await lane.documents.getJobCounts('completed')).toEqual({ completed: 1 });
  const app = createHttpApp({ bodyLimit: 1024 * 1024 });
  onTestFinished(() => app.close());
  const answered: string[] = [];
  app.addHook('onResponse', async (request, reply) => {
    answered.push(`${reply.statusCode} ${request.url}`);
  });
  await app.register(dashboardRoutes, { adminPassword: PASSWORD, queues: [lane.documents] });
  return { base: await app.listen({ port: 0, host: '127.0.0.1' }), answered };
}

describe('the queue dashboard in headless Chromium', () => {
  it('loads with the admin credential, lists the documents queue and shows the finished job', async () => {
    const { base } = await dashboardWithFinishedJob();
    const context = await browser.newContext({
      httpCredentials: { username: 'admin', password: PASSWORD },
    });
    onTestFinished(() => context.close());
    const page = await context.newPage();
    const overview = await page.goto(`${base}/admin/queues`);
    expect(overview?.status()).toBe(200);
    await expect(page.title()).resolves.toBe('docpipe queues');
    await page.getByText('documents', { exact: true }).first().waitFor({ timeout: 20_000 });

    await page.goto(`${base}/admin/queues/queue/documents?status=completed`);
    // The job card shows the job's name and its data, with the document's name in it.
    await page.getByText('Lease for the dashboard').first().waitFor({ timeout: 20_000 });
    await expect(page.getByText('document', { exact: true }).first().isVisible()).resolves.toBe(
      true,
    );
    mkdirSync(SCREENSHOTS, { recursive: true });
    const shot = join(SCREENSHOTS, 'completed-job.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
  });

  it('asks nothing of any other origin: its fonts come from docpipe', async () => {
    const { base } = await dashboardWithFinishedJob();
    const context = await browser.newContext({
      httpCredentials: { username: 'admin', password: PASSWORD },
    });
    onTestFinished(() => context.close());
    const page = await context.newPage();
    const requested: string[] = [];
    const fonts: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    // What the page's Content-Security-Policy refused, had it linked anything from elsewhere.
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    page.on('response', (response) => {
      if (response.request().resourceType() === 'font')
        fonts.push(`${response.status()} ${response.url().slice(base.length)}`);
    });
    await page.goto(`${base}/admin/queues/queue/documents?status=completed`);
    await page.getByText('Lease for the dashboard').first().waitFor({ timeout: 20_000 });
    await page.goto(`${base}/admin/queues`);
    await page.getByText('documents', { exact: true }).first().waitFor({ timeout: 20_000 });
    // Every font the page uses is loaded (or failed) once document.fonts settles.
    const plex = await page.evaluate(async () => {
      // The page's FontFaceSet, typed here: the project's TypeScript has no DOM library.
      const { fonts } = (globalThis as unknown as { document: { fonts: PageFonts } }).document;
      await fonts.ready;
      return ['IBM Plex Sans', 'IBM Plex Mono'].map((family) =>
        [...fonts].some((f) => f.family.replace(/"/g, '') === family && f.status === 'loaded'),
      );
    });

    expect(requested.length).toBeGreaterThan(5);
    expect(requested.filter((url) => new URL(url).origin !== base)).toEqual([]);
    expect(fonts.length).toBeGreaterThan(0);
    expect(
      fonts.filter((f) => !/^200 \/admin\/queues\/fonts\/ibm-plex-(sans|mono)-/.test(f)),
    ).toEqual([]);
    expect(plex).toEqual([true, true]);
    expect(refused).toEqual([]);
    const page0 = await fetch(`${base}/admin/queues`, {
      headers: { authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}` },
    });
    expect(page0.headers.get('content-security-policy')).toMatch(/^default-src 'self'; /);
  });

  it('refuses a browser without the credential, and one with a wrong password', async () => {
    const { base, answered } = await dashboardWithFinishedJob();
    // Chromium meets the 401 either by showing it or, having no credential to try, by refusing
    // the page (ERR_INVALID_AUTH_CREDENTIALS); which one varies. Either way the server answered
    // 401 and nothing else, and Chromium never showed the board.
    for (const credentials of [undefined, { username: 'admin', password: 'not the password' }]) {
      const context = await browser.newContext(credentials ? { httpCredentials: credentials } : {});
      onTestFinished(() => context.close());
      const page = await context.newPage();
      const shown = await page.goto(`${base}/admin/queues`).then(
        async (res) => `${res?.status()} ${await page.title()}`,
        (err: Error) => err.message,
      );
      expect(shown).toMatch(/^401 $|ERR_INVALID_AUTH_CREDENTIALS/);
    }
    const board = answered.filter((a) => a.includes(' /admin/'));
    expect(board.length).toBeGreaterThanOrEqual(2);
    expect(board.filter((a) => a !== '401 /admin/queues')).toEqual([]);
  });
});
