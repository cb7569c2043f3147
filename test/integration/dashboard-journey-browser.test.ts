import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { DA } from '../../src/surfaces/http/pages/words-da.js';
import { EN, type Words } from '../../src/surfaces/http/pages/words-en.js';
import {
  accessible,
  addWebhook,
  createApiKey,
  signUpAndLogIn,
} from '../helpers/dashboard-journey-steps.js';
import { docpipeEnv, StartedDocpipe } from '../helpers/docpipe-start.js';
import { launchChromium } from '../helpers/pages-stack.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * A new company's first minutes, in Chromium through a real socket against `docpipe start` (its
 * own PostgreSQL and Redis, the mail folder, LibreOffice): sign up, confirm the address from the
 * .eml, log in, create an API key, add a webhook, create a case with the key over v3, see its
 * `case.created` reach the webhook's receiver and the run in "Recent runs", revoke the key and
 * get `key-revoked`. Once in English and once in Danish, each control found by its accessible
 * name from the language's catalogue. Every page visited passes axe-core (no serious or critical
 * finding); screenshots at 390 and 1280 px are kept in test/results/dashboard-journey/.
 */

const root = projectRoot();
const SHOTS = join(root, 'test', 'results', 'dashboard-journey');
let dir: string;
let start: StartedDocpipe;
let address: string;
let browser: Browser;
let receiver: WebhookReceiver;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dashboard-journey-'));
  // The embedded PostgreSQL runs as the postgres user when the tests run as root.
  chmodSync(dir, 0o711);
  for (const name of ['package.json', 'dist', 'node_modules'])
    symlinkSync(join(root, name), join(dir, name));
  cpSync(join(root, 'templates'), join(dir, 'templates'), { recursive: true });
  mkdirSync(SHOTS, { recursive: true });
  [receiver, browser] = await Promise.all([startWebhookReceiver(), launchChromium()]);
  start = new StartedDocpipe(
    docpipeEnv(join(dir, 'data'), {
      DOCPIPE_LOG_FORMAT: 'json',
      // The receiver is on loopback, which webhooks refuse by default.
      DOCPIPE_WEBHOOK_ALLOW_PRIVATE: 'true',
    }),
  );
  await start.waitFor('docpipe started');
  address = String(start.lines().find((l) => l.msg.startsWith('docpipe started'))?.http);
  expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await start?.killAll();
  rmSync(dir, { recursive: true, force: true });
});

/** The page at a phone's and a desktop's width, kept; and it does not scroll sideways at 390. */
async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(
    390,
  );
  await page.screenshot({ path: join(SHOTS, `${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: join(SHOTS, `${name}-1280.png`), fullPage: true });
}

async function journey(language: 'en' | 'da', w: Words, n: number): Promise<void> {
  const context = await browser.newContext({ locale: language === 'da' ? 'da-DK' : 'en-GB' });
  const page = await context.newPage();
  const email = `owner${n}@journey${n}.example`;
  const password = `a long passphrase ${n} for docpipe`;
  const shot = (name: string) => shots(page, `${language}-${name}`);
  const nav = page.getByRole('navigation', { name: w.common.mainNavigation });
  try {
    await signUpAndLogIn(page, w, {
      address,
      mailFolder: join(dir, 'data', 'mail'),
      company: `Journey ${n} ApS`,
      owner: `Owner ${n}`,
      email,
      password,
      onPage: shot,
    });

    // An API key, shown once; a webhook for every trigger, to the test's receiver.
    const key = await createApiKey(page, w, 'Journey server');
    await shot('key-created');
    await addWebhook(page, w, `${receiver.url}/journey-${n}`);

    // A first case over v3 with the new key.
    const already = receiver.requests.length;
    const lease = JSON.parse(
      readFileSync(join(root, 'templates', 'lease', 'fixtures', 'basic.tags.json'), 'utf8'),
    ) as unknown;
    const created = await fetch(`${address}/v3/api/cases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: `Lease ${n}`,
        recipients: [{ name: 'Mette', email: `mette${n}@example.com` }],
        documents: [{ name: 'Lease', documentId: 'lease', versionId: '1', tags: lease }],
      }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const caseId = ((await created.json()) as { case: { id: string } }).case.id;
    const hook = await receiver.waitFor(already + 1);
    const delivered = hook
      .slice(already)
      .find((r) => r.url === `/journey-${n}` && r.body.includes(caseId));
    expect(delivered, 'case.created reached the webhook').toBeDefined();
    expect(JSON.parse(delivered!.body)).toMatchObject({ trigger: 'case.created' });

    // ... and its run in "Recent runs".
    await nav.getByRole('link', { name: w.common.webhooks }).click();
    await page.locator(`a[href^="/dashboard/webhooks/"]`).first().click();
    await page.getByRole('heading', { name: w.webhooks.runsTitle }).waitFor();
    await page.getByRole('cell', { name: 'case.created' }).first().waitFor();
    await accessible(page);
    await shot('webhook');

    // Revoke the key: it answers key-revoked once the verified-key cache (5 s) lets go.
    await nav.getByRole('link', { name: w.common.apiKeys }).click();
    await shot('keys');
    await page.getByRole('button', { name: w.keys.revoke }).first().click();
    const question = w.keys.revokeQuestion.replace('{name}', 'Journey server');
    await page.getByRole('heading', { level: 1, name: question }).waitFor();
    await accessible(page);
    await page.getByRole('button', { name: w.keys.revoke, exact: true }).click();
    await page.getByText(w.keys.revoked.replace('{name}', 'Journey server')).waitFor();
    await expect
      .poll(
        async () => {
          const res = await fetch(`${address}/v3/api/cases/${caseId}`, {
            headers: { authorization: `Bearer ${key}` },
          });
          return ((await res.json()) as { error?: string }).error;
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBe('key-revoked');
  } finally {
    await context.close();
  }
}

describe('a new company in the dashboard', () => {
  it('signs up, gets a key and a webhook, makes a case, and revokes the key, in English', async () => {
    await journey('en', EN, 1);
  });

  it('does the same in Danish', async () => {
    await journey('da', DA, 2);
  });
});
