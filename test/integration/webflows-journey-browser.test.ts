import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { verifySignature } from '../../src/service/webhooks/index.js';
import { EN } from '../../src/surfaces/http/pages/words-en.js';
import { leaseFormFolder } from '../fixtures/forms/form-folder.js';
import { docpipeInProcess } from '../helpers/cli-in-process.js';
import { accessible, createApiKey } from '../helpers/dashboard-journey-steps.js';
import { docpipeEnv, StartedDocpipe } from '../helpers/docpipe-start.js';
import { launchChromium } from '../helpers/pages-stack.js';
import { pdfText } from '../helpers/pdf-text.js';
import { startSmtpServer, type ReceivedMail, type SmtpTestServer } from '../helpers/smtp-server.js';
import {
  startWebhookReceiver,
  type ReceivedRequest,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.js';

/**
 * Issue 36's "done means" in one journey against a real `docpipe start` (its own PostgreSQL and
 * Redis, LibreOffice, the delivery worker), a real SMTP server and a webhook receiver: a company
 * signs up in the dashboard, makes an API key and a webhook for `workflow.completed` and
 * `case.created`, and imports a web-flow enabled form; POST /v3/api/webflows with a `case`
 * member asks two people; each one's e-mail is read from the SMTP server and its /flow link
 * opened in Chromium. The first answers in two sittings (Save, page closed, the link opened
 * again in a new browser context: the progress kept) and sends; the second sends. GET shows the
 * answers typed and the flow completed; `workflow.completed` reaches the receiver once, signed
 * with the webhook's secret, then the case made from the answers with its `case.created`, which
 * GET's caseId names. axe-core on the answer page at 360 px; screenshots at 390 and 1280 px in
 * test/results/webflows-journey/.
 */

const root = projectRoot();
const SHOTS = join(root, 'test', 'results', 'webflows-journey');
const w = EN;
const f = EN.flow;
/** The case is made after the completion's webhooks, with the first LibreOffice render. */
const CASE_WAIT_MS = 60_000;
const EVENT_WAIT_MS = 20_000;

const COMPANY = 'Flow Journey ApS';
const OWNER = { name: 'Olga Owner', email: 'olga@flow-journey.example' };
const ANN = { name: 'Ann Tenant', email: 'ann@flow-journey.example', language: 'en' } as const;
const BO = { name: 'Bo Tenant', email: 'bo@flow-journey.example', language: 'en' } as const;
/** The case member's signer: `signing` said, since the form submit rules' default is false (v2's). */
const SIGNER = { name: 'Lene Landlord', email: 'lene@flow-journey.example', signing: true };

let dir: string;
let dataDir: string;
let formFolder: string;
let start: StartedDocpipe;
let address: string;
let browser: Browser;
let smtp: SmtpTestServer;
let receiver: WebhookReceiver;
let owner: BrowserContext;
let key = '';
let secret = '';
let companyId = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webflows-journey-'));
  // The embedded PostgreSQL runs as the postgres user when the tests run as root.
  chmodSync(dir, 0o711);
  dataDir = join(dir, 'data');
  mkdirSync(SHOTS, { recursive: true });
  [smtp, receiver] = await Promise.all([startSmtpServer(), startWebhookReceiver()]);
  start = new StartedDocpipe(
    docpipeEnv(dataDir, {
      DOCPIPE_LOG_FORMAT: 'json',
      DOCPIPE_SMTP_URL: smtp.url,
      // The receiver is on loopback, which webhooks refuse by default.
      DOCPIPE_WEBHOOK_ALLOW_PRIVATE: 'true',
    }),
  );
  // While it starts: the browser, and the lease form, web-flow enabled, its start date without
  // a default so that it is asked for.
  // Each kept as it comes, so that afterAll closes it even when another fails.
  await Promise.all([
    launchChromium().then((b) => (browser = b)),
    leaseFormFolder(dir, {
      edit: (form) => {
        form.webflow = true;
        const tags = form.tags as { tag: string; value?: unknown }[];
        delete tags.find((t) => t.tag === 'start')!.value;
      },
    }).then((folder) => (formFolder = folder)),
    start.waitFor('docpipe started'),
  ]);
  address = String(start.lines().find((l) => l.msg.startsWith('docpipe started'))?.http);
  expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  owner = await browser.newContext({ locale: 'en-GB', viewport: { width: 1000, height: 900 } });
}, 120_000);

afterAll(async () => {
  await owner?.close();
  await browser?.close();
  await receiver?.close();
  await smtp?.close();
  await start?.killAll();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const taken = new Set<ReceivedMail>();

/** The first message to `to` that holds a `path` link, not taken before, awaited; its link. */
async function mailedLink(to: string, path: string): Promise<string> {
  const linkIn = (m: ReceivedMail) =>
    new RegExp(`https?://[^\\s"<>]+${path}[^\\s"<>]*`).exec(m.parsed.text ?? '')?.[0];
  for (;;) {
    const found = smtp.messages.find(
      (m) => !taken.has(m) && m.envelope.to.includes(to) && linkIn(m) !== undefined,
    );
    if (found) {
      taken.add(found);
      return linkIn(found)!;
    }
    await smtp.nextMessage();
  }
}

/** A docpipe command in this process, on the running `docpipe start`'s PostgreSQL and storage. */
async function docpipe(...args: string[]): Promise<unknown> {
  const r = await docpipeInProcess({ DOCPIPE_DATA_DIR: dataDir }, ...args);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as unknown;
}

interface Flow {
  id: string;
  state: string;
  formId: string;
  title: string;
  recipients: { id: string; name: string; email: string; status: string }[];
  progress: { answered: number; total: number };
  answers: { tag: string; type: string; value: unknown; answeredBy: string }[];
  caseId: string | null;
  caseError: unknown;
  updatedAt: string;
}

interface Case {
  recipients: { email: string | null; signing: boolean }[];
  documents: { name: string; url: string }[];
}

async function getFlow(id: string): Promise<Flow> {
  const res = await fetch(`${address}/v3/api/webflows/${id}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return (JSON.parse(text) as { webflow: Flow }).webflow;
}

/** The receiver's requests of `trigger`, parsed. */
const delivered = (trigger: string) =>
  receiver.requests
    .map((r) => ({ request: r, body: JSON.parse(r.body) as Record<string, unknown> }))
    .filter((d) => d.body.trigger === trigger);

/** Whether a delivery carries the webhook's signature of its own body and timestamp. */
function signed(r: ReceivedRequest): boolean {
  const timestamp = String(r.headers['x-docpipe-timestamp']);
  const signature = String(r.headers['x-docpipe-signature']);
  return verifySignature(secret, timestamp, r.body, signature);
}

/** A person's browser, `width` px wide, on their link. */
async function opened(
  link: string,
  width: number,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: 'en-GB', viewport: { width, height: 900 } });
  const page = await context.newPage();
  expect((await page.goto(link))?.status()).toBe(200);
  await page.getByRole('heading', { level: 1, name: 'Who lives there?' }).waitFor();
  return { context, page };
}

const progressText = (answered: number) =>
  f.progress.replace('{answered}', String(answered)).replace('{total}', '3');

/** The page at full length, kept; and nothing wider than its window. */
async function shot(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(
    width,
  );
  await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
}

describe('a web-flow from the API to the signing case, through e-mail and the answer page', () => {
  let flow: Flow;
  const links = new Map<string, string>();

  it('a company signs up, makes an API key and a webhook for workflow.completed and case.created, and imports a web-flow enabled form', async () => {
    const page = await owner.newPage();
    // Sign-up, its confirmation e-mail read from the SMTP server, the first log-in.
    await page.goto(`${address}/`);
    await page.getByRole('link', { name: w.account.signUpLink }).click();
    await page.getByLabel(w.account.companyName).fill(COMPANY);
    await page.getByLabel(w.account.cvr).fill('24256790');
    await page.getByLabel(w.account.yourName).fill(OWNER.name);
    await page.getByLabel(w.account.email).fill(OWNER.email);
    const password = 'a long passphrase for the flow journey';
    await page.getByLabel(w.account.password, { exact: true }).fill(password);
    await page.getByRole('button', { name: w.account.createAccount }).click();
    await page.getByRole('heading', { level: 1, name: w.account.checkEmailTitle }).waitFor();
    await page.goto(await mailedLink(OWNER.email, '/user/confirm/'));
    await page.getByRole('heading', { level: 1, name: w.account.confirmedTitle }).waitFor();
    await page.goto(`${address}/user/login`);
    await page.getByLabel(w.account.email).fill(OWNER.email);
    await page.getByLabel(w.account.password, { exact: true }).fill(password);
    await page.getByRole('button', { name: w.account.logIn }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard');

    key = await createApiKey(page, w, 'Flow journey server');

    // A webhook for the two triggers only, its secret read from the page that shows it once.
    const nav = page.getByRole('navigation', { name: w.common.mainNavigation });
    await nav.getByRole('link', { name: w.common.webhooks }).click();
    await page.getByLabel(w.webhooks.url, { exact: true }).fill(`${receiver.url}/flow-journey`);
    for (const trigger of ['workflow.completed', 'case.created'])
      await page.getByLabel(trigger, { exact: true }).check();
    await page.getByRole('button', { name: w.webhooks.add }).click();
    await page.getByRole('heading', { level: 1, name: w.webhooks.addedTitle }).waitFor();
    secret = (await page.locator('#webhook-secret').textContent())?.trim() ?? '';
    expect(secret).not.toBe('');
    await page.close();

    // The form, imported for the company the sign-up made.
    const companies = (await docpipe('companies', 'list', '--json')) as {
      id: string;
      name: string;
    }[];
    companyId = companies.find((c) => c.name === COMPANY)?.id ?? '';
    expect(companyId).not.toBe('');
    expect(
      await docpipe('forms', 'import', formFolder, '--company', companyId, '--json'),
    ).toMatchObject({ id: 'lease', active: true, webflow: true });
  }, 60_000);

  it('POST /v3/api/webflows asks two people; each gets an e-mail with a link of their own', async () => {
    const body = {
      formId: 'lease',
      title: 'Who lives there?',
      message: 'Please answer by Friday.',
      recipients: [ANN, BO],
      case: { recipients: [SIGNER] },
    };
    const res = await fetch(`${address}/v3/api/webflows`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': 'flow-journey-1',
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    expect(res.status, text).toBe(201);
    flow = (JSON.parse(text) as { webflow: Flow }).webflow;
    expect(res.headers.get('location')).toBe(`/v3/api/webflows/${flow.id}`);
    expect(flow).toMatchObject({
      state: 'pending',
      formId: 'lease',
      progress: { answered: 0, total: 3 },
    });
    expect(flow.recipients.map((r) => [r.email, r.status])).toEqual([
      [ANN.email, 'pending'],
      [BO.email, 'pending'],
    ]);

    for (const person of [ANN, BO])
      links.set(person.email, await mailedLink(person.email, '/flow/'));
    expect(links.get(ANN.email)!.startsWith(`${address}/flow/`)).toBe(true);
    expect(links.get(ANN.email)).not.toBe(links.get(BO.email));
  }, 30_000);

  it('the first person answers in two sittings, the progress kept between them, and sends; the second sends too', async () => {
    // The first sitting, on a phone's width: part of the answers, saved.
    const first = await opened(links.get(ANN.email)!, 360);
    const page = first.page;
    await page
      .getByText(f.from.replace('{name}', OWNER.name).replace('{company}', COMPANY))
      .waitFor();
    await page.getByText('Please answer by Friday.').waitFor();
    await page.getByText(progressText(0)).waitFor();
    expect(await page.getByLabel('Monthly rent').inputValue()).toBe('1200');
    await accessible(page);
    await page.getByLabel(`Tenant (${f.required})`).fill('Ann Tenant');
    await page.getByLabel('Monthly rent').fill('950.50');
    await page.getByRole('button', { name: f.save, exact: true }).click();
    await page.getByText(f.saved.replace('{answered}', '2').replace('{total}', '3')).waitFor();
    await first.context.close();

    // The second sitting, in a browser that has never seen the page: what was saved is there.
    const second = await opened(links.get(ANN.email)!, 1280);
    const again = second.page;
    await again.getByText(progressText(2)).waitFor();
    expect(await again.getByLabel(`Tenant (${f.required})`).inputValue()).toBe('Ann Tenant');
    expect(await again.getByLabel('Monthly rent').inputValue()).toBe('950.5');
    expect(await again.getByLabel(`Start date (${f.required})`).inputValue()).toBe('');
    await shot(again, 'answer-page');
    await again.getByLabel(`Start date (${f.required})`).fill('2027-03-01');
    await again.getByRole('button', { name: f.send, exact: true }).click();
    await again.getByRole('heading', { level: 1, name: f.thanksTitle }).waitFor();
    await second.context.close();

    // One of two has sent: the flow waits for the other.
    const waiting = await getFlow(flow.id);
    expect(waiting.state).toBe('in_progress');
    expect(waiting.recipients.map((r) => r.status)).toEqual(['answered', 'pending']);
    expect(delivered('workflow.completed')).toEqual([]);

    // The second person, on a phone, finds the shared answers and sends them.
    const other = await opened(links.get(BO.email)!, 390);
    await other.page.getByText(progressText(3)).waitFor();
    expect(await other.page.getByLabel(`Start date (${f.required})`).inputValue()).toBe(
      '2027-03-01',
    );
    await shot(other.page, 'answer-page');
    await other.page.getByRole('button', { name: f.send, exact: true }).click();
    await other.page.getByRole('heading', { level: 1, name: f.thanksTitle }).waitFor();
    await shot(other.page, 'thanks-page');
    await other.context.close();
  }, 60_000);

  it('GET shows the answers typed and the flow completed', async () => {
    const read = await getFlow(flow.id);
    const ann = flow.recipients[0]!.id;
    expect(read.state).toBe('completed');
    expect(read.recipients.map((r) => r.status)).toEqual(['answered', 'answered']);
    expect(read.progress).toEqual({ answered: 3, total: 3 });
    expect(read.answers.map((a) => [a.tag, a.type, a.value, a.answeredBy])).toEqual([
      ['rent', 'number', 950.5, ann],
      ['start', 'date', '2027-03-01', ann],
      ['tenant', 'text', 'Ann Tenant', ann],
    ]);
  });

  it(
    'delivers workflow.completed once, signed with the webhook’s secret, then case.created for the case made from the answers, which GET names',
    async () => {
      await expect
        .poll(() => delivered('workflow.completed').length, { timeout: EVENT_WAIT_MS })
        .toBeGreaterThan(0);
      const [completed] = delivered('workflow.completed');
      expect(signed(completed!.request)).toBe(true);
      expect(completed!.request.headers['x-docpipe-event']).toBe('workflow.completed');
      expect(completed!.body).toEqual({
        trigger: 'workflow.completed',
        flow: {
          _id: flow.id,
          updatedAt: expect.any(String) as string,
          state: 'completed',
          formId: 'lease',
          title: 'Who lives there?',
          completedAt: expect.any(String) as string,
        },
      });

      // The case follows the completion's webhooks; GET names it once it is made.
      await expect
        .poll(async () => (await getFlow(flow.id)).caseId, { timeout: CASE_WAIT_MS })
        .not.toBeNull();
      const { caseId, caseError } = await getFlow(flow.id);
      expect(caseError).toBeNull();
      await expect
        .poll(() => delivered('case.created').length, { timeout: EVENT_WAIT_MS })
        .toBeGreaterThan(0);
      const created = delivered('case.created');
      expect(created).toHaveLength(1);
      expect(signed(created[0]!.request)).toBe(true);
      expect(JSON.stringify(created[0]!.body)).toContain(caseId);

      // The case over v3: the lease form's, to the case member's signer, its lease filled with
      // the answers.
      const res = await fetch(`${address}/v3/api/cases/${caseId}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      const made = (JSON.parse(text) as { case: Case }).case;
      expect(made.recipients.filter((r) => r.signing).map((r) => r.email)).toEqual([SIGNER.email]);
      expect(made.documents.map((d) => d.name)).toEqual(['Lease', 'Terms']);
      const lease = await fetch(made.documents[0]!.url);
      expect(lease.status).toBe(200);
      expect(pdfText(new Uint8Array(await lease.arrayBuffer())).replace(/\s+/g, ' ')).toContain(
        'Lease for Ann Tenant: 950',
      );

      // Once: still one after the case.created that its handling led to.
      expect(delivered('workflow.completed')).toHaveLength(1);
    },
    CASE_WAIT_MS + 2 * EVENT_WAIT_MS,
  );
});
