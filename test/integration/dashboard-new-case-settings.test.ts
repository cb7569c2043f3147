import { AxeBuilder } from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageTemplateRepository, PresetRepository } from '../../src/service/companies/index.js';
import { EN } from '../../src/surfaces/http/pages/words-en.js';
import { dashboardBrowser } from '../helpers/dashboard-forms.js';
import {
  launchChromium,
  startPagesStack,
  type PagesServer,
  type PagesStack,
} from '../helpers/pages-stack.js';

/**
 * The New case form's recipients' group and signing method and its settings (issue 34):
 * reminders, language, message, message template and preset reach the case exactly as the same
 * body over POST /v3/api/cases stores them; a reminder count out of the spec's bounds is refused
 * by its own input; the full form passes axe at 360 px.
 */
let stack: PagesStack;
let server: PagesServer;
let browser: Browser;
const w = EN.newCase;

beforeAll(async () => {
  stack = await startPagesStack();
  [server, browser] = await Promise.all([stack.server(), launchChromium()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** What a case stores of the form's settings and recipients, without what differs per case. */
async function stored(caseId: string) {
  const c = await stack.t.db
    .selectFrom('cases')
    .select(['settings', 'language', 'message_template_id', 'signing_schemas', 'state'])
    .where('id', '=', caseId)
    .executeTakeFirstOrThrow();
  const recipients = await stack.t.db
    .selectFrom('recipients')
    .select(['name', 'group', 'signing', 'details', 'message_template_id'])
    .where('case_id', '=', caseId)
    .orderBy('position')
    .execute();
  return { ...c, recipients };
}

async function companyRecords(company: string) {
  const preset = await new PresetRepository(stack.t.db).add(company, {
    name: 'Short',
    settings: { expiresInDays: 12 },
  });
  const template = await new MessageTemplateRepository(stack.t.db).add(company, {
    name: 'Formal',
    subject: 'A contract to sign',
    body: 'Please read and sign the contract.',
  });
  return { preset, template };
}

describe('the New case form: recipients and settings', () => {
  it('stores group, signing method, reminders, language, message, template and preset as v3 does', async () => {
    const ann = await stack.member({
      company: 'ncs-a',
      email: 'ann@ncs-a.example',
      language: 'en',
    });
    const { preset, template } = await companyRecords('ncs-a');
    const b = await dashboardBrowser(server, ann);
    // The form offers the company's own preset and template by name.
    const form = await b.get('/dashboard/cases/new');
    expect(form.html).toContain(`<option value="${preset.id}">Short</option>`);
    expect(form.html).toContain(`<option value="${template.id}">Formal</option>`);
    expect(form.html).toContain('<option value="draw">');
    const saved = await b.post('/dashboard/cases/new', {
      title: 'Lease with settings',
      rows: '2',
      'recipients.0.name': 'Bo',
      'recipients.0.email': 'bo@example.com',
      'recipients.0.signing': 'true',
      'recipients.0.group': '1',
      'recipients.0.signingSchema': 'draw',
      'recipients.1.name': 'Cy',
      'recipients.1.email': 'cy@example.com',
      'recipients.1.signing': 'true',
      'recipients.1.group': '2',
      'reminders.amount': '3',
      'reminders.daysBetween': '5',
      language: 'en',
      message: 'Please sign before Friday.',
      messageTemplateId: template.id,
      presetId: preset.id,
      state: 'draft',
    });
    expect(saved.status, saved.html).toBe(303);
    const mine = await stack.t.db
      .selectFrom('cases')
      .select('id')
      .where('company_id', '=', 'ncs-a')
      .executeTakeFirstOrThrow();

    // The same case over v3, as an API client sends it.
    const key = await stack.keys.create({ company: 'ncs-a', user: 'ann@ncs-a.example', name: 'k' });
    const res = await fetch(`${server.url}/v3/api/cases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Lease with settings',
        state: 'draft',
        presetId: preset.id,
        messageTemplateId: template.id,
        settings: {
          reminders: { send: true, amount: 3, daysBetween: 5 },
          language: 'en',
          message: 'Please sign before Friday.',
        },
        recipients: [
          { name: 'Bo', email: 'bo@example.com', signing: true, group: 1, signingSchema: 'draw' },
          { name: 'Cy', email: 'cy@example.com', signing: true, group: 2 },
        ],
        documents: [],
      }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const theirs = ((await res.json()) as { case: { id: string } }).case.id;

    const dashboard = await stored(mine.id);
    expect(dashboard).toEqual(await stored(theirs));
    // And what that is, so that two equally wrong cases do not pass.
    expect(dashboard).toMatchObject({
      language: 'en',
      message_template_id: template.id,
      settings: {
        expiresInDays: 12,
        message: 'Please sign before Friday.',
        reminders: { send: true, amount: 3, daysBetween: 5 },
      },
    });
    expect(dashboard.recipients.map((r) => r.group)).toEqual([1, 2]);
    expect(dashboard.recipients[0]!.details).toMatchObject({ signingSchema: 'draw' });
  });

  it('refuses a reminder count past 20 and a spacing of 0 by their inputs, creating nothing', async () => {
    const ann = await stack.member({
      company: 'ncs-b',
      email: 'ann@ncs-b.example',
      language: 'en',
    });
    const b = await dashboardBrowser(server, ann);
    const refused = await b.post('/dashboard/cases/new', {
      title: 'Too many reminders',
      rows: '1',
      'recipients.0.name': 'Bo',
      'recipients.0.email': 'bo@example.com',
      'recipients.0.signing': 'true',
      'recipients.0.group': 'first',
      'reminders.amount': '21',
      'reminders.daysBetween': '0',
      state: 'draft',
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toMatch(/id="field-reminders\.amount-error"/);
    expect(refused.html).toMatch(/id="field-reminders\.daysBetween-error"/);
    expect(refused.html).toMatch(/id="field-recipients\.0\.group-error"/);
    // The values stay as typed for the next try.
    expect(refused.html).toContain('value="21"');
    const n = await stack.t.db
      .selectFrom('cases')
      .select((e) => e.fn.countAll().as('n'))
      .where('company_id', '=', 'ncs-b')
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(0);
  });

  it("refuses another company's preset and template by their inputs, and offers only its own", async () => {
    await stack.member({ company: 'ncs-d', email: 'ann@ncs-d.example', language: 'en' });
    const other = await companyRecords('ncs-d');
    const bo = await stack.member({ company: 'ncs-e', email: 'bo@ncs-e.example', language: 'en' });
    const b = await dashboardBrowser(server, bo);
    const form = await b.get('/dashboard/cases/new');
    expect(form.html).not.toContain(other.preset.id);
    expect(form.html).not.toContain(other.template.id);
    const refused = await b.post('/dashboard/cases/new', {
      title: 'Borrowed preset',
      rows: '1',
      'recipients.0.name': 'Bo',
      'recipients.0.email': 'bo@example.com',
      'recipients.0.signing': 'true',
      presetId: other.preset.id,
      messageTemplateId: other.template.id,
      state: 'draft',
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toMatch(/id="field-presetId-error"/);
    expect(refused.html).toMatch(/id="field-messageTemplateId-error"/);
  });

  it('shows the full form with its new inputs accessibly at 360 px, Add recipient a secondary button', async () => {
    const member = await stack.member({
      company: 'ncs-c',
      email: 'ann@ncs-c.example',
      language: 'en',
    });
    await companyRecords('ncs-c');
    const context = await browser.newContext({ viewport: { width: 360, height: 800 } });
    await context.addCookies([{ ...member.cookie, url: server.url }]);
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/dashboard/cases/new`);
      await page.getByRole('heading', { level: 1, name: w.title }).waitFor();
      await page.getByLabel(w.remindersAmount).fill('25');
      await page.getByLabel(w.signingMethod).selectOption('draw');
      await page.getByLabel(w.preset).selectOption({ label: 'Short' });
      await page.getByLabel(w.messageTemplate).selectOption({ label: 'Formal' });
      await page.getByRole('button', { name: w.addRecipient }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('group', { name: 'Recipient 2', exact: true }).waitFor();
      await expect
        .poll(() => page.getByRole('button', { name: w.addRecipient }).getAttribute('class'))
        .toBe('secondary');
      // Kept across the re-render, and every input is reachable by its label.
      expect(await page.getByLabel(w.remindersAmount).inputValue()).toBe('25');
      expect(await page.getByLabel(w.preset).inputValue()).not.toBe('');
      await page.getByRole('button', { name: w.saveDraft }).click();
      await page.locator('[id="field-reminders.amount-error"]').waitFor();
      const { violations } = await new AxeBuilder({ page }).analyze();
      const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        360,
      );
    } finally {
      await context.close();
    }
  });
});
