import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchChromium,
  startPagesStack,
  type PagesServer,
  type PagesStack,
} from '../helpers/pages-stack.js';

/**
 * The operator's pages in Chromium at 360 px, with the admin credential the browser sends itself:
 * the companies list, a company's page and its disable confirmation pass axe-core and do not
 * scroll sideways, and the disable goes through without script being needed for the step.
 */
const PASSWORD = 'operator password of the browser test';

let stack: PagesStack;
let server: PagesServer;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startPagesStack(), launchChromium()]);
  server = await stack.server({ DOCPIPE_ADMIN_PASSWORD: PASSWORD });
  await stack.member({ company: 'browser-co', email: 'ann@browser.example', admin: true });
  await stack.member({ company: 'browser-co', email: 'bo@browser.example' });
  await stack.keys.create({ company: 'browser-co', user: 'ann@browser.example', name: 'CI' });
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** No serious or critical axe finding, and no sideways scroll at the page's width. */
async function checked(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
    [],
  );
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

describe('the operator pages in Chromium', () => {
  it('list the companies, open one, and disable it through the confirmation page', async () => {
    const context = await browser.newContext({
      httpCredentials: { username: 'admin', password: PASSWORD },
      viewport: { width: 360, height: 800 },
      locale: 'en-GB',
    });
    try {
      const page = await context.newPage();
      const list = await page.goto(`${server.url}/admin`);
      expect(list?.status()).toBe(200);
      await expect(page.title()).resolves.toBe('Companies · docpipe');
      await checked(page);

      await page.getByRole('searchbox', { name: 'Company id or name' }).fill('browser');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/\/admin\?q=browser$/);
      await page.getByRole('link', { name: 'browser-co' }).click();
      await page.waitForURL(/\/admin\/companies\/browser-co$/);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Company Company browser-co',
      );
      await expect(page.getByRole('heading', { name: 'Members (2)' }).isVisible()).resolves.toBe(
        true,
      );
      await checked(page);

      await page.getByRole('link', { name: 'Disable' }).click();
      await page.waitForURL(/\/admin\/companies\/browser-co\/disable$/);
      await checked(page);
      await page.getByRole('button', { name: 'Disable company' }).click();
      await page.waitForURL(/\/admin\/companies\/browser-co\?done=disabled$/);
      await expect(page.getByRole('status').textContent()).resolves.toContain(
        'The company is disabled.',
      );
      await expect(page.getByRole('link', { name: 'Enable' }).isVisible()).resolves.toBe(true);
      await checked(page);
    } finally {
      await context.close();
    }
  });
});
