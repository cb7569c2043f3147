import { AxeBuilder } from '@axe-core/playwright';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/service/accounts/index.js';
import {
  launchChromium,
  startPagesStack,
  type PagesServer,
  type PagesStack,
} from '../helpers/pages-stack.js';

/**
 * Two-factor log-in in Chromium at 360 px: the security page, the set-up page with its QR code,
 * the recovery codes and the log-in's code page (also with its problem shown) pass axe-core and
 * do not scroll sideways; the set-up and the log-in work by keyboard-reachable controls alone.
 */
let stack: PagesStack;
let server: PagesServer;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startPagesStack(), launchChromium()]);
  server = await stack.server();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function checked(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
    [],
  );
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: at,
  });

describe('two-factor log-in in Chromium', () => {
  it('is set up from the security page, and asked for on the code page', async () => {
    const member = await stack.member({ company: 'tfa-browser', email: 'ann@tfa.example' });
    const setup = await browser.newContext({
      viewport: { width: 360, height: 800 },
      locale: 'en-GB',
    });
    const due = await browser.newContext({
      viewport: { width: 360, height: 800 },
      locale: 'en-GB',
    });
    try {
      await setup.addCookies([{ ...member.cookie, url: server.url }]);
      const page = await setup.newPage();
      expect((await page.goto(`${server.url}/dashboard/account/security`))?.status()).toBe(200);
      await expect(page.title()).resolves.toBe('Security · docpipe');
      await checked(page);

      await page.getByRole('button', { name: 'Turn on two-factor log-in' }).click();
      await page.waitForURL(/\/dashboard\/account\/security\/totp$/);
      await expect(
        page.getByRole('img', { name: 'QR code for your authenticator app' }).isVisible(),
      ).resolves.toBe(true);
      await checked(page);
      const secret = ((await page.locator('#totp-key').textContent()) ?? '').replace(/\s/g, '');
      const confirmedAt = Date.now();
      await page.getByRole('textbox', { name: 'Code' }).fill(codeAt(secret, confirmedAt));
      await page.getByRole('button', { name: 'Turn on', exact: true }).click();
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Your recovery codes',
      );
      await expect(page.locator('#recovery-codes li').count()).resolves.toBe(10);
      await checked(page);

      const { token } = await new SessionStore(stack.t.db).create({
        loginId: member.loginId,
        secondFactorDue: true,
      });
      await due.addCookies([{ name: 'docpipe_session', value: token, url: server.url }]);
      const login = await due.newPage();
      await login.goto(`${server.url}/dashboard/account/security`);
      await login.waitForURL(/\/user\/login\/code$/);
      await checked(login);
      await login.getByRole('textbox', { name: 'Code' }).fill('abcde-fghjk');
      await login.getByRole('button', { name: 'Continue' }).click();
      await expect(login.locator('#field-code-error').textContent()).resolves.toContain(
        'That code is not right',
      );
      await checked(login);
      await login.getByRole('textbox', { name: 'Code' }).fill(codeAt(secret, confirmedAt + 30_000));
      await login.getByRole('button', { name: 'Continue' }).click();
      await login.waitForURL(new RegExp(`^${server.url}/dashboard$`));
    } finally {
      await setup.close();
      await due.close();
    }
  });
});
