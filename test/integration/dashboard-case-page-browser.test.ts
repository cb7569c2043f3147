import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingTokenFor, signingUrl } from '../../src/service/cases/index.js';
import { EN } from '../../src/surfaces/http/pages/words-en.js';
import { draftCase } from '../helpers/draft-case.js';
import {
  TEST_SECRET,
  launchChromium,
  startPagesStack,
  type PagesServer,
  type PagesStack,
  type TestMember,
} from '../helpers/pages-stack.js';

/**
 * A case's page (issue 34) in Chromium: it changes without a reload when a signature arrives
 * (htmx polls its live part every 3 s); it and its signing link's answer pass axe at 360 px
 * without scrolling sideways; an admin takes a signer's link and copies it by keyboard alone.
 */
let stack: PagesStack;
let server: PagesServer;
let browser: Browser;
const w = EN.casePage;

/** The live poll's interval is 3 s: a change shows within two of them, with room to spare. */
const LIVE_WAIT_MS = 15_000;

beforeAll(async () => {
  stack = await startPagesStack();
  [server, browser] = await Promise.all([stack.server(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** An open case with one signer whose link the server can write again, and a copy recipient. */
async function openCase(company: string, title: string) {
  const kase = await draftCase(stack, company, {
    title,
    recipients: [
      { name: 'Bo Signer', email: 'bo@example.com' },
      { name: 'Cy Copy', email: 'cy@example.com', signing: false },
    ],
  });
  const db = stack.t.db;
  const bo = await db
    .selectFrom('recipients')
    .select(['id', 'uid'])
    .where('case_id', '=', kase.id)
    .where('name', '=', 'Bo Signer')
    .executeTakeFirstOrThrow();
  const { token, hash } = signingTokenFor(TEST_SECRET, bo.id);
  await db
    .updateTable('recipients')
    .set({ signing_token_hash: hash, invited_at: new Date() })
    .where('id', '=', bo.id)
    .execute();
  await db.updateTable('cases').set({ state: 'open' }).where('id', '=', kase.id).execute();
  return { id: kase.id, bo, url: signingUrl(null, server.url, token) };
}

async function contextFor(member: TestMember, width: number): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  await context.addCookies([{ ...member.cookie, url: server.url }]);
  return context;
}

async function open(page: Page, id: string, title: string) {
  await page.goto(`${server.url}/dashboard/cases/${id}`);
  await page.getByRole('heading', { level: 1, name: `Case: ${title}` }).waitFor();
}

async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

describe("a case's page in Chromium", () => {
  it('shows a signature that arrives without a reload', async () => {
    const ann = await stack.member({ company: 'cb-a', email: 'ann@cb-a.example', language: 'en' });
    const kase = await openCase('cb-a', 'Live lease');
    const context = await contextFor(ann, 1000);
    const page = await context.newPage();
    try {
      await open(page, kase.id, 'Live lease');
      const row = page.locator(`tr[data-recipient="${kase.bo.uid}"]`);
      await expect.poll(() => row.locator('td').nth(2).textContent()).toBe(w.statuses.pending);
      // A mark on the window: a reload would make a new one, without it.
      await page.evaluate(() => {
        (window as unknown as { unreloaded?: boolean }).unreloaded = true;
      });
      // The signature, as the signing service writes it: the recipient signed, and its event.
      const db = stack.t.db;
      await db
        .updateTable('recipients')
        .set({ status: 'signed', acted_at: new Date() })
        .where('id', '=', kase.bo.id)
        .execute();
      await db
        .insertInto('case_events')
        .values({
          company_id: 'cb-a',
          case_id: kase.id,
          trigger: 'recipient.signed',
          payload: JSON.stringify({ recipient: { name: 'Bo Signer' } }),
          published_at: new Date(),
        })
        .execute();
      await row
        .locator('td', { hasText: new RegExp(`^${w.statuses.signed}$`) })
        .waitFor({ timeout: LIVE_WAIT_MS });
      await page
        .locator('tr[data-trigger="recipient.signed"]', {
          hasText: `${w.triggers['recipient.signed']}: Bo Signer`,
        })
        .waitFor({ timeout: LIVE_WAIT_MS });
      expect(
        await page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded),
      ).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('passes axe at 360 px: the page, the signing link, the audit trail', async () => {
    const ann = await stack.member({
      company: 'cb-b',
      email: 'ann@cb-b.example',
      language: 'en',
      admin: true,
    });
    const kase = await openCase('cb-b', 'Narrow lease');
    const context = await contextFor(ann, 360);
    const page = await context.newPage();
    try {
      await open(page, kase.id, 'Narrow lease');
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Show the signing link of Bo Signer' }).click();
      await page.getByRole('heading', { level: 2, name: 'Signing link of Bo Signer' }).waitFor();
      await expectAccessible(page);
      await page.getByRole('link', { name: w.openAudit }).click();
      await page.getByRole('heading', { level: 1, name: 'Audit trail of Narrow lease' }).waitFor();
      await page.getByText('took the signing link of Bo Signer').waitFor();
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });

  it('lets an admin take a signing link and copy it by keyboard alone', async () => {
    const ann = await stack.member({
      company: 'cb-c',
      email: 'ann@cb-c.example',
      language: 'en',
      admin: true,
    });
    const kase = await openCase('cb-c', 'Keyboard lease');
    const context = await contextFor(ann, 1000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    try {
      await open(page, kase.id, 'Keyboard lease');
      const show = page.getByRole('button', { name: 'Show the signing link of Bo Signer' });
      // Tab from the page's top until the button has the focus, then Enter: no mouse.
      let reached = false;
      for (let i = 0; i < 60 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await show.evaluate((b) => b === document.activeElement);
      }
      expect(reached).toBe(true);
      await page.keyboard.press('Enter');
      const field = page.getByRole('textbox', { name: w.signingLink });
      await field.waitFor();
      expect(await field.inputValue()).toBe(kase.url);
      expect(await field.getAttribute('readonly')).not.toBeNull();
      // The field, then the copy button next to it.
      await field.focus();
      await page.keyboard.press('Tab');
      const copy = page.locator('copy-button[for="signing-link"] button');
      expect(await copy.evaluate((b) => b === document.activeElement)).toBe(true);
      await page.keyboard.press('Enter');
      await page
        .locator('copy-button[for="signing-link"] [role=status]', { hasText: EN.common.copied })
        .waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(kase.url);
    } finally {
      await context.close();
    }
  });
});
