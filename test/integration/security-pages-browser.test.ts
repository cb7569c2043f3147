import { createServer } from 'node:net';
import { AxeBuilder } from '@axe-core/playwright';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/service/accounts/index.js';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.js';
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
let op: TestOidcProvider;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startPagesStack(), launchChromium()]);
  // The provider's port is reserved first: docpipe's configuration names its issuer, and the
  // provider's client names docpipe's callback (docpipe discovers on the first log-in).
  const port = await freePort();
  server = await stack.server({
    DOCPIPE_LOGIN_OIDC_ACME_ISSUER: `http://127.0.0.1:${port}`,
    DOCPIPE_LOGIN_OIDC_ACME_CLIENT_ID: 'set below',
    DOCPIPE_LOGIN_OIDC_ACME_DOMAINS: 'acme.example',
    DOCPIPE_LOGIN_OIDC_ACME_COMPANY: 'acme',
  });
  op = await startOidcProvider({
    port,
    redirectUris: [`${server.url}/user/login/sso/callback`],
    accounts: {},
  });
  const provider = server.config.dashboard.loginOidc.providers[0]!;
  provider.clientId = op.clientId;
  provider.clientSecret = op.clientSecret;
});
afterAll(async () => {
  await browser?.close();
  await op?.close();
  await stack?.close();
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

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

  it('goes on to the provider from a form, which the pages’ CSP (form-action self) lets through', async () => {
    const context = await browser.newContext({
      viewport: { width: 360, height: 800 },
      locale: 'en-GB',
    });
    try {
      const page = await context.newPage();
      // An address without single sign-on: the page that says so, under docpipe's CSP.
      const none = await page.goto(`${server.url}/user/login/sso?email=ann%40elsewhere.example`);
      expect(none?.status()).toBe(404);
      await checked(page);
      // A form of that page sent to the start, as a log-in form's answer would lead there: its
      // redirects could not leave the site, the start's page moves on by itself.
      await page.evaluate(() => {
        const form = document.createElement('form');
        form.method = 'get';
        form.action = '/user/login/sso';
        const email = document.createElement('input');
        email.name = 'email';
        email.value = 'ann@acme.example';
        form.append(email);
        document.body.append(form);
        form.submit();
      });
      await page.waitForURL((url) => url.origin === op.issuer);
      expect(new URL(page.url()).pathname).toMatch(/^\/(auth|interaction)/);
    } finally {
      await context.close();
    }
  });
});
