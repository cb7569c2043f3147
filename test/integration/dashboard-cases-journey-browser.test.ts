import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import type { SignaturePlace } from '../../src/document/anchors/index.js';
import type { TagInput } from '../../src/document/values/index.js';
import { EN } from '../../src/surfaces/http/pages/words-en.js';
import {
  accessible,
  addWebhook,
  createApiKey,
  mailedLink,
  signUpAndLogIn,
} from '../helpers/dashboard-journey-steps.js';
import { docpipeEnv, StartedDocpipe } from '../helpers/docpipe-start.js';
import { launchChromium } from '../helpers/pages-stack.js';
import { drawSignature, inkIn } from '../helpers/signature-ink.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * Issue 34's "done means", in Chromium against a real `docpipe start` (its own PostgreSQL and
 * Redis, the mail folder, LibreOffice, the seal worker): a new company signs up, adds a webhook
 * for every trigger and an API key in the dashboard; makes a case in the New case form from an
 * uploaded two-page PDF with two signers in two groups, saves it as a draft, drags each signer's
 * signature box onto a page and sends it; each signer opens the link of their e-mail and draws,
 * the second invited only once the first has signed; the case's page, open all along, shows each
 * signature arrive and the group signing now move on without a reload; the sealed PDF downloaded from it
 * verifies with pdfsig and has each drawing inside its dragged box (within 2 pt). Then a library
 * document's fields filled in the form, saved as a draft and sent later from its page. The
 * webhook receiver got the same triggers, with the same payload members, for the dashboard's case
 * as for the same case made over v3 with the key. Every page visited passes axe.
 */

const root = projectRoot();
const w = EN;
const PAGE = { width: 595, height: 842 };
/** The live part polls every 3 s: a change shows within a few polls. */
const LIVE_WAIT_MS = 15_000;
/** Sealing runs after the last signature: the seal worker, then the next poll. */
const SEAL_WAIT_MS = 60_000;
const NDA_TAGS = JSON.parse(
  readFileSync(join(root, 'templates/nda/fixtures/mutual.tags.json'), 'utf8'),
) as TagInput[];

let dir: string;
let start: StartedDocpipe;
let address: string;
let browser: Browser;
let receiver: WebhookReceiver;
let owner: BrowserContext;
let page: Page;
let key = '';
let pdf: Buffer;

/** What the first case was made of, for its twin over v3. */
const signers = [
  { name: 'Alma Berg', email: 'alma@journey.example', group: 1 },
  { name: 'Bo Dahl', email: 'bo@journey.example', group: 2 },
] as const;
let dashboardCase = '';
let placed: SignaturePlace[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dashboard-cases-journey-'));
  // The embedded PostgreSQL runs as the postgres user when the tests run as root.
  chmodSync(dir, 0o711);
  for (const name of ['package.json', 'dist', 'node_modules'])
    symlinkSync(join(root, name), join(dir, name));
  cpSync(join(root, 'templates'), join(dir, 'templates'), { recursive: true });
  [receiver, browser, pdf] = await Promise.all([
    startWebhookReceiver(),
    launchChromium(),
    twoPagePdf(),
  ]);
  start = new StartedDocpipe(
    docpipeEnv(join(dir, 'data'), {
      DOCPIPE_LOG_FORMAT: 'json',
      // The receiver is on loopback, which webhooks refuse by default.
      DOCPIPE_WEBHOOK_ALLOW_PRIVATE: 'true',
    }),
  );
  await start.waitFor('docpipe started');
  address = String(start.lines().find((l) => l.msg.startsWith('docpipe started'))?.http);
  expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  owner = await browser.newContext({ locale: 'en-GB', viewport: { width: 1000, height: 900 } });
  page = await owner.newPage();
}, 120_000);

afterAll(async () => {
  await owner?.close();
  await browser?.close();
  await receiver?.close();
  await start?.killAll();
  rmSync(dir, { recursive: true, force: true });
});

/** A contract of two A4 pages, its text at the foot of each so that the boxes have room. */
async function twoPagePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of ['The consultant delivers the work in the annex.', 'Signed by both.'])
    doc.addPage([PAGE.width, PAGE.height]).drawText(text, { x: 72, y: 60, size: 11, font });
  return Buffer.from(await doc.save());
}

const mailFolder = () => join(dir, 'data', 'mail');

/** The id of the draft just saved, from the page the form went on to (its page or its places). */
async function savedDraft(p: Page): Promise<string> {
  const path = /^\/dashboard\/cases\/(?!new$)([^/]+)(?:\/places)?$/;
  // The form's answer, a redirect or the form again, is a page load either way.
  await Promise.all([
    p.waitForEvent('load'),
    p.getByRole('button', { name: w.newCase.saveDraft }).click(),
  ]);
  // A refusal re-renders the form: its problems are the failure's message.
  const refused = await p.locator('.error-summary, .field-error').allTextContents();
  expect(refused, 'the New case form refused the draft').toEqual([]);
  const id = path.exec(new URL(p.url()).pathname)?.[1];
  expect(id, p.url()).toBeDefined();
  return decodeURIComponent(id!);
}

/** A draft sent by the Send button of its page. */
async function sendFromItsPage(id: string, title: string): Promise<void> {
  if (new URL(page.url()).pathname !== `/dashboard/cases/${id}`)
    await page.goto(`${address}/dashboard/cases/${id}`);
  await page.getByRole('heading', { level: 1, name: `Case: ${title}` }).waitFor();
  await page
    .getByRole('region', { name: w.casePage.actions })
    .getByRole('button', { name: w.casePage.send, exact: true })
    .click();
  await page.getByText(w.casePage.sent).waitFor();
  await accessible(page);
}

/** The status cell of a recipient's row on a case's page. */
const statusOf = (p: Page, name: string) =>
  p
    .locator('#case-live tr', { has: p.getByRole('cell', { name, exact: true }) })
    .locator('td')
    .nth(2);

/** A signer opens the link of their invitation in a browser of their own and draws. */
async function sign(email: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
  try {
    const signer = await context.newPage();
    // The invitation is sent by a worker once the signer's group is the active one.
    let link = '';
    await expect
      .poll(async () => (link = await mailedLink(mailFolder(), email, '/sign/').catch(() => '')), {
        timeout: 30_000,
      })
      .not.toBe('');
    await signer.goto(link);
    await signer.locator('.documents').waitFor();
    await accessible(signer);
    await drawSignature(signer);
    await signer.getByRole('button', { name: 'Sign the documents' }).click();
    await signer.getByRole('heading', { name: 'Thank you. You have signed.' }).waitFor();
    await accessible(signer);
  } finally {
    await context.close();
  }
}

/** A page image of the places editor, loaded, its top at the window's top. */
async function pageImage(p: Page, index: number) {
  const image = p.locator('.place-page').nth(index).locator('img');
  await image.scrollIntoViewIfNeeded();
  await expect
    .poll(() => image.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0))
    .toBe(true);
  await image.evaluate((i) => i.scrollIntoView({ block: 'start' }));
  return (await image.boundingBox())!;
}

/** Drags a box from `from` to `to` (window pixels), and says where it is in PDF points. */
async function dragBox(
  p: Page,
  box: { x: number; y: number; width: number },
  from: [number, number],
  to: [number, number],
): Promise<SignaturePlace['rect']> {
  const [fx, fy] = [box.x + from[0], box.y + from[1]];
  const [tx, ty] = [box.x + to[0], box.y + to[1]];
  await p.mouse.move(fx, fy);
  await p.mouse.down();
  await p.mouse.move((fx + tx) / 2, (fy + ty) / 2);
  await p.mouse.move(tx, ty);
  await p.mouse.up();
  const scale = PAGE.width / box.width;
  return {
    x: from[0] * scale,
    y: PAGE.height - to[1] * scale,
    width: (to[0] - from[0]) * scale,
    height: (to[1] - from[1]) * scale,
  };
}

/** A rect grown by `by` points on every side. */
const grown = (r: SignaturePlace['rect'], by: number) => ({
  x: r.x - by,
  y: r.y - by,
  width: r.width + 2 * by,
  height: r.height + 2 * by,
});

/** Every delivered webhook body that names the case, parsed. */
function deliveredFor(caseId: string): { trigger: string; body: unknown }[] {
  return receiver.requests
    .filter((r) => r.body.includes(caseId))
    .map((r) => {
      const body = JSON.parse(r.body) as { trigger: string };
      return { trigger: body.trigger, body };
    });
}

/** A JSON value's shape: its members' names, all the way down, with arrays by their first item. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length > 0 ? [shapeOf(value[0])] : [];
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shapeOf((value as Record<string, unknown>)[k])]),
    );
  return value === null ? 'null' : typeof value;
}

/** Each trigger a case's webhook deliveries carried, with its payload's members, sorted. */
const triggersOf = (caseId: string) =>
  deliveredFor(caseId)
    .map((d) => `${d.trigger} ${JSON.stringify(shapeOf(d.body))}`)
    .sort();

describe('a company’s cases in the dashboard, from sign-up to sealed PDF', () => {
  it('signs up, adds a webhook for every trigger and an API key', async () => {
    await signUpAndLogIn(page, w, {
      address,
      mailFolder: mailFolder(),
      company: 'Cases Journey ApS',
      owner: 'Olga Owner',
      email: 'olga@cases-journey.example',
      password: 'a long passphrase for the cases journey',
    });
    await addWebhook(page, w, `${receiver.url}/cases-journey`);
    key = await createApiKey(page, w, 'Cases journey server');
  }, 60_000);

  it('makes a case from an uploaded PDF, drags both signatures, sends it; both sign; the page follows; the sealed PDF verifies with the ink in the boxes', async () => {
    const nc = w.newCase;
    const nav = page.getByRole('navigation', { name: w.common.mainNavigation });
    await nav.getByRole('link', { name: w.common.cases }).click();
    await accessible(page);
    await page.getByRole('link', { name: w.caseList.newCase }).click();
    await page.getByRole('heading', { level: 1, name: nc.title }).waitFor();
    await accessible(page);
    await page.getByLabel(nc.caseTitle).fill('Consulting agreement');
    await page
      .getByRole('group', { name: 'Document 1', exact: true })
      .getByLabel(nc.file)
      .setInputFiles({ name: 'consulting.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.getByRole('button', { name: nc.addRecipient }).click();
    const names = page.getByLabel(nc.name, { exact: true });
    const emails = page.getByLabel(nc.email, { exact: true });
    await names.nth(1).waitFor();
    const groups = page.getByLabel(nc.recipientGroup, { exact: true });
    for (const [i, s] of signers.entries()) {
      await names.nth(i).fill(s.name);
      await emails.nth(i).fill(s.email);
      await groups.nth(i).fill(String(s.group));
    }
    await accessible(page);
    // A draft whose PDF has no places yet goes on to its places editor.
    dashboardCase = await savedDraft(page);
    await page.getByRole('heading', { level: 1, name: new RegExp(`^${w.places.title}`) }).waitFor();
    await accessible(page);
    await page.locator('[data-role=kind]').selectOption('sign');
    placed = [];
    for (const [i, s] of signers.entries()) {
      await page.locator('[data-role=recipient]').selectOption({ label: s.name });
      const box = await pageImage(page, i);
      const rect = await dragBox(page, box, [60, 200], [300, 260]);
      await expect
        .poll(() => page.locator('[aria-live=polite]').textContent())
        .toBe(`Signature of ${s.name} added on page ${i + 1}.`);
      placed.push({ kind: 'sign', recipient: i + 1, page: i + 1, rect });
    }
    await page.getByRole('button', { name: w.places.save }).click();
    await page.getByText(w.places.saved).waitFor();
    await accessible(page);
    await page.getByRole('button', { name: w.places.send }).click();
    await page.getByText(w.casePage.sent).waitFor();
    await accessible(page);

    // The case's page stays open in its tab while both sign elsewhere; it is never reloaded.
    await page.evaluate(() => {
      (window as unknown as { unreloaded?: boolean }).unreloaded = true;
    });
    for (const s of signers) {
      await expect
        .poll(() => statusOf(page, s.name).textContent())
        .toBe(w.casePage.statuses.pending);
    }
    const activeGroup = page
      .locator('#case-live .case-details dt', { hasText: w.casePage.activeGroup })
      .locator('+ dd');
    // The second group is invited only once the first has signed.
    await expect(mailedLink(mailFolder(), signers[1].email, '/sign/')).rejects.toThrow();
    for (const s of signers) {
      await expect
        .poll(() => activeGroup.textContent(), { timeout: LIVE_WAIT_MS })
        .toBe(String(s.group));
      await sign(s.email);
      await statusOf(page, s.name)
        .filter({ hasText: new RegExp(`^${w.casePage.statuses.signed}$`) })
        .waitFor({ timeout: LIVE_WAIT_MS });
    }
    const sealedLink = page.getByRole('link', { name: 'Download consulting.pdf' });
    await page
      .locator('#case-live li', { hasText: `(${w.casePage.sealed})` })
      .waitFor({ timeout: SEAL_WAIT_MS });
    expect(
      await page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded),
    ).toBe(true);
    await expect(page.locator('.case-state').textContent()).resolves.toBe(w.casePage.states.signed);
    await accessible(page);

    // The sealed PDF from the page's link.
    const [download] = await Promise.all([page.waitForEvent('download'), sealedLink.click()]);
    const sealedFile = join(dir, 'sealed.pdf');
    const shownFile = join(dir, 'shown.pdf');
    await download.saveAs(sealedFile);
    writeFileSync(shownFile, pdf);
    const report = execFileSync('pdfsig', [sealedFile], { encoding: 'utf8' });
    expect(report).toContain('Signature is Valid.');
    expect(report).toContain('Total document signed');

    // Each drawing inside its box: ink added there, and none added in a band from 2 to 20 pt
    // around it (the uploaded PDF's own text is far from both).
    for (const place of placed) {
      const added = (rect: SignaturePlace['rect']) =>
        inkIn(sealedFile, { ...place, rect }, PAGE.height) -
        inkIn(shownFile, { ...place, rect }, PAGE.height);
      expect(added(place.rect), `ink in ${place.recipient}'s box`).toBeGreaterThan(200);
      expect(
        added(grown(place.rect, 20)) - added(grown(place.rect, 2)),
        `ink beyond 2 pt of ${place.recipient}'s box`,
      ).toBe(0);
    }
  }, 300_000);

  it('makes a case from a library document with its fields filled in the form, saved as a draft and sent later', async () => {
    const nc = w.newCase;
    await page.goto(`${address}/dashboard/cases/new`);
    await page.getByRole('heading', { level: 1, name: nc.title }).waitFor();
    await page.getByLabel(nc.caseTitle).fill('Mutual NDA');
    const row = page.getByRole('group', { name: 'Document 1', exact: true });
    await row.getByLabel(nc.libraryDocument).selectOption({ label: 'Non-Disclosure Agreement' });
    await row.getByRole('button', { name: 'Show fields of document 1' }).click();
    const byId = (id: string) => page.locator(`[id="${id}"]`);
    await byId('field-documents.0.tags.agreement_date').waitFor();
    // The NDA's anchors name two signers.
    await page.getByRole('button', { name: nc.addRecipient }).click();
    await page.getByLabel(nc.name, { exact: true }).nth(1).waitFor();
    for (const t of NDA_TAGS) {
      const input = byId(`field-documents.0.tags.${t.tag}`);
      if (t.type === 'boolean') await input.setChecked(t.value === true);
      else await input.fill(String(t.value));
    }
    const names = page.getByLabel(nc.name, { exact: true });
    const emails = page.getByLabel(nc.email, { exact: true });
    await names.nth(1).waitFor();
    await names.nth(0).fill('Cy Counterparty');
    await emails.nth(0).fill('cy@journey.example');
    await names.nth(1).fill('Dan Director');
    await emails.nth(1).fill('dan@journey.example');
    await accessible(page);
    const id = await savedDraft(page);
    await page.goto(`${address}/dashboard/cases/${id}`);
    await page.getByRole('heading', { level: 1, name: 'Case: Mutual NDA' }).waitFor();
    await expect(page.locator('.case-state').textContent()).resolves.toBe(w.casePage.states.draft);
    await accessible(page);
    // The document was filled with what the form's fields said.
    const [filled] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /^Download / }).click(),
    ]);
    const filledFile = join(dir, 'nda.pdf');
    await filled.saveAs(filledFile);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', filledFile, '-'], {
      encoding: 'utf8',
    });
    for (const tag of ['company_name', 'counterparty_name'])
      expect(text.replace(/\s+/g, ' ')).toContain(
        String(NDA_TAGS.find((t) => t.tag === tag)!.value),
      );

    // Later: the list shows the draft; its page sends it.
    await page.goto(`${address}/dashboard/cases`);
    await accessible(page);
    await page.getByRole('link', { name: 'Mutual NDA' }).first().click();
    await sendFromItsPage(id, 'Mutual NDA');
    await expect(page.locator('.case-state').textContent()).resolves.toBe(w.casePage.states.open);
    await expect
      .poll(() => statusOf(page, 'Cy Counterparty').textContent())
      .toBe(w.casePage.statuses.pending);
    await accessible(page);
    // The invitation went out: its e-mail holds a signing link (mailedLink throws without one).
    expect(await mailedLink(mailFolder(), 'cy@journey.example', '/sign/')).toContain(address);
    expect(new URL(page.url()).pathname).toBe(`/dashboard/cases/${id}`);
  }, 120_000);

  it('fires the same webhook triggers, with the same payload members, as the same case over v3', async () => {
    expect(dashboardCase).not.toBe('');
    const created = await fetch(`${address}/v3/api/cases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Consulting agreement',
        state: 'draft',
        recipients: signers.map((s) => ({ name: s.name, email: `v3-${s.email}`, group: s.group })),
        documents: [
          {
            name: 'consulting.pdf',
            content: pdf.toString('base64'),
            places: placed.map((p) => ({ ...p })),
          },
        ],
      }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const twin = ((await created.json()) as { case: { id: string } }).case.id;
    // v3 has no way to send a draft (spec 4: "Transitions after creation: not shown"), so the twin
    // is sent as the dashboard's case was, from its page: the cases differ only in how they were
    // made, which is what is compared.
    await sendFromItsPage(twin, 'Consulting agreement');
    for (const s of signers) await sign(`v3-${s.email}`);

    // Both cases' last trigger delivered, then the two sets compared.
    await expect
      .poll(
        () =>
          [dashboardCase, twin].map((id) =>
            deliveredFor(id).some((d) => d.trigger === 'case.signed'),
          ),
        { timeout: SEAL_WAIT_MS },
      )
      .toEqual([true, true]);
    await expect
      .poll(() => triggersOf(twin), { timeout: 15_000 })
      .toEqual(triggersOf(dashboardCase));
    expect(new Set(deliveredFor(dashboardCase).map((d) => d.trigger))).toEqual(
      new Set([
        'case.created',
        'case.sent',
        'recipient.invited',
        'recipient.signed',
        'case.signed',
      ]),
    );
  }, 180_000);
});
