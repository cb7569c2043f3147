import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DA } from '../../src/surfaces/http/pages/words-da.js';
import { EN, type Words } from '../../src/surfaces/http/pages/words-en.js';
import {
  launchChromium,
  startPagesStack,
  type PagesServer,
  type PagesStack,
} from '../helpers/pages-stack.js';
import { draftCase } from '../helpers/draft-case.js';
import { narrowTables } from '../helpers/narrow-tables.js';
import { webhookRun } from '../helpers/webhook-run.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * The API keys and webhooks pages in Chromium, at 360 px wide, driven by the controls'
 * accessible names from each language's catalogue (the English ones fixed by issue 33: "Name",
 * "Create API key", "Revoke", "URL", "Method", "Active", "Triggers", "Add webhook", "Send test
 * event", "Recent runs"). Every page visited passes axe-core with no serious or critical finding
 * and does not scroll sideways. One server (loopback destinations allowed, for the receiver) and
 * one browser for the file.
 */
let stack: PagesStack;
let server: PagesServer;
let browser: Browser;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startPagesStack();
  [server, browser, receiver] = await Promise.all([
    stack.server({ DOCPIPE_WEBHOOK_ALLOW_PRIVATE: 'true' }),
    launchChromium(),
    startWebhookReceiver({ default: { status: 200, body: 'taken' } }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await stack?.close();
});

/** No serious or critical axe-core finding, and nothing wider than the 360 px viewport. */
async function checked(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    page.url(),
  ).toEqual([]);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
    page.url(),
  ).toBeLessThanOrEqual(360);
}

/**
 * Its tables read at 360 px without scrolling sideways, in the page or in a region of their
 * own (each row stacked, each cell under its column's name), and are still tables with column
 * headers and cells in Chromium's accessibility tree.
 */
async function readableNarrow(page: Page, tables: number): Promise<void> {
  const found = await narrowTables(page);
  expect(found.documentWidth, page.url()).toBeLessThanOrEqual(360);
  expect(found.scrolling, page.url()).toEqual([]);
  expect(found.tables, page.url()).toBe(tables);
  expect(found.roles.table, page.url()).toBe(tables);
  expect(found.roles.columnheader, page.url()).toBeGreaterThan(0);
  expect(found.roles.cell, page.url()).toBeGreaterThan(0);
}

/** An open case with a long title, two recipients, an event, a message and a webhook run. */
async function busyCase(company: string, title: string): Promise<string> {
  const kase = await draftCase(stack, company, {
    title,
    recipients: [
      { name: 'Bodil Kristiansen-Overgaard', email: 'bodil.kristiansen-overgaard@example.com' },
      { name: 'Cy Copy', email: 'cy@example.com', signing: false },
    ],
  });
  const db = stack.t.db;
  await db.updateTable('cases').set({ state: 'open' }).where('id', '=', kase.id).execute();
  const event = await db
    .insertInto('case_events')
    .values({
      company_id: company,
      case_id: kase.id,
      trigger: 'case.created',
      payload: '{}',
      published_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('messages')
    .values({
      company_id: company,
      case_id: kase.id,
      recipient_id: null,
      addressee: 'sender',
      channel: 'email',
      kind: 'invitation',
      status: 'failed',
      to_address: 'bodil.kristiansen-overgaard@example.com',
      claimed_until: null,
      next_attempt_at: null,
      error: 'the mail server refused the address',
      location: null,
      sent_at: null,
    })
    .execute();
  await webhookRun(db, {
    company,
    url: 'https://receiver.example/a/rather/long/path/for/case/events/of/this/company',
    // Off: its run is written here, and no later event of the walk goes to it.
    active: false,
    caseId: kase.id,
    eventId: event.id,
    trigger: 'case.created',
    status: 'failed',
    attempts: 3,
    last_error: 'timed out: no answer within 10 s',
  });
  return kase.id;
}

async function walk(language: 'en' | 'da', w: Words): Promise<void> {
  const company = `pages-${language}`;
  const admin = await stack.member({
    company,
    email: `admin@${company}.example`,
    admin: true,
    language,
  });
  const context = await browser.newContext({
    viewport: { width: 360, height: 800 },
    locale: language === 'da' ? 'da-DK' : 'en-GB',
  });
  await context.addCookies([{ ...admin.cookie, url: server.url }]);
  const page = await context.newPage();
  try {
    // Members: its table of people and their actions fits the phone too.
    await page.goto(`${server.url}/dashboard/members`);
    await page.getByRole('heading', { level: 1, name: w.members.title }).waitFor();
    await checked(page);

    // API keys: the company id, a key made by keyboard alone, shown once.
    await page.goto(`${server.url}/dashboard/keys`);
    await page.getByRole('heading', { level: 1, name: w.keys.title }).waitFor();
    expect((await page.locator('#company-id').textContent())?.trim()).toBe(company);
    await checked(page);
    await page.getByLabel(w.keys.name, { exact: true }).focus();
    await page.keyboard.type('Build server');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('field-expires');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe(w.keys.create);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: w.keys.createdTitle }).waitFor();
    const key = (await page.locator('.secret').textContent())?.trim() ?? '';
    expect(key).toMatch(/^dp_live_[0-9a-f]{16}_[0-9a-f]{64}$/);
    await page.locator('copy-button[for="new-key"] button').waitFor();
    await checked(page);
    const works = await fetch(`${server.url}/v3/api/cases`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(works.status).toBe(200);

    // The list, without the secret; revoking asks on a page of its own.
    await page.getByRole('link', { name: w.keys.backToKeys }).click();
    const row = page.getByRole('row', { name: /Build server/ });
    await row.waitFor();
    expect(await page.content()).not.toContain(key.slice(-64));
    await readableNarrow(page, 1);
    await row.getByRole('button', { name: w.keys.revoke }).click();
    await page
      .getByRole('heading', {
        level: 1,
        name: w.keys.revokeQuestion.replace('{name}', 'Build server'),
      })
      .waitFor();
    await checked(page);
    await page.getByRole('button', { name: w.keys.revoke, exact: true }).click();
    await page.getByText(w.keys.revoked.replace('{name}', 'Build server')).waitFor();
    expect(await row.getByRole('button').count()).toBe(0);
    await checked(page);

    // The cases list and a case's page: their tables read at 360 px too.
    const title = 'Lejekontrakt for lejligheden på Strandvejen 142, 3. sal tv.';
    const caseId = await busyCase(company, title);
    await page.goto(`${server.url}/dashboard/cases`);
    await page.getByRole('heading', { level: 1, name: w.caseList.title }).waitFor();
    await checked(page);
    await readableNarrow(page, 1);
    await page.getByRole('link', { name: title }).click();
    await page.waitForURL(`${server.url}/dashboard/cases/${caseId}`);
    await page.getByRole('row', { name: /Bodil Kristiansen-Overgaard/ }).waitFor();
    await checked(page);
    // Recipients, timeline, delivery report.
    await readableNarrow(page, 3);

    // Webhooks: add one with a method, the active switch, a header and two triggers.
    await page.getByRole('link', { name: w.common.webhooks }).click();
    await page.getByRole('heading', { level: 1, name: w.webhooks.title }).waitFor();
    await checked(page);
    await page.getByLabel(w.webhooks.url, { exact: true }).fill(`${receiver.url}/${language}`);
    await page.getByLabel(w.webhooks.method, { exact: true }).selectOption('PUT');
    const active = page.getByRole('checkbox', { name: w.webhooks.active, exact: true });
    expect(await active.isChecked()).toBe(true);
    await page.getByLabel(w.webhooks.headers, { exact: true }).fill('X-Receiver-Token: abc');
    const triggers = page.getByRole('group', { name: w.webhooks.triggers });
    await triggers.getByRole('checkbox', { name: 'case.created' }).check();
    await triggers.getByRole('checkbox', { name: 'case.signed' }).check();
    await page.getByRole('button', { name: w.webhooks.add }).click();
    await page.getByRole('heading', { level: 1, name: w.webhooks.addedTitle }).waitFor();
    const secret = (await page.locator('.secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await checked(page);

    // A test event reaches the receiver and is the first of the recent runs.
    await page.getByRole('link', { name: w.webhooks.toWebhook }).click();
    const before = receiver.requests.length;
    await page.getByRole('button', { name: w.webhooks.sendTest }).click();
    const got = (await receiver.waitFor(before + 1))[before]!;
    expect(got.method).toBe('PUT');
    expect(got.url).toBe(`/${language}`);
    expect(got.headers['x-receiver-token']).toBe('abc');
    await page.getByRole('heading', { name: w.webhooks.runsTitle }).waitFor();
    await page.getByRole('status').filter({ hasText: '200' }).waitFor();
    await page.getByRole('cell', { name: 'webhook.test' }).waitFor();
    await checked(page);
    await readableNarrow(page, 1);

    // The run's page: the request's headers and body, and the answer.
    await page
      .getByRole('row', { name: /webhook\.test/ })
      .getByRole('link')
      .click();
    await page.getByRole('heading', { level: 1, name: /webhook\.test/ }).waitFor();
    await page
      .getByText(`X-Docpipe-Signature: ${String(got.headers['x-docpipe-signature'])}`)
      .waitFor();
    await page.getByText('"trigger": "webhook.test"').waitFor();
    await page.getByText('taken', { exact: true }).waitFor();
    await checked(page);
  } finally {
    await context.close();
  }
}

describe('the API keys and webhooks pages in Chromium', () => {
  it('works in English at 360 px, by the names the issue fixes', async () => {
    expect([EN.keys.name, EN.keys.create, EN.keys.revoke]).toEqual([
      'Name',
      'Create API key',
      'Revoke',
    ]);
    expect([
      EN.webhooks.url,
      EN.webhooks.method,
      EN.webhooks.active,
      EN.webhooks.triggers,
      EN.webhooks.add,
      EN.webhooks.sendTest,
      EN.webhooks.runsTitle,
    ]).toEqual([
      'URL',
      'Method',
      'Active',
      'Triggers',
      'Add webhook',
      'Send test event',
      'Recent runs',
    ]);
    await walk('en', EN);
  });

  it('works the same in Danish', async () => {
    await walk('da', DA);
  });
});
