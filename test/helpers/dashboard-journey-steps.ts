import { readdirSync, readFileSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { simpleParser } from 'mailparser';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Words } from '../../src/surfaces/http/pages/words-en.js';

/**
 * The steps the dashboard's browser journeys share (issues 33 and 34) against `docpipe start`:
 * the axe check every visited page passes, a link read from the mail folder's .eml files, and a
 * new company's sign-up, confirmation and first log-in, each control found by its accessible name
 * from the language's catalogue.
 */

/** No serious or critical axe-core finding on the page as it is now. */
export async function accessible(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`),
    page.url(),
  ).toEqual([]);
}

/** The link of the newest .eml in `folder` to `to` whose body holds `path`. */
export async function mailedLink(folder: string, to: string, path: string): Promise<string> {
  for (const file of readdirSync(folder).sort().reverse()) {
    const mail = await simpleParser(readFileSync(`${folder}/${file}`));
    const addressed = [mail.to].flat().some((a) => a?.value.some((v) => v.address === to));
    const link = new RegExp(`https?://[^\\s"<>]+${path}[^\\s"<>]*`).exec(mail.text ?? '')?.[0];
    if (addressed && link) return link;
  }
  throw new Error(`no e-mail to ${to} with a ${path} link in ${folder}`);
}

export interface NewCompany {
  /** `http://127.0.0.1:<port>` of `docpipe start`. */
  address: string;
  /** Its data directory's mail folder, where the confirmation's .eml lands. */
  mailFolder: string;
  company: string;
  owner: string;
  email: string;
  password: string;
  /** Called on each page that gets a look of its own (register, login, home), after axe. */
  onPage?: (name: 'register' | 'login' | 'home') => Promise<void>;
}

/**
 * A new user opens the address, finds the way to sign up from what the page says, confirms the
 * address from the e-mail and logs in: the page ends on /dashboard.
 */
export async function signUpAndLogIn(page: Page, w: Words, c: NewCompany): Promise<void> {
  await page.goto(`${c.address}/`);
  await expect.poll(() => new URL(page.url()).pathname).toBe('/user/login');
  await page.getByRole('link', { name: w.account.signUpLink }).click();
  await page.getByLabel(w.account.companyName).fill(c.company);
  await page.getByLabel(w.account.cvr).fill('24256790');
  await page.getByLabel(w.account.yourName).fill(c.owner);
  await page.getByLabel(w.account.email).fill(c.email);
  await page.getByLabel(w.account.password, { exact: true }).fill(c.password);
  await accessible(page);
  await c.onPage?.('register');
  await page.getByRole('button', { name: w.account.createAccount }).click();
  await page.getByRole('heading', { level: 1, name: w.account.checkEmailTitle }).waitFor();

  await page.goto(await mailedLink(c.mailFolder, c.email, '/user/confirm/'));
  await page.getByRole('heading', { level: 1, name: w.account.confirmedTitle }).waitFor();

  await page.goto(`${c.address}/user/login`);
  await page.getByLabel(w.account.email).fill(c.email);
  await page.getByLabel(w.account.password, { exact: true }).fill(c.password);
  await accessible(page);
  await c.onPage?.('login');
  await page.getByRole('button', { name: w.account.logIn }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard');
  await accessible(page);
  await c.onPage?.('home');
}

/** An API key made on the API keys tab, from the main navigation: the secret it shows once. */
export async function createApiKey(page: Page, w: Words, name: string): Promise<string> {
  const nav = page.getByRole('navigation', { name: w.common.mainNavigation });
  await nav.getByRole('link', { name: w.common.apiKeys }).click();
  await page.getByLabel(w.keys.name, { exact: true }).fill(name);
  await page.getByRole('button', { name: w.keys.create }).click();
  const key = (await page.locator('.secret').first().textContent())?.trim() ?? '';
  expect(key).toMatch(/^dp_live_[0-9a-f]{16}_[0-9a-f]{64}$/);
  await accessible(page);
  return key;
}

/** A webhook for every trigger to `url`, added on the Webhooks tab. */
export async function addWebhook(page: Page, w: Words, url: string): Promise<void> {
  const nav = page.getByRole('navigation', { name: w.common.mainNavigation });
  await nav.getByRole('link', { name: w.common.webhooks }).click();
  await page.getByLabel(w.webhooks.url, { exact: true }).fill(url);
  await page.getByLabel(w.webhooks.allTriggers).check();
  await accessible(page);
  await page.getByRole('button', { name: w.webhooks.add }).click();
  await page.getByRole('heading', { level: 1, name: w.webhooks.addedTitle }).waitFor();
  await accessible(page);
}
