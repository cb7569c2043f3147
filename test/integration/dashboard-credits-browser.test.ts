import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chargeCase,
  creditReferral,
  listPurchases,
  recordPurchase,
} from '../../src/service/credits/index.js';
import { DA } from '../../src/surfaces/http/pages/words-da.js';
import { EN, type Words } from '../../src/surfaces/http/pages/words-en.js';
import { draftCase } from '../helpers/draft-case.js';
import { narrowTables } from '../helpers/narrow-tables.js';
import {
  launchChromium,
  startPagesStack,
  type PagesServer,
  type PagesStack,
} from '../helpers/pages-stack.js';

/**
 * The credits page in Chromium at 360 px, in English and Danish, driven by the controls'
 * accessible names from each language's catalogue: a pack bought by keyboard alone, an EAN
 * invoice refused at its field, the auto-refill saved, a member's view. Every state passes
 * axe-core with no serious or critical finding and does not scroll sideways; its two tables
 * stack and are still tables. One server and one browser for the file.
 */
let stack: PagesStack;
let server: PagesServer;
let browser: Browser;

const BAD_GLN = '5798001234567';

beforeAll(async () => {
  stack = await startPagesStack();
  [server, browser] = await Promise.all([stack.server(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
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

/** Its tables read at 360 px without scrolling sideways, and are still tables. */
async function readableNarrow(page: Page, tables: number): Promise<void> {
  const found = await narrowTables(page);
  expect(found.documentWidth, page.url()).toBeLessThanOrEqual(360);
  expect(found.scrolling, page.url()).toEqual([]);
  expect(found.tables, page.url()).toBe(tables);
  expect(found.roles.table, page.url()).toBe(tables);
  expect(found.roles.columnheader, page.url()).toBeGreaterThan(0);
  expect(found.roles.cell, page.url()).toBeGreaterThan(0);
}

const activeId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

/** A company with a referral, a sent case with a long title and a purchase: both tables filled. */
async function busyCompany(company: string): Promise<void> {
  const db = stack.t.db;
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('companies')
      .values({
        id: `${company}-kid`,
        name: 'Henvist Virksomhed med et meget langt navn ApS',
        signing_domain: null,
        default_language: null,
        cvr: null,
        logo: null,
        logo_type: null,
        referred_by: company,
      })
      .execute();
    await creditReferral(tx, company, `${company}-kid`);
  });
  const kase = await draftCase(stack, company, {
    title: 'Lejekontrakt for lejligheden på Strandvejen 142, 3. sal tv.',
    recipients: [{ name: 'Bodil Kristiansen-Overgaard', email: 'bodil@example.com' }],
  });
  await chargeCase(db, company, kase.id, 1n);
  await recordPurchase(
    { db, pricing: { unitPriceOre: 200n, vatPpm: 250_000 } },
    {
      company,
      credits: 5000n,
      method: 'ean',
      ean: { gln: '5798001234566' },
      key: 'op',
      autoRefill: true,
      by: 'operator',
    },
  );
}

async function walk(language: 'en' | 'da', w: Words): Promise<void> {
  const c = w.credits;
  const company = `credits-${language}`;
  const admin = await stack.member({
    company,
    email: `admin@${company}.example`,
    admin: true,
    language,
  });
  await busyCompany(company);
  const context = await browser.newContext({
    viewport: { width: 360, height: 800 },
    locale: language === 'da' ? 'da-DK' : 'en-GB',
  });
  await context.addCookies([{ ...admin.cookie, url: server.url }]);
  const page = await context.newPage();
  try {
    // Reached from the navigation.
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('link', { name: w.common.credits, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: c.title }).waitFor();
    await page.locator('copy-button[for="referral-link"] button').waitFor();
    await checked(page);
    // Purchases and the ledger's lines.
    await readableNarrow(page, 2);

    // A pack bought by keyboard alone: arrows choose within a group, Tab goes to the next.
    const packs = page.getByRole('group', { name: c.pack, exact: true });
    await packs.getByRole('radio', { name: c.packChoice.replace('{credits}', '100') }).focus();
    await page.keyboard.press('ArrowDown');
    expect(
      await packs
        .getByRole('radio', { name: c.packChoice.replace('{credits}', '500') })
        .isChecked(),
    ).toBe(true);
    await page.keyboard.press('Tab');
    expect(await activeId(page)).toBe('field-method-invoice');
    await page.keyboard.press('Space');
    for (const field of ['field-gln', 'field-orderNumber', 'field-contact', 'field-reference']) {
      await page.keyboard.press('Tab');
      expect(await activeId(page)).toBe(field);
    }
    await page.keyboard.type('PO-4711');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe(c.buy);
    await page.keyboard.press('Enter');
    const bought = page.getByRole('status').filter({ hasText: /DP-\d+/ });
    await bought.waitFor();
    const purchase = (await listPurchases(stack.t.db, company)).find(
      (p) => p.reference === 'PO-4711',
    );
    expect(purchase).toMatchObject({ credits: 500n, method: 'invoice' });
    expect(await bought.textContent()).toContain(purchase!.invoiceNumber);
    await page
      .getByRole('region', { name: c.purchasesTitle })
      .getByRole('row', { name: new RegExp(purchase!.invoiceNumber) })
      .waitFor();
    await checked(page);
    await readableNarrow(page, 2);

    // An EAN invoice with a GLN whose last digit is wrong: refused at its field, focused first.
    const buy = page.getByRole('region', { name: c.buyTitle, exact: true });
    await buy.getByRole('radio', { name: c.packChoice.replace('{credits}', '100') }).check();
    await buy.getByRole('radio', { name: c.methodEanChoice, exact: true }).check();
    await buy.getByLabel(c.gln, { exact: true }).fill(BAD_GLN);
    await buy.getByRole('button', { name: c.buy, exact: true }).click();
    await page.locator('#field-gln-error').waitFor();
    // In the summary at the top and at the field.
    expect(await page.getByText(c.glnChecksum).count()).toBe(2);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.className))
      .toBe('error-summary');
    expect(await buy.getByLabel(c.gln, { exact: true }).getAttribute('aria-invalid')).toBe('true');
    // The operator's purchase and the one by keyboard: the refused one is not recorded.
    expect(await listPurchases(stack.t.db, company)).toHaveLength(2);
    await checked(page);

    // The auto-refill, saved: its form has a region of its own (both forms ask "Pay by").
    const refill = page.getByRole('region', { name: c.refillTitle, exact: true });
    await refill.getByRole('checkbox', { name: c.refillEnabled }).check();
    await refill.getByLabel(c.refillBelow, { exact: true }).fill('50');
    await refill
      .getByRole('group', { name: c.refillCredits, exact: true })
      .getByRole('radio', { name: c.packChoice.replace('{credits}', '1000') })
      .check();
    await refill
      .getByRole('group', { name: c.refillMethod, exact: true })
      .getByRole('radio', { name: c.methodInvoiceChoice, exact: true })
      .check();
    await refill.getByRole('button', { name: c.refillSave }).click();
    await page.getByRole('status').filter({ hasText: c.refillSaved }).waitFor();
    await page.locator('#refill-state').filter({ hasText: '50' }).waitFor();
    await checked(page);
  } finally {
    await context.close();
  }

  // A member who is not an admin: the balance and the tables, no forms.
  const member = await stack.member({ company, email: `mo@${company}.example`, language });
  const memberContext = await browser.newContext({ viewport: { width: 360, height: 800 } });
  await memberContext.addCookies([{ ...member.cookie, url: server.url }]);
  const memberPage = await memberContext.newPage();
  try {
    await memberPage.goto(`${server.url}/dashboard/credits`);
    await memberPage.getByText(c.buyAdminsOnly).waitFor();
    expect(await memberPage.getByRole('button', { name: c.buy }).count()).toBe(0);
    await checked(memberPage);
    await readableNarrow(memberPage, 2);
  } finally {
    await memberContext.close();
  }
}

describe('the credits page in Chromium', () => {
  it('works in English at 360 px, by keyboard', async () => {
    await walk('en', EN);
  });

  it('works the same in Danish', async () => {
    await walk('da', DA);
  });
});
