import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormRepository, type NewForm } from '../../src/service/forms/index.js';
import { webflowTokenFor } from '../../src/service/webflows/index.js';
import { DA } from '../../src/surfaces/http/pages/words-da.js';
import { EN } from '../../src/surfaces/http/pages/words-en.js';
import { accessible } from '../helpers/dashboard-journey-steps.js';
import {
  launchChromium,
  startPagesStack,
  TEST_SECRET,
  type PagesServer,
  type PagesStack,
} from '../helpers/pages-stack.js';

/**
 * The web-flow answer page `/flow/{token}` (issue 36) in Chromium at 360 px, over the server as
 * `docpipe serve` builds it on a real PostgreSQL and Redis: a flow created over the API, its
 * page answered in two sittings (one bad value refused at its field, the progress kept), the
 * answers sent, and the API's GET showing them (the CPR number never in plain text), the flow
 * completed with its workflow.completed event; a wrong and a used link answer alike; the page
 * in Danish and switched to English. axe-core on every page. One server and one browser.
 */
let stack: PagesStack;
let server: PagesServer;
let browser: Browser;
let key: string;
const SENDER = 'office@flow-a.example';
const en = EN.flow;
const da = DA.flow;

function surveyForm(): NewForm {
  return {
    company: 'flow-a',
    id: 'survey',
    title: 'Tenant survey',
    folder: null,
    active: true,
    webflow: true,
    settings: {},
    tags: [
      { _id: 'tenant', name: 'Tenant', tag: 'tenant', value: null, type: 'text' },
      { _id: 'rent', name: 'Monthly rent', tag: 'rent', value: 1200, type: 'number' },
      { _id: 'start', name: 'Start date', tag: 'start', value: null, type: 'date' },
      { _id: 'mail', name: 'E-mail', tag: 'mail', value: null, type: 'text', kind: 'email' },
      { _id: 'cpr', name: 'CPR number', tag: 'cpr', value: null, type: 'text', kind: 'cpr' },
      {
        _id: 'pet',
        name: 'Pet',
        tag: 'pet',
        value: null,
        type: 'text',
        choices: ['Cat', 'Dog'],
      },
      { _id: 'garden', name: 'Garden', tag: 'garden', value: null, type: 'boolean' },
    ],
    recipients: [],
    documents: [
      {
        name: 'Lease',
        storageKey: 'forms/flow-a/survey/lease.docx',
        kind: 'docx',
        sha256: '0'.repeat(64),
        bytes: 1,
        file: 'lease.docx',
      },
    ],
  };
}

beforeAll(async () => {
  stack = await startPagesStack();
  [server, browser] = await Promise.all([
    stack.server({ DOCPIPE_CPR_KEY: randomBytes(32).toString('base64') }),
    launchChromium(),
  ]);
  await stack.member({ company: 'flow-a', email: SENDER, name: 'Acme Office', admin: true });
  key = (await stack.keys.create({ company: 'flow-a', user: SENDER, name: 'flows' })).key;
  await new FormRepository(stack.t.db).replace(surveyForm(), new Date());
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

interface Flow {
  id: string;
  state: string;
  recipients: { id: string; status: string }[];
  answers: { tag: string; type: string; value: unknown; answeredBy: string }[];
  progress: { answered: number; total: number };
  updatedAt: string;
}

async function api(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Flow> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body
        ? { 'content-type': 'application/json', 'idempotency-key': randomBytes(8).toString('hex') }
        : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  expect(res.status, text).toBe(method === 'POST' ? 201 : 200);
  return (JSON.parse(text) as { webflow: Flow }).webflow;
}

/** A flow of one person; its link's path, derived as the invitation derives it. */
async function newFlow(language: 'da' | 'en'): Promise<{ flow: Flow; path: string }> {
  const flow = await api('POST', '/v3/api/webflows', {
    formId: 'survey',
    title: 'Who lives there?',
    message: 'Please answer by Friday.',
    senderEmail: SENDER,
    recipients: [{ name: 'Ann Tenant', email: 'ann@tenant.example', language }],
  });
  const { token } = webflowTokenFor(TEST_SECRET, flow.recipients[0]!.id);
  return { flow, path: `/flow/${token}` };
}

async function narrowPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 360, height: 800 } });
  return { context, page: await context.newPage() };
}

/** axe-core finds nothing serious, and nothing is wider than the 360 px screen. */
async function checked(page: Page): Promise<void> {
  await accessible(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

/**
 * A page's body with its CSRF token and its own path (the language switch comes back to it)
 * taken out: what two visitors' pages may differ by.
 */
async function pageText(path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${server.url}${path}`);
  const body = await res.text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? 'none';
  return { status: res.status, body: body.replaceAll(csrf, '[csrf]').replaceAll(path, '[path]') };
}

describe('the web-flow answer page', () => {
  it('is answered in two sittings, sent, and read back over the API', async () => {
    const { flow, path } = await newFlow('en');
    const first = await narrowPage();
    const page = first.page;
    expect((await page.goto(`${server.url}${path}`))?.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Who lives there?' }).waitFor();
    await page
      .getByText(en.from.replace('{name}', 'Acme Office').replace('{company}', 'Company flow-a'))
      .waitFor();
    await page.getByText('Please answer by Friday.').waitFor();
    await page.getByText(en.progress.replace('{answered}', '0').replace('{total}', '7')).waitFor();
    // Prefilled with the form's default.
    expect(await page.getByLabel('Monthly rent').inputValue()).toBe('1200');
    await checked(page);

    await page.getByLabel(`Tenant (${en.required})`).fill('Ann Tenant');
    await page.getByLabel('Monthly rent').fill('a lot');
    await page.getByLabel(`E-mail (${en.required})`).fill('ann@tenant.example');
    await page.getByLabel(`CPR number (${en.required})`).fill('010190-1234');
    await page
      .getByRole('group', { name: `Pet (${en.required})` })
      .getByLabel('Dog')
      .check();
    // By keyboard: the yes-or-no group's first choice, then Space.
    await page
      .getByRole('group', { name: `Garden (${en.required})` })
      .getByLabel(en.yes)
      .focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: en.save, exact: true }).click();

    // The bad number comes back at its field, said as this page writes numbers; the rest is saved.
    const rentError = page.locator('#field-q1-error');
    await rentError.waitFor();
    expect(await rentError.textContent()).toBe(
      'Is not a number as this page writes one (such as 1,200.50)',
    );
    expect(await page.getByLabel('Monthly rent').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.error-summary li').count()).toBe(1);
    expect(await page.getByLabel('Monthly rent').inputValue()).toBe('a lot');
    await page.getByText(en.progress.replace('{answered}', '5').replace('{total}', '7')).waitFor();
    await checked(page);

    await page.getByLabel('Monthly rent').fill('1250.50');
    await page.getByRole('button', { name: en.save, exact: true }).click();
    await page.getByText(en.saved.replace('{answered}', '6').replace('{total}', '7')).waitFor();
    await checked(page);
    await first.context.close();

    // The second sitting, in a browser that has never seen the page.
    const second = await narrowPage();
    const again = second.page;
    expect((await again.goto(`${server.url}${path}`))?.status()).toBe(200);
    await again.getByText(en.progress.replace('{answered}', '6').replace('{total}', '7')).waitFor();
    expect(await again.getByLabel(`Tenant (${en.required})`).inputValue()).toBe('Ann Tenant');
    expect(await again.getByLabel('Monthly rent').inputValue()).toBe('1250.5');
    expect(await again.getByLabel(`E-mail (${en.required})`).inputValue()).toBe(
      'ann@tenant.example',
    );
    // The CPR number is never shown back, only that one is saved.
    expect(await again.getByLabel(`CPR number (${en.required})`).inputValue()).toBe('');
    await again.getByText(en.cprSaved, { exact: false }).waitFor();
    expect(await again.getByLabel('Dog').isChecked()).toBe(true);
    expect(await again.getByLabel(en.yes).isChecked()).toBe(true);

    // Sending without the start date: refused at it, nothing sent.
    await again.getByRole('button', { name: en.send, exact: true }).click();
    await again.locator('#field-q2-error').waitFor();
    expect(await again.locator('#field-q2-error').textContent()).toBe(en.problem.required);
    await checked(again);
    expect((await api('GET', `/v3/api/webflows/${flow.id}`)).recipients[0]!.status).toBe('opened');

    await again.getByLabel(`Start date (${en.required})`).fill('2026-02-01');
    await again.getByRole('button', { name: en.send, exact: true }).click();
    await again.getByRole('heading', { level: 1, name: en.thanksTitle }).waitFor();
    await again.getByText(en.thanks.replace('{name}', 'Acme Office')).waitFor();
    await checked(again);
    // The thank-you page's language switch works although the link is used up: it comes back
    // to a thank-you page of no flow's, in Danish, and again in English.
    await again.getByRole('button', { name: EN.common.switchLanguageLabel }).click();
    await again.getByRole('heading', { level: 1, name: da.thanksTitle }).waitFor();
    await again.getByText(da.thanksSent).waitFor();
    expect(await again.getAttribute('html', 'lang')).toBe('da');
    expect(await again.content()).not.toContain('Acme Office');
    await checked(again);
    await again.getByRole('button', { name: DA.common.switchLanguageLabel }).click();
    await again.getByRole('heading', { level: 1, name: en.thanksTitle }).waitFor();
    await again.getByText(en.thanksSent).waitFor();
    expect(await again.getAttribute('html', 'lang')).toBe('en');
    await second.context.close();

    const read = await api('GET', `/v3/api/webflows/${flow.id}`);
    const recipient = flow.recipients[0]!.id;
    expect(read.state).toBe('completed');
    expect(read.recipients.map((r) => r.status)).toEqual(['answered']);
    expect(read.progress).toEqual({ answered: 7, total: 7 });
    expect(read.answers.map((a) => [a.tag, a.type, a.value, a.answeredBy])).toEqual([
      ['cpr', 'text', null, recipient],
      ['garden', 'boolean', true, recipient],
      ['mail', 'text', 'ann@tenant.example', recipient],
      ['pet', 'text', 'Dog', recipient],
      ['rent', 'number', 1250.5, recipient],
      ['start', 'date', '2026-02-01', recipient],
      ['tenant', 'text', 'Ann Tenant', recipient],
    ]);
    const stored = await stack.t.db
      .selectFrom('webflow_answers')
      .select(['value', 'value_encrypted'])
      .where('flow_id', '=', flow.id)
      .where('tag', '=', 'cpr')
      .executeTakeFirstOrThrow();
    expect(stored.value).toBeNull();
    expect(stored.value_encrypted?.includes(Buffer.from('0101901234'))).toBe(false);
    const events = await stack.t.db
      .selectFrom('case_events')
      .select(['trigger', 'case_id', 'payload'])
      .where('flow_id', '=', flow.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    // The creation's event (its invitations), then the completion's.
    expect(events.map((e) => [e.trigger, e.case_id])).toEqual([
      ['workflow.created', null],
      ['workflow.completed', null],
    ]);
    const payload = events[1]!.payload as {
      trigger: string;
      flow: { _id: string; updatedAt: string };
    };
    expect(payload.trigger).toBe('workflow.completed');
    expect(payload.flow._id).toBe(flow.id);
    expect(payload.flow.updatedAt).toBe(read.updatedAt);

    // The used link and a wrong one answer alike: the same not-found page.
    const used = await pageText(path);
    const wrong = await pageText(`/flow/${randomBytes(32).toString('base64url')}`);
    expect(used.status).toBe(404);
    expect(wrong).toEqual(used);
  });

  it('speaks the person’s language, Danish here, and switches to English', async () => {
    const { flow, path } = await newFlow('da');
    const { context, page } = await narrowPage();
    expect((await page.goto(`${server.url}${path}`))?.status()).toBe(200);
    expect(await page.getAttribute('html', 'lang')).toBe('da');
    await page.getByText(da.progress.replace('{answered}', '0').replace('{total}', '7')).waitFor();
    await page.getByRole('button', { name: da.send, exact: true }).waitFor();
    await checked(page);
    await page.getByLabel(`CPR number (${da.required})`).fill('3202901234');
    // A Danish number: the point groups thousands (eight thousand five hundred, not 8.5).
    await page.getByLabel('Monthly rent').fill('8.500,50');
    await page.getByRole('button', { name: da.save, exact: true }).click();
    await page.locator('#field-q4-error').waitFor();
    expect(await page.locator('#field-q4-error').textContent()).toBe(da.problem.cpr);
    const read = await api('GET', `/v3/api/webflows/${flow.id}`);
    expect(read.answers).toEqual(
      expect.arrayContaining([expect.objectContaining({ tag: 'rent', value: 8500.5 })]),
    );
    // Shown back as the page writes it, so that sending it again keeps the number.
    expect(await page.getByLabel('Monthly rent').inputValue()).toBe('8.500,50');
    await page.getByLabel('Monthly rent').fill('72.5');
    await page.getByRole('button', { name: da.save, exact: true }).click();
    await page.locator('#field-q1-error').waitFor();
    expect(await page.locator('#field-q1-error').textContent()).toBe(da.problem.number);
    await checked(page);
    await page.getByRole('button', { name: DA.common.switchLanguageLabel }).click();
    await page.getByRole('button', { name: en.send, exact: true }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await checked(page);
    await context.close();
  });
});
