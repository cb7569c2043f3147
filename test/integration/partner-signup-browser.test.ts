import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompanyRepository } from '../../src/service/companies/index.js';
import { PartnerRepository } from '../../src/service/partners/index.js';
import { WebhookRepository } from '../../src/service/webhooks/index.js';
import { DA } from '../../src/surfaces/http/pages/words-da.js';
import { EN, type Words } from '../../src/surfaces/http/pages/words-en.js';
import {
  launchChromium,
  startPagesStack,
  type PagesServer,
  type PagesStack,
} from '../helpers/pages-stack.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * A partner's referral link in Chromium at 360 px, by keyboard and the controls' names: the page
 * names the partner and asks for the consent, the customer signs up with the box ticked, the
 * partner's receiver gets the new company's key, and the key creates a case over v3.
 */
let stack: PagesStack;
let server: PagesServer;
let browser: Browser;
let receiver: WebhookReceiver;

beforeAll(async () => {
  [stack, receiver] = await Promise.all([startPagesStack(), startWebhookReceiver()]);
  [server, browser] = await Promise.all([
    stack.server({ DOCPIPE_SIGNUPS_PER_HOUR: '1000', DOCPIPE_WEBHOOK_ALLOW_PRIVATE: 'true' }),
    launchChromium(),
  ]);
  await new CompanyRepository(stack.t.db).create({
    id: 'nordlys',
    name: 'Nordlys Integration A/S',
  });
  await new PartnerRepository(stack.t.db).set('nordlys', {
    isPartner: true,
    code: 'NORDLYS',
    webhookEnabled: true,
  });
  await new WebhookRepository(stack.t.db).add('nordlys', {
    url: `${receiver.url}/customers`,
    triggers: ['partner.customer.registered'],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await stack?.close();
});

async function accessible(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id}: ${v.help}`),
    page.url(),
  ).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

async function signUpThroughLink(language: 'en' | 'da', w: Words, company: string) {
  const context = await browser.newContext({ viewport: { width: 360, height: 800 } });
  const page = await context.newPage();
  try {
    await page.goto(`${server.url}/${language}/user/register?ref=nordlys`);
    await page
      .getByText(w.account.referredBy.replace('{name}', 'Nordlys Integration A/S'))
      .waitFor();
    const consent = page.getByRole('checkbox', {
      name: w.account.partnerConsent.replaceAll('{partner}', 'Nordlys Integration A/S'),
    });
    expect(await consent.isChecked()).toBe(false);
    await accessible(page);
    // By keyboard: each field by its label, the box ticked with the space bar.
    await page.getByLabel(w.account.companyName).fill(company);
    await page.getByLabel(w.account.cvr).fill('24256790');
    await page.getByLabel(w.account.yourName).fill('Ida Holm');
    const email = `ida@${language}.${company.toLowerCase().replace(/\W+/g, '')}.example`;
    await page.getByLabel(w.account.email, { exact: true }).fill(email);
    await page.getByLabel(w.account.password, { exact: true }).fill('tangerine-orbit-41');
    await consent.focus();
    await page.keyboard.press('Space');
    expect(await consent.isChecked()).toBe(true);
    const before = receiver.requests.length;
    await page.getByRole('button', { name: w.account.createAccount }).press('Enter');
    await page.getByRole('heading', { level: 1, name: w.account.checkEmailTitle }).waitFor();
    await accessible(page);
    const got = (await receiver.waitFor(before + 1))[before]!;
    return JSON.parse(got.body) as {
      trigger: string;
      company: { id: string; name: string; cvr: string; apiKey: string };
    };
  } finally {
    await context.close();
  }
}

describe('a partner’s referral link', () => {
  it.each([
    ['en', EN, 'Referred In English ApS'],
    ['da', DA, 'Henvist På Dansk ApS'],
  ] as const)(
    'hands the new company’s key to the partner, and the key works (%s)',
    async (language, w, company) => {
      const sent = await signUpThroughLink(language, w, company);
      expect(sent.trigger).toBe('partner.customer.registered');
      expect(sent.company).toMatchObject({ name: company, cvr: '24256790' });
      const made = await fetch(`${server.url}/v3/api/cases`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${sent.company.apiKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ title: 'Made by the partner', state: 'draft' }),
      });
      expect(made.status, await made.clone().text()).toBe(201);
      const kase = await stack.t.db
        .selectFrom('cases')
        .select(['company_id', 'title'])
        .where('company_id', '=', sent.company.id)
        .executeTakeFirstOrThrow();
      expect(kase).toEqual({ company_id: sent.company.id, title: 'Made by the partner' });
    },
  );
});
