import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { join } from 'node:path';
import { LocalStorage } from '../../src/render/storage/index.js';
import { FormRepository, formsFolder, type NewForm } from '../../src/service/forms/index.js';
import { listWebflows } from '../../src/service/webflows/index.js';
import { DA } from '../../src/surfaces/http/pages/words-da.js';
import { EN } from '../../src/surfaces/http/pages/words-en.js';
import { accessible } from '../helpers/dashboard-journey-steps.js';
import { draftCase } from '../helpers/draft-case.js';
import { narrowTables } from '../helpers/narrow-tables.js';
import {
  launchChromium,
  startPagesStack,
  type PagesServer,
  type PagesStack,
  type TestMember,
} from '../helpers/pages-stack.js';

/**
 * The dashboard's web-flows (issue 36) in Chromium: a form made web-flow enabled by its switch
 * under Settings, Forms; a flow created over the API with a key, then seen in the list and on
 * its page (people, progress, answers typed, a CPR answer only "Encrypted", the case it made or
 * why not); another company's flow not found; Published turned off refusing new flows with
 * form-not-found. Every page passes axe; the flow's page reads at 360 px; Danish once. One
 * server and one browser for the file.
 */
const execFileAsync = promisify(execFile);

let stack: PagesStack;
let server: PagesServer;
let browser: Browser;
let admin: TestMember;
let key: string;
let context: BrowserContext;
let page: Page;

const F = EN.flows;
const COMPANY = 'flows-acme';
const OTHER = 'flows-globex';

/** The survey form: four questions, published, not yet web-flow enabled. */
function surveyForm(company: string, flags: Partial<NewForm> = {}): NewForm {
  return {
    company,
    id: 'survey',
    title: 'Tenant survey',
    folder: null,
    active: true,
    webflow: false,
    settings: {},
    tags: [
      { _id: 'tenant', name: 'Tenant', tag: 'tenant', value: null, type: 'text' },
      { _id: 'rent', name: 'Monthly rent', tag: 'rent', value: null, type: 'number' },
      { _id: 'pets', name: 'Has pets', tag: 'pets', value: null, type: 'boolean' },
      { _id: 'cpr', name: 'CPR number', tag: 'cpr', value: null, type: 'text' },
    ],
    recipients: [],
    documents: [
      {
        name: 'Lease',
        storageKey: `forms/${company}/survey/lease.docx`,
        kind: 'docx',
        sha256: '0'.repeat(64),
        bytes: 1,
        file: 'lease.docx',
      },
    ],
    ...flags,
  };
}

/** What the test reads of POST /v3/api/webflows's answer. */
interface FlowAnswer {
  error?: string;
  webflow?: { id: string; recipients: { id: string; name: string }[] };
}

let idempotency = 0;
async function postFlow(
  apiKey: string,
  title: string,
): Promise<{ status: number; body: FlowAnswer }> {
  const res = await fetch(`${server.url}/v3/api/webflows`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${apiKey}`,
      'content-type': 'application/json',
      'idempotency-key': `flows-browser-${++idempotency}`,
    },
    body: JSON.stringify({
      formId: 'survey',
      title,
      recipients: [
        { name: 'Tenant One', email: 'one@tenant.example' },
        { name: 'Tenant Two', email: 'two@tenant.example' },
      ],
    }),
  });
  return { status: res.status, body: (await res.json()) as FlowAnswer };
}

beforeAll(async () => {
  stack = await startPagesStack();
  [server, browser] = await Promise.all([stack.server(), launchChromium()]);
  admin = await stack.member({
    company: COMPANY,
    email: 'admin@flows-acme.example',
    admin: true,
    name: 'Ada Admin',
    language: 'en',
  });
  await new FormRepository(stack.t.db).replace(surveyForm(COMPANY), new Date());
  ({ key } = await stack.keys.create({ company: COMPANY, user: admin.email, name: 'flows' }));
  context = await browser.newContext({ locale: 'en-GB' });
  await context.addCookies([{ ...admin.cookie, url: server.url }]);
  page = await context.newPage();
}, 120_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await stack?.close();
});

describe('the dashboard’s web-flows', () => {
  let flowId = '';
  let recipients: { id: string; name: string }[] = [];

  it('shows how to start a flow while there is none; the form is not yet web-flow enabled', async () => {
    expect((await postFlow(key, 'Too early')).body).toMatchObject({
      error: 'form-not-found',
    });
    await page.goto(`${server.url}/dashboard/cases`);
    // Right after Cases in the navigation.
    const nav = page.getByRole('navigation', { name: EN.common.mainNavigation });
    const items = await nav.getByRole('link').allTextContents();
    expect(items.slice(0, 2)).toEqual([EN.common.cases, F.nav]);
    await nav.getByRole('link', { name: F.nav, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: F.title }).waitFor();
    await page.getByRole('heading', { level: 2, name: F.noFlows }).waitFor();
    const command = (await page.getByRole('region', { name: F.howToStartCommand }).textContent())!;
    // The server's own URL and a key any shell makes: nothing to set but the API key.
    expect(command).toContain(`'${server.url}/v3/api/webflows'`);
    expect(command).not.toContain('DOCPIPE_URL');
    expect(command).not.toContain('uuidgen');
    // No form can start a flow yet: the page says how to enable one, the command leaves a gap.
    expect(command).toContain('"formId": "<form id>"');
    await page.getByText(F.startNoForm).waitFor();
    await page.getByRole('button', { name: F.copyCommand }).waitFor();
    await accessible(page);
  });

  it('turns a form web-flow enabled by its switch, without script, and logs nothing else', async () => {
    await page.goto(`${server.url}/dashboard/settings`);
    await page
      .getByRole('navigation', { name: EN.settings.pages })
      .getByRole('link', { name: F.formsTab })
      .click();
    await page.getByRole('heading', { level: 1, name: F.formsTitle }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Tenant survey' }).waitFor();
    await accessible(page);
    // By keyboard: the switch's button is reached and pressed.
    const turnOn = page.getByRole('button', {
      name: `${F.turnOn}: ${F.webflow} for Tenant survey`,
    });
    await turnOn.focus();
    await page.keyboard.press('Enter');
    await page.getByText(F.webflowOn.replace('{form}', 'Tenant survey')).waitFor();
    await page
      .getByRole('button', { name: `${F.turnOff}: ${F.webflow} for Tenant survey` })
      .waitFor();
    await accessible(page);
    const row = await stack.t.db
      .selectFrom('forms')
      .select(['active', 'webflow'])
      .where('company_id', '=', COMPANY)
      .where('id', '=', 'survey')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ active: true, webflow: true });
  });

  it('lists a flow created over the API, and shows its people and progress', async () => {
    const made = await postFlow(key, 'Move-in questions');
    expect(made.status).toBe(201);
    flowId = made.body.webflow!.id;
    recipients = made.body.webflow!.recipients;

    await page.goto(`${server.url}/dashboard/flows`);
    const table = page.getByRole('region', { name: F.caption });
    const cells = await table.getByRole('row').nth(1).getByRole('cell').allTextContents();
    expect(cells.slice(0, 5)).toEqual([
      'Move-in questions',
      'Tenant survey',
      F.statePending,
      '0 of 4',
      '2',
    ]);
    await accessible(page);

    await table.getByRole('link', { name: 'Move-in questions' }).click();
    await page
      .getByRole('heading', { level: 1, name: F.flowTitle.replace('{title}', 'Move-in questions') })
      .waitFor();
    const people = page.getByRole('region', { name: F.recipients });
    const rows = people.getByRole('row');
    expect(await rows.count()).toBe(3);
    expect(await rows.nth(1).getByRole('cell').allTextContents()).toEqual([
      'Tenant One',
      'one@tenant.example',
      F.statusPending,
      F.never,
      F.invitationPending,
    ]);
    const details = page.locator('dl.case-details');
    expect(await details.textContent()).toContain('0 of 4 questions answered');
    expect(await details.textContent()).toContain('Ada Admin <admin@flows-acme.example>');
    await page.getByText(F.noAnswers).waitFor();
    await page.getByText(F.caseNone).waitFor();
    await accessible(page);

    // The invitations as the message ledger has them: one sent, one refused for good.
    const [one, two] = recipients;
    const ledger = (personId: string, row: { status: 'sent' | 'failed'; error?: string }) =>
      stack.t.db
        .insertInto('messages')
        .values({
          company_id: COMPANY,
          case_id: null,
          recipient_id: null,
          flow_id: flowId,
          flow_recipient_id: personId,
          addressee: personId,
          channel: 'email',
          kind: 'flow-invitation',
          status: row.status,
          to_address: 'someone@tenant.example',
          attempts: 1,
          error: row.error ?? null,
          sent_at: row.status === 'sent' ? new Date('2026-12-01T09:30:00Z') : null,
        })
        .execute();
    await ledger(one!.id, { status: 'sent' });
    await ledger(two!.id, { status: 'failed', error: '550 5.1.1 mailbox unavailable' });
    await page.reload();
    const invitations = people.locator('td[data-invitation]');
    expect(
      await invitations.evaluateAll((cells) => cells.map((c) => c.dataset.invitation)),
    ).toEqual(['sent', 'failed']);
    expect(await invitations.nth(0).textContent()).toMatch(new RegExp(`^${F.invitationSent} \\S`));
    expect(await invitations.nth(0).locator('time').getAttribute('datetime')).toBe(
      '2026-12-01T09:30:00.000Z',
    );
    expect(await invitations.nth(1).textContent()).toBe(
      F.invitationFailed.replace('{error}', '550 5.1.1 mailbox unavailable'),
    );
    await accessible(page);
  });

  it('shows the answers typed, a CPR number only as Encrypted, at 360 px too', async () => {
    const db = stack.t.db;
    const [one, two] = recipients;
    const now = new Date();
    await db
      .insertInto('webflow_answers')
      .values([
        {
          flow_id: flowId,
          tag: 'tenant',
          type: 'text',
          value: JSON.stringify('Tenant One'),
          answered_by: one!.id,
          answered_at: now,
        },
        {
          flow_id: flowId,
          tag: 'rent',
          type: 'number',
          value: JSON.stringify(12500.5),
          answered_by: two!.id,
          answered_at: now,
        },
        {
          flow_id: flowId,
          tag: 'pets',
          type: 'boolean',
          value: JSON.stringify(false),
          answered_by: one!.id,
          answered_at: now,
        },
        {
          flow_id: flowId,
          tag: 'cpr',
          type: 'text',
          value: null,
          value_encrypted: randomBytes(48),
          answered_by: one!.id,
          answered_at: now,
        },
      ])
      .execute();
    await db
      .updateTable('webflow_recipients')
      .set({ status: 'answered', opened_at: now, answered_at: now })
      .where('id', '=', one!.id)
      .execute();
    await db
      .updateTable('webflows')
      .set({ state: 'in_progress' })
      .where('id', '=', flowId)
      .execute();

    await page.setViewportSize({ width: 360, height: 800 });
    await page.reload();
    const answers = page.getByRole('region', { name: F.answers });
    const read = async (question: string) =>
      answers
        .getByRole('row', { name: new RegExp(`^${question}`) })
        .getByRole('cell')
        .allTextContents();
    expect(await read('Tenant')).toEqual(['Tenant One', 'Tenant One', expect.any(String)]);
    expect((await read('Monthly rent')).slice(0, 2)).toEqual(['12,500.5', 'Tenant Two']);
    expect((await read('Has pets')).slice(0, 1)).toEqual([F.no]);
    expect((await read('CPR number')).slice(0, 1)).toEqual([F.encrypted]);
    expect(await page.locator('dl.case-details').textContent()).toContain(
      '4 of 4 questions answered',
    );
    const people = page.getByRole('region', { name: F.recipients });
    expect(
      (await people.getByRole('row').nth(1).getByRole('cell').allTextContents()).slice(0, 3),
    ).toEqual(['Tenant One', 'one@tenant.example', F.statusAnswered]);
    const found = await narrowTables(page);
    expect(found.documentWidth).toBeLessThanOrEqual(360);
    expect(found.scrolling).toEqual([]);
    expect(found.tables).toBe(2);
    expect(found.roles.table).toBe(2);
    await accessible(page);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('shows why a completed flow made no case, then the case it made', async () => {
    const db = stack.t.db;
    await db
      .updateTable('webflows')
      .set({
        state: 'completed',
        completed_at: new Date(),
        case_request: JSON.stringify({ recipients: [] }),
        case_error: JSON.stringify({
          slug: 'validation-failed',
          details: [{ field: 'tags[1].value', message: 'must be a number' }],
        }),
      })
      .where('id', '=', flowId)
      .execute();
    await page.reload();
    const box = page.getByRole('region', { name: F.caseTitle });
    expect(await box.textContent()).toContain(F.caseRefused.replace('{slug}', 'validation-failed'));
    expect(await box.textContent()).toContain('tags[1].value: must be a number');
    await accessible(page);

    const kase = await draftCase(stack, COMPANY, {
      title: 'Lease from the survey',
      recipients: [{ name: 'Tenant One', email: 'one@tenant.example' }],
    });
    await db
      .updateTable('webflows')
      .set({ case_id: kase.id, case_error: null })
      .where('id', '=', flowId)
      .execute();
    await page.reload();
    await page
      .getByRole('region', { name: F.caseTitle })
      .getByRole('link', { name: F.caseLink })
      .click();
    await page.waitForURL(`${server.url}/dashboard/cases/${kase.id}`);
    await page.getByRole('heading', { level: 1, name: /Lease from the survey/ }).waitFor();
  });

  it('answers another company’s flow, an unknown id and a non-id with the same not-found page', async () => {
    const other = await stack.member({
      company: OTHER,
      email: 'owner@flows-globex.example',
      admin: true,
    });
    await new FormRepository(stack.t.db).replace(surveyForm(OTHER, { webflow: true }), new Date());
    const otherKey = (await stack.keys.create({ company: OTHER, user: other.email })).key;
    const theirs = await postFlow(otherKey, 'Globex secret questions');
    expect(theirs.status).toBe(201);

    const headings: string[] = [];
    for (const id of [theirs.body.webflow!.id, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const res = await page.goto(`${server.url}/dashboard/flows/${id}`);
      expect(res?.status(), id).toBe(404);
      headings.push((await page.getByRole('heading', { level: 1 }).textContent()) ?? '');
      expect(await page.content()).not.toContain('Globex secret questions');
    }
    expect(headings).toEqual([
      EN.common.notFoundTitle,
      EN.common.notFoundTitle,
      EN.common.notFoundTitle,
    ]);
    await accessible(page);
    await page.goto(`${server.url}/dashboard/flows`);
    expect(await page.getByRole('region', { name: F.caption }).getByRole('row').count()).toBe(2);
    expect(await page.content()).not.toContain('Globex secret questions');
  });

  it('refuses new flows with form-not-found once Published is turned off', async () => {
    await page.goto(`${server.url}/dashboard/settings/forms`);
    await page
      .getByRole('button', { name: `${F.turnOff}: ${F.published} for Tenant survey` })
      .click();
    await page.getByText(F.publishedOff.replace('{form}', 'Tenant survey')).waitFor();
    // The web-flow switch says it does nothing while unpublished.
    await page.getByText(F.webflowNeedsPublished).waitFor();
    await accessible(page);
    const refused = await postFlow(key, 'After unpublishing');
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ error: 'form-not-found' });
    // The flow made before keeps its page.
    expect((await page.goto(`${server.url}/dashboard/flows/${flowId}`))?.status()).toBe(200);
  });

  it('reads in Danish', async () => {
    const dane = await stack.member({
      company: COMPANY,
      email: 'dorte@flows-acme.example',
      language: 'da',
    });
    const da = await browser.newContext({ locale: 'da-DK' });
    await da.addCookies([{ ...dane.cookie, url: server.url }]);
    const p = await da.newPage();
    try {
      await p.goto(`${server.url}/dashboard`);
      await p.getByRole('link', { name: DA.flows.nav, exact: true }).click();
      await p.getByRole('heading', { level: 1, name: DA.flows.title }).waitFor();
      expect(
        await p
          .getByRole('region', { name: DA.flows.caption })
          .getByRole('row')
          .nth(1)
          .textContent(),
      ).toContain(DA.flows.stateCompleted);
      await p.locator('details summary', { hasText: DA.flows.startTitle }).waitFor();
      await accessible(p);
      await p.getByRole('link', { name: 'Move-in questions' }).click();
      await p.getByRole('region', { name: DA.flows.answers }).waitFor();
      expect(await p.getByRole('region', { name: DA.flows.answers }).textContent()).toContain(
        DA.flows.encrypted,
      );
      await accessible(p);
      // The forms' switches are the admins' (as every settings page).
      expect((await p.goto(`${server.url}/dashboard/settings/forms`))?.status()).toBe(403);
    } finally {
      await da.close();
    }
  });

  it('pages the list by cursor without a gap or a repeat, ties on time included', async () => {
    // Published again (the test before turned it off), for flows enough to page through.
    await new FormRepository(stack.t.db).replace(
      surveyForm(COMPANY, { webflow: true }),
      new Date(),
    );
    for (const title of ['Paged 1', 'Paged 2', 'Paged 3'])
      expect((await postFlow(key, title)).status).toBe(201);
    const ids = (
      await stack.t.db
        .selectFrom('webflows')
        .select('id')
        .where('company_id', '=', COMPANY)
        .orderBy('id')
        .execute()
    ).map((r) => r.id);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    // All within one millisecond, microseconds apart (which a Date cannot tell), and the first
    // two at the very same moment (which only the id orders).
    // created_at is written by no update of the schema's: raw SQL, as a clock would have it.
    for (const [i, id] of ids.entries())
      await sql`update webflows
        set created_at = '2026-12-01T10:00:00.123000Z'::timestamptz + ${`${Math.max(0, i - 1)} microseconds`}::interval
        where id = ${id}`.execute(stack.t.db);
    const expected = (
      await stack.t.db
        .selectFrom('webflows')
        .select('id')
        .where('company_id', '=', COMPANY)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute()
    ).map((r) => r.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const listed = await listWebflows(stack.t.db, COMPANY, { cursor, limit: 1 });
      seen.push(...listed.flows.map((f) => f.id));
      cursor = listed.next;
      pages++;
    } while (cursor && pages <= ids.length);
    expect(seen).toEqual(expected);
    expect(pages).toBe(ids.length);
    // A cursor that is not one reads as none: the newest page.
    const nonsense = await listWebflows(stack.t.db, COMPANY, { cursor: 'bm9uc2Vuc2U', limit: 1 });
    expect(nonsense.flows.map((f) => f.id)).toEqual(expected.slice(0, 1));
  });

  it('keeps how to start a flow above the list, with a command that runs as pasted', async () => {
    // The command's `case` member has the flow copy the form's templates: here one is stored
    // in the company's forms folder, where an import keeps it.
    const template = `${formsFolder(COMPANY)}survey/0.docx`;
    await new LocalStorage(join(stack.redis.dir, 'storage')).put(
      template,
      Buffer.from('a template'),
      'application/octet-stream',
    );
    const form = surveyForm(COMPANY, { webflow: true });
    await new FormRepository(stack.t.db).replace(
      { ...form, documents: form.documents.map((d) => ({ ...d, storageKey: template })) },
      new Date(),
    );
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(`${server.url}/dashboard/flows`);
    await page.getByRole('region', { name: F.caption }).waitFor();
    const summary = page.locator('details summary', { hasText: F.startTitle });
    await summary.click();
    const region = page.getByRole('region', { name: F.howToStartCommand });
    await region.waitFor();
    await page
      .getByText(F.startFormUsed.replace('{form}', 'Tenant survey').replace('{id}', 'survey'))
      .waitFor();
    await page.getByText(F.startCase).waitFor();
    await page.getByRole('button', { name: F.copyCommand }).waitFor();
    const command = (await region.textContent())!;
    expect(command).toContain('"formId": "survey"');
    expect(command).toContain('"case"');
    expect(command).not.toContain('<');
    await accessible(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    // Pasted into a shell with the key set, it starts a flow that asks the reader, twice over
    // with a fresh Idempotency-Key each time.
    // Not execFileSync: the server answers from this very process, which must keep running.
    const run = async () =>
      JSON.parse(
        (await execFileAsync('sh', ['-c', `DOCPIPE_KEY='${key}'\n${command}`])).stdout,
      ) as FlowAnswer;
    const first = await run();
    const second = await run();
    expect(
      first.webflow?.recipients.map((r) => r.name),
      JSON.stringify(first),
    ).toEqual(['Ada Admin']);
    expect(second.webflow?.id).toBeDefined();
    expect(second.webflow?.id).not.toBe(first.webflow?.id);
    const made = await stack.t.db
      .selectFrom('webflows')
      .select(['form_id', 'case_request'])
      .where('id', '=', first.webflow!.id)
      .executeTakeFirstOrThrow();
    expect(made.form_id).toBe('survey');
    expect(made.case_request).toMatchObject({
      recipients: [{ name: 'Ada Admin', email: 'admin@flows-acme.example', signing: true }],
    });
  });
});
