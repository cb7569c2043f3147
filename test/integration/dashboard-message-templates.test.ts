import { AxeBuilder } from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageTemplateRepository } from '../../src/service/companies/index.js';
import { DA } from '../../src/surfaces/http/pages/words-da.js';
import { dashboardBrowser } from '../helpers/dashboard-forms.js';
import {
  launchChromium,
  startPagesStack,
  type PagesServer,
  type PagesStack,
} from '../helpers/pages-stack.js';

/**
 * The message templates' settings pages over a real socket: list, add, edit and preview (filled
 * with the member's own name and the company's), the repository's refusals by their field with
 * line and column, nothing stored by a preview; admins only; another company's template not found.
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

const decoded = (html: string) =>
  html.replaceAll('&#123;', '{').replaceAll('&#125;', '}').replaceAll('&#39;', "'");

describe('the message templates pages', () => {
  it('previews a template with example values without storing it, refuses an unknown placeholder where it is, then adds and edits it', async () => {
    const ann = await stack.member({
      company: 'tpl-a',
      email: 'ann@tpl-a.example',
      name: 'Ann Admin',
      admin: true,
    });
    const templates = new MessageTemplateRepository(stack.t.db);
    const b = await dashboardBrowser(server, ann);
    const empty = await b.get('/dashboard/settings/templates');
    expect(empty.status).toBe(200);
    expect(empty.html).toContain('No message templates yet.');
    const fresh = await b.get('/dashboard/settings/templates/new');
    expect(fresh.status).toBe(200);
    // The example the form starts from is itself a valid template, previewed at once.
    expect(fresh.html).toContain(
      'Ann Admin of Company tpl-a asks you to sign Lease for Nørregade 7',
    );

    const preview = await b.post('/dashboard/settings/templates', {
      id: 'welcome',
      subject: 'Sign {{case.title}}',
      body: 'Hello {{recipient.name}}, from {{sender.email}}',
      preview: '1',
    });
    expect(preview.status).toBe(200);
    expect(preview.html).toContain('Sign Lease for Nørregade 7');
    expect(preview.html).toContain('Hello Mette Sørensen, from ann@tpl-a.example');
    expect(decoded(preview.html)).toContain('The body has no {{signingUrl}}');
    expect(await templates.list('tpl-a')).toEqual([]);

    const bad = await b.post('/dashboard/settings/templates', {
      id: 'welcome',
      subject: 'Sign {{case.title}}',
      body: 'Hello\n  {{recipent.name}}',
    });
    expect(bad.status).toBe(400);
    expect(decoded(bad.html)).toContain('line 2, column 3: unknown placeholder {{recipent.name}}');
    expect(bad.html).toContain('id="field-body-error"');
    expect(await templates.list('tpl-a')).toEqual([]);

    const added = await b.post('/dashboard/settings/templates', {
      id: 'welcome',
      name: 'Welcome',
      subject: 'Sign {{case.title}}',
      body: 'Hello {{recipient.name}}: {{signingUrl}}',
    });
    expect(added.status).toBe(303);
    const list = await b.get('/dashboard/settings/templates');
    expect(list.html).toContain('The message template welcome was added.');
    expect(list.html).toContain('Welcome');
    const taken = await b.post('/dashboard/settings/templates', {
      id: 'welcome',
      subject: 'Again',
      body: 'Again',
    });
    expect(taken.status).toBe(400);
    expect(taken.html).toContain('There is a message template with the id welcome already.');

    const edit = await b.get('/dashboard/settings/templates/welcome');
    expect(edit.status).toBe(200);
    expect(edit.html).not.toContain('The body has no');
    const saved = await b.post('/dashboard/settings/templates/welcome', {
      name: 'Welcome',
      subject: 'Please sign {{case.title}}',
      body: 'Hi {{recipient.name}}',
    });
    expect(saved.status).toBe(303);
    expect(await templates.find('tpl-a', 'welcome')).toMatchObject({
      name: 'Welcome',
      subject: 'Please sign {{case.title}}',
      body: 'Hi {{recipient.name}}',
    });
  });

  it('answers a member who is not an admin 403, and another company’s template as not found', async () => {
    await new MessageTemplateRepository(stack.t.db).add(
      (await stack.member({ company: 'tpl-b', email: 'bo@tpl-b.example', admin: true })).companyId,
      { id: 'theirs', subject: 'S', body: 'B' },
    );
    const member = await stack.member({ company: 'tpl-c', email: 'cy@tpl-c.example' });
    const m = await dashboardBrowser(server, member);
    expect((await m.get('/dashboard/settings/templates')).status).toBe(403);
    const admin = await stack.member({ company: 'tpl-c', email: 'di@tpl-c.example', admin: true });
    const a = await dashboardBrowser(server, admin);
    expect((await a.get('/dashboard/settings/templates/theirs')).status).toBe(404);
    const post = await a.post('/dashboard/settings/templates/theirs', { subject: 'X', body: 'Y' });
    expect(post.status).toBe(404);
    expect(await new MessageTemplateRepository(stack.t.db).find('tpl-b', 'theirs')).toMatchObject({
      subject: 'S',
      body: 'B',
    });
  });

  it('works at 360 px in Chromium by keyboard, in Danish, with no serious axe finding', async () => {
    const admin = await stack.member({
      company: 'tpl-d',
      email: 'eva@tpl-d.example',
      admin: true,
      language: 'da',
    });
    const context = await browser.newContext({
      viewport: { width: 360, height: 800 },
      locale: 'da-DK',
    });
    await context.addCookies([{ ...admin.cookie, url: server.url }]);
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/dashboard/settings/templates/new`);
      await page.getByLabel(DA.settings.subject).fill('Hej {{recipient.name}}');
      await page.getByRole('button', { name: DA.settings.previewButton }).focus();
      await page.keyboard.press('Enter');
      await page.getByText('Hej Mette Sørensen', { exact: true }).waitFor();
      // The form with its preview as the keyboard left it, then the list.
      for (const path of [undefined, '/dashboard/settings/templates']) {
        if (path) await page.goto(`${server.url}${path}`);
        const { violations } = await new AxeBuilder({ page }).analyze();
        const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(
          bad.map((v) => `${v.id}: ${v.help}`),
          path,
        ).toEqual([]);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth),
          path,
        ).toBeLessThanOrEqual(360);
      }
    } finally {
      await context.close();
    }
  }, 120_000);
});
