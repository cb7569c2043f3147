import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchChromium,
  startPagesStack,
  type PagesServer,
  type PagesStack,
} from '../helpers/pages-stack.js';
import { lastMailTo, mailsWhen, pathOf } from './account-client.js';
import { channelMailer, inviteMember } from '../../src/service/accounts/index.js';
import { messageChannels } from '../../src/service/messages/index.js';
import { silentLogger } from '../../src/base/log/index.js';

/**
 * Sign-up, the e-mail's confirmation and log-in in Chromium at 360 px, driven by the controls'
 * accessible names, in English and in Danish: each page passes axe-core (no serious or
 * critical finding) and does not scroll sideways.
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

const NAMES = {
  en: {
    companyName: 'Company name',
    cvr: 'CVR number',
    yourName: 'Your name',
    email: 'E-mail',
    password: 'Password',
    createAccount: 'Create account',
    logIn: 'Log in',
    forgot: 'Forgot your password?',
    checkEmail: 'Check your e-mail',
    confirmed: 'Your e-mail address is confirmed',
    problem: 'There is a problem',
    account: 'Your account',
  },
  da: {
    companyName: 'Virksomhedens navn',
    cvr: 'CVR-nummer',
    yourName: 'Dit navn',
    email: 'E-mail',
    password: 'Adgangskode',
    createAccount: 'Opret konto',
    logIn: 'Log ind',
    forgot: 'Glemt din adgangskode?',
    checkEmail: 'Tjek din e-mail',
    confirmed: 'Din e-mailadresse er bekræftet',
    problem: 'Der er et problem',
    account: 'Din konto',
  },
} as const;

describe('the account pages in Chromium', () => {
  for (const language of ['en', 'da'] as const)
    it(`sign up, confirm the address and log in (${language})`, async () => {
      const n = NAMES[language];
      const email = `ann-${language}@browser-signup.example`;
      const context = await browser.newContext({
        viewport: { width: 360, height: 800 },
        locale: language === 'da' ? 'da-DK' : 'en-GB',
      });
      try {
        const page = await context.newPage();
        expect((await page.goto(`${server.url}/${language}/user/register`))?.status()).toBe(200);
        await checked(page);

        // First with a wrong CVR number: the problem is shown, the page still passes.
        await page.getByRole('textbox', { name: n.companyName }).fill(`Browser ${language} ApS`);
        await page.getByRole('textbox', { name: n.cvr }).fill('24256791');
        await page.getByRole('textbox', { name: n.yourName }).fill('Ann Berg');
        await page.getByRole('textbox', { name: n.email }).fill(email);
        await page.getByLabel(n.password, { exact: true }).fill('tangerine-orbit-41');
        await page.getByRole('button', { name: n.createAccount }).click();
        await expect(page.getByRole('heading', { name: n.problem }).isVisible()).resolves.toBe(
          true,
        );
        await checked(page);

        await page.getByRole('textbox', { name: n.cvr }).fill('24256790');
        await page.getByLabel(n.password, { exact: true }).fill('tangerine-orbit-41');
        await page.getByRole('button', { name: n.createAccount }).click();
        await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
          n.checkEmail,
        );
        await checked(page);

        const { link } = await lastMailTo(join(stack.redis.dir, 'mail'), email, '/user/confirm/');
        await page.goto(`${server.url}${pathOf(link)}`);
        await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
          n.confirmed,
        );
        await checked(page);

        await page.getByRole('link', { name: n.logIn }).click();
        await page.waitForURL(/\/user\/login$/);
        await checked(page);
        await expect(page.getByRole('link', { name: n.forgot }).isVisible()).resolves.toBe(true);
        await page.getByRole('textbox', { name: n.email }).fill(email);
        await page.getByLabel(n.password, { exact: true }).fill('tangerine-orbit-41');
        await page.getByRole('button', { name: n.logIn }).click();
        await page.waitForURL(/\/dashboard$/);

        await page.goto(`${server.url}/dashboard/account`);
        await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
          n.account,
        );
        await checked(page);
      } finally {
        await context.close();
      }
    });

  it('the forgotten password, the reset, an invitation and the company chooser pass too', async () => {
    const mailDir = join(stack.redis.dir, 'mail');
    const context = await browser.newContext({
      viewport: { width: 360, height: 800 },
      locale: 'en-GB',
    });
    try {
      const page = await context.newPage();
      // An invited person: they take the invitation, then meet the chooser and the reset.
      const channels = messageChannels(server.config.delivery, silentLogger);
      const deps = {
        db: stack.t.db,
        publicUrl: server.url,
        mailer: channelMailer(channels.email, server.config.delivery.from),
      };
      await stack.member({ company: 'chooser-co', email: 'owner@chooser.example', admin: true });
      await inviteMember(deps, 'chooser-co', { email: 'new@chooser.example', name: 'New' });
      await channels.close();

      const invitation = await lastMailTo(mailDir, 'new@chooser.example', '/user/invitation/');
      await page.goto(`${server.url}${pathOf(invitation.link)}`);
      await checked(page);
      await page.getByRole('textbox', { name: 'Your name' }).fill('New Person');
      await page.getByLabel('Password', { exact: true }).fill('chooser-orbit-41');
      await page.getByLabel('Repeat the new password').fill('chooser-orbit-41');
      await page.getByRole('button', { name: 'Accept the invitation' }).click();
      await page.waitForURL(/\/dashboard$/);
      await page.goto(`${server.url}/user/companies`);
      await checked(page);
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.waitForURL(/\/user\/login\?done=logout$/);

      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await checked(page);
      await page.getByRole('textbox', { name: 'E-mail' }).fill('new@chooser.example');
      await page.getByRole('button', { name: 'Send link' }).click();
      await checked(page);
      await mailsWhen(mailDir, (all) =>
        all.some((m) => m.to === 'new@chooser.example' && m.text.includes('/reset/')),
      );
      const reset = await lastMailTo(mailDir, 'new@chooser.example', '/user/password/reset/');
      await page.goto(`${server.url}${pathOf(reset.link)}`);
      await checked(page);
      await page.getByLabel('New password', { exact: true }).fill('chooser-orbit-42');
      await page.getByLabel('Repeat the new password').fill('chooser-orbit-42');
      await page.getByRole('button', { name: 'Save the new password' }).click();
      await page.waitForURL(/\/user\/login\?done=reset$/);
      await checked(page);
      await page.goto(`${server.url}${pathOf(reset.link)}`);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'This link has been used',
      );
      await checked(page);
    } finally {
      await context.close();
    }
  });
});
