import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CompanyRepository,
  FolderRepository,
  PresetRepository,
} from '../../src/service/companies/index.js';
import { fill } from '../../src/surfaces/http/pages/index.js';
import { DA } from '../../src/surfaces/http/pages/words-da.js';
import { EN, type Words } from '../../src/surfaces/http/pages/words-en.js';
import {
  launchChromium,
  startPagesStack,
  type PagesServer,
  type PagesStack,
} from '../helpers/pages-stack.js';
import { ihdr, pngChunk, pngOf, rgbaRows } from '../helpers/png-builder.js';

/**
 * The settings pages (company with its logo form, folders, presets and a preset's form) and the
 * question before a member is removed, in Chromium at 360 px wide, driven by the controls'
 * accessible names from each language's catalogue. Every state visited passes axe-core with no
 * serious or critical finding and does not scroll sideways; a folder is added and a member
 * removed by the keyboard alone. One server and one browser for the file.
 */
let stack: PagesStack;
let server: PagesServer;
let browser: Browser;

beforeAll(async () => {
  stack = await startPagesStack();
  [server, browser] = await Promise.all([stack.server(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** A logo far wider than a phone: the page must scale it down, not scroll. */
const WIDE_PNG = pngOf(ihdr({ width: 1200, height: 300 }), pngChunk('IDAT', rgbaRows(1200, 300)));

/**
 * No serious or critical axe-core finding, and nothing wider than the 360 px viewport. `axe`
 * false checks the width only: a second state of a page already checked in the same words.
 */
async function checked(page: Page, axe = true): Promise<void> {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
    page.url(),
  ).toBeLessThanOrEqual(360);
  if (!axe) return;
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    page.url(),
  ).toEqual([]);
}

/** The element that has the keyboard's focus: its tag and text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const e = document.activeElement;
    return `${e?.tagName.toLowerCase()}: ${e?.textContent?.trim() ?? ''}`;
  });

async function walk(language: 'en' | 'da', w: Words): Promise<void> {
  const s = w.settings;
  // axe-core on every state in English; in Danish on each page once (its words), the width always.
  const every = language === 'en';
  const company = `settings-${language}`;
  const admin = await stack.member({
    company,
    email: `admin@${company}.example`,
    admin: true,
    language,
  });
  const bodil = await stack.member({
    company,
    email: `bodil.kristiansen-overgaard@${company}.example`,
    name: 'Bodil Kristiansen-Overgaard',
    language,
  });
  const context = await browser.newContext({
    viewport: { width: 360, height: 800 },
    locale: language === 'da' ? 'da-DK' : 'en-GB',
  });
  await context.addCookies([{ ...admin.cookie, url: server.url }]);
  const page = await context.newPage();
  const settingsNav = () => page.getByRole('navigation', { name: s.pages });
  try {
    // The company page, with its logo form and no logo yet.
    await page.goto(`${server.url}/dashboard/settings`);
    await page.getByRole('heading', { level: 1, name: s.title }).waitFor();
    await page.getByText(s.noLogo).waitFor();
    // The current tab is marked, for a screen reader and to the eye, and only it.
    const tabs = settingsNav().getByRole('link');
    const marks = await tabs.evaluateAll((links) =>
      links.map((a) => [
        a.textContent,
        a.getAttribute('aria-current'),
        Number(getComputedStyle(a.querySelector('strong') ?? a).fontWeight) >= 600,
      ]),
    );
    expect(marks.filter(([, current]) => current !== null)).toEqual([[s.companyTab, 'page', true]]);
    expect(marks.filter(([, , bold]) => bold)).toHaveLength(1);
    await checked(page);

    // A logo wider than the phone: taken, shown, and scaled to fit.
    await page.getByLabel(s.logoFile, { exact: true }).setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: WIDE_PNG,
    });
    await page.getByRole('button', { name: s.uploadLogo }).click();
    await page.getByText(s.logoSaved).waitFor();
    const logo = page.getByRole('img', {
      name: fill(s.logoAlt, { company: `Company ${company}` }),
    });
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(1200);
    expect((await logo.boundingBox())!.width).toBeLessThanOrEqual(360);
    await checked(page);

    // A refused file is said beside its field, and that state passes too.
    await page.getByLabel(s.logoFile, { exact: true }).setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: Buffer.from('only text, named a PNG'),
    });
    await page.getByRole('button', { name: s.uploadLogo }).click();
    await page.locator('#field-logo-error').waitFor();
    expect(await page.getByLabel(s.logoFile, { exact: true }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    await checked(page, every);

    // The company's name changed by keyboard: typed, and the form sent with Enter.
    const name = page.getByLabel(s.name, { exact: true });
    await name.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Strandvejens Ejendomsadministration og Udlejning A/S');
    await page.keyboard.press('Enter');
    await page.getByText(s.saved).waitFor();
    expect((await new CompanyRepository(stack.t.db).get(company)).name).toBe(
      'Strandvejens Ejendomsadministration og Udlejning A/S',
    );
    await checked(page, every);

    // Folders: a folder added by the keyboard alone (type, Tab to the button, Enter).
    await settingsNav().getByRole('link', { name: s.foldersTab }).click();
    await page.getByRole('heading', { level: 1, name: s.folders }).waitFor();
    await checked(page);
    const folder = 'Lejekontrakter og allonger for Strandvejen 142, 3. sal tv.';
    await page.getByLabel(s.folderName, { exact: true }).focus();
    await page.keyboard.type(folder);
    await page.keyboard.press('Tab');
    await expect.poll(() => focused(page)).toBe(`button: ${s.addFolderButton}`);
    await page.keyboard.press('Enter');
    await page.getByText(fill(s.folderAdded, { name: folder })).waitFor();
    await page.getByLabel(fill(s.renameLabel, { name: folder }), { exact: true }).waitFor();
    expect((await new FolderRepository(stack.t.db).list(company)).map((f) => f.name)).toContain(
      folder,
    );
    await checked(page, every);

    // Presets: none yet, then the form, refused at its field, then added and listed.
    await settingsNav().getByRole('link', { name: s.presetsTab }).click();
    await page.getByRole('heading', { level: 1, name: s.presets }).waitFor();
    await page.getByText(s.noPresets).waitFor();
    await checked(page);
    await page.getByRole('link', { name: s.newPreset }).click();
    await page.getByRole('heading', { level: 1, name: s.newPreset }).waitFor();
    await checked(page);
    await page.getByLabel(s.presetName, { exact: true }).fill('Lejekontrakt, to påmindelser');
    const settings = page.getByLabel(s.presetSettings, { exact: true });
    await settings.fill('{"reminders": {"amount": 99}}');
    await page.getByRole('button', { name: s.addPresetButton }).click();
    await page.locator('#field-settings-error').waitFor();
    expect(await settings.getAttribute('aria-invalid')).toBe('true');
    await checked(page, every);
    await settings.fill(
      '{"expiresInDays": 14, "reminders": {"send": true, "amount": 2, "daysBetween": 3}}',
    );
    await page.getByRole('button', { name: s.addPresetButton }).click();
    await page.getByRole('heading', { level: 1, name: s.presets }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Lejekontrakt, to påmindelser' }).waitFor();
    await checked(page);
    const [preset] = await new PresetRepository(stack.t.db).list(company);
    expect(preset?.settings).toMatchObject({ expiresInDays: 14 });
    // "Edit" and, for a screen reader, which preset (the visually hidden part of the link).
    await page
      .getByRole('link', { name: new RegExp(`^${s.edit}\\W+Lejekontrakt, to påmindelser$`) })
      .click();
    await page
      .getByRole('heading', {
        level: 1,
        name: fill(s.editPreset, { name: 'Lejekontrakt, to påmindelser' }),
      })
      .waitFor();
    await checked(page, every);

    // A member's removal asks first, on a page of its own; confirmed by the keyboard.
    await page.goto(`${server.url}/dashboard/members`);
    await page.getByRole('heading', { level: 1, name: w.members.title }).waitFor();
    await page
      .getByRole('row', { name: /Bodil Kristiansen-Overgaard/ })
      .getByRole('link', { name: w.members.remove })
      .click();
    const values = {
      name: 'Bodil Kristiansen-Overgaard',
      email: bodil.email,
      company: 'Strandvejens Ejendomsadministration og Udlejning A/S',
    };
    await page
      .getByRole('heading', { level: 1, name: fill(w.members.removeTitle, values) })
      .waitFor();
    await page.getByText(fill(w.members.removeText, values)).waitFor();
    await checked(page);
    await page.getByRole('button', { name: fill(w.members.removeConfirm, values) }).focus();
    await page.keyboard.press('Enter');
    await page.getByText(fill(w.members.removed, { email: bodil.email })).waitFor();
    expect(
      await stack.t.db.selectFrom('users').select('id').where('id', '=', bodil.userId).execute(),
    ).toEqual([]);
    await checked(page, every);
  } finally {
    await context.close();
  }
}

describe('the settings pages and the member removal in Chromium', () => {
  it('work in English at 360 px, with the keyboard, passing axe', async () => {
    await walk('en', EN);
  });

  it('work the same in Danish', async () => {
    await walk('da', DA);
  });
});
