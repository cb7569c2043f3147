import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  autoRefillOf,
  chargeCase,
  creditBalance,
  creditLines,
  creditReferral,
  listPurchases,
  markPurchasePaid,
  recordPurchase,
  setAutoRefill,
} from '../../src/service/credits/index.js';
import { PartnerRepository, partnerAccount } from '../../src/service/partners/index.js';
import { dashboardBrowser, type DashboardBrowser } from '../helpers/dashboard-forms.js';
import { draftCase } from '../helpers/draft-case.js';
import {
  startPagesStack,
  type PagesServer,
  type PagesStack,
  type TestMember,
} from '../helpers/pages-stack.js';

/**
 * The dashboard's credits page over a real socket and PostgreSQL: the balance from the ledger,
 * the ledger's lines and the purchases, buying a pack (invoice, EAN, the card refused, a double
 * submit buying once), the auto-refill, the referral link, admins only for changes, nothing of a
 * partner configuration shown, one company's data only, and the page in Danish.
 */
let stack: PagesStack;
let server: PagesServer;

/** A GLN whose check digit matches (GS1 modulo 10), and the same with its last digit wrong. */
const GLN = '5798001234566';
const BAD_GLN = '5798001234567';
/** The test server's prices: the defaults, 2.00 kr a credit and 25 % VAT. */
const PRICING = { unitPriceOre: 200n, vatPpm: 250_000 };

beforeAll(async () => {
  stack = await startPagesStack();
  server = await stack.server();
});
afterAll(() => stack?.close());

const db = () => stack.t.db;

async function admin(company: string, language?: 'da' | 'en'): Promise<TestMember> {
  return stack.member({
    company,
    email: `admin@${company}.example`,
    admin: true,
    ...(language ? { language } : {}),
  });
}

/** A company that signs up through `referrer`'s link, with the free credits sign-up gives. */
async function referred(referrer: string, id: string, name: string): Promise<void> {
  await db()
    .transaction()
    .execute(async (tx) => {
      await tx
        .insertInto('companies')
        .values({
          id,
          name,
          signing_domain: null,
          default_language: null,
          cvr: null,
          logo: null,
          logo_type: null,
          referred_by: referrer,
        })
        .execute();
      await creditReferral(tx, referrer, id);
    });
}

/** A case of the company, sent: what it uses is taken from the ledger as the case service does. */
async function sentCase(company: string, title: string): Promise<string> {
  const kase = await draftCase(stack, company, {
    title,
    recipients: [{ name: 'Sig Ner', email: 'sig@example.com' }],
  });
  await chargeCase(db(), company, kase.id, 1n);
  return kase.id;
}

/** The hidden idempotency key of the buy form a page drew. */
function formKey(html: string): string {
  const key = /name="key" value="([^"]+)"/.exec(html)?.[1];
  expect(key).toBeDefined();
  return key!;
}

/** The text of the element with this id (its first child text). */
function textOf(html: string, id: string): string | undefined {
  return new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html)?.[1];
}

/** The problem shown at a field (Field's and RadioGroup's `field-<name>-error`). */
function fieldError(html: string, name: string): string | undefined {
  return textOf(html, `field-${name}-error`);
}

async function buyForm(b: DashboardBrowser): Promise<string> {
  const page = await b.get('/dashboard/credits');
  expect(page.status).toBe(200);
  return formKey(page.html);
}

describe('the credits page', () => {
  it('shows the balance, the lines and the purchases after a referral, a case and a purchase', async () => {
    const ann = await admin('cr-bal');
    await referred('cr-bal', 'cr-bal-kid', 'Kid Referred ApS');
    const caseId = await sentCase('cr-bal', 'Lease for the hall');
    const gone = randomUUID();
    await chargeCase(db(), 'cr-bal', gone, 1n);
    const { purchase } = await recordPurchase(
      { db: db(), pricing: PRICING },
      { company: 'cr-bal', credits: 100n, method: 'invoice', key: 'op-1', by: 'operator' },
    );
    const b = await dashboardBrowser(server, ann);
    const { status, html } = await b.get('/dashboard/credits');
    expect(status).toBe(200);
    // 25 free for the referral, less 2 for the cases (free first), and 100 bought.
    expect(textOf(html, 'credits-total')).toBe('123');
    expect(textOf(html, 'credits-paid')).toBe('100');
    expect(textOf(html, 'credits-free')).toBe('23');
    expect(await creditBalance(db(), 'cr-bal')).toEqual({ paid: 100n, free: 23n, total: 123n });
    expect(html).toContain('A sent case uses 1 credit.');
    expect(html).toContain('Cases are never refused for lack of credits.');
    expect(html).not.toContain('The balance is below zero.');
    expect(html).toContain(`<a href="/dashboard/cases/${caseId}">Case: Lease for the hall</a>`);
    expect(html).toContain('A case that is no longer there');
    expect(html).toContain('Signed up: Kid Referred ApS');
    expect(html).toContain(`Invoice ${purchase.invoiceNumber}`);
    const rows = html.match(/<tr class="line-[a-z]+">/g) ?? [];
    expect(rows).toEqual([
      '<tr class="line-purchase">',
      '<tr class="line-case">',
      '<tr class="line-case">',
      '<tr class="line-referral">',
    ]);
    // The purchase: 100 credits at 2.00 kr, 200.00 kr with 25 % VAT: 250.00 kr, open.
    const row = /<tr class="purchase-open">.*?<\/tr>/s.exec(html)?.[0] ?? '';
    expect(row).toContain(purchase.invoiceNumber);
    expect(row).toContain('>100<');
    expect(row).toContain('250.00 kr');
    expect(row).toContain('>Invoice<');
    expect(row).toContain('>Open<');
    expect(html).toContain('List price: 2.00 kr a credit excluding VAT; 25 % VAT is added');
    // The referral link and what it brought.
    expect(html).toContain(`value="${server.url}/user/register?ref=cr-bal"`);
    expect(html).toContain('<copy-button for="referral-link"');
    expect(textOf(html, 'referral-stats')).toBe(
      'Companies that signed up through it: 1. Free credits earned: 25.',
    );
    // Paid by the operator: the page says so.
    await markPurchasePaid(db(), purchase.invoiceNumber);
    expect((await b.get('/dashboard/credits')).html).toMatch(
      /<tr class="purchase-paid">.*?>Paid<\/td>/s,
    );
  });

  it('explains a balance below zero, and says when counting is off', async () => {
    const ann = await admin('cr-neg');
    await sentCase('cr-neg', 'One');
    await sentCase('cr-neg', 'Two');
    const b = await dashboardBrowser(server, ann);
    const { html } = await b.get('/dashboard/credits');
    expect(textOf(html, 'credits-total')).toBe('-2');
    expect(textOf(html, 'credits-paid')).toBe('-2');
    expect(html).toContain('The balance is below zero. Cases are never refused');
    const off = await stack.server({ DOCPIPE_CREDITS_PER_CASE: '0' });
    const o = await dashboardBrowser(off, ann);
    expect((await o.get('/dashboard/credits')).html).toContain(
      'Counting is off: sent cases use no credits on this installation.',
    );
  });

  it('buys a pack by invoice: a purchase by the member, its ledger line, and the flash once', async () => {
    const ann = await admin('cr-buy');
    const b = await dashboardBrowser(server, ann);
    const key = await buyForm(b);
    const posted = await b.post('/dashboard/credits/buy', {
      pack: '500',
      method: 'invoice',
      reference: 'PO-77',
      // Typed before the method was switched to invoice: not read.
      gln: BAD_GLN,
      key,
    });
    expect(posted.status, posted.html).toBe(303);
    expect(posted.location).toBe('/dashboard/credits');
    const [purchase, ...more] = await listPurchases(db(), 'cr-buy');
    expect(more).toEqual([]);
    expect(purchase).toMatchObject({
      credits: 500n,
      method: 'invoice',
      reference: 'PO-77',
      ean: null,
      status: 'open',
      autoRefill: false,
      by: `member:${ann.userId}`,
      // 500 x 2.00 kr = 1000.00 kr, and 25 % VAT.
      totalOre: 125_000n,
    });
    const lines = await creditLines(db(), 'cr-buy');
    expect(lines.map((l) => [l.kind, l.paidCredits, l.purchaseId, l.by])).toEqual([
      ['purchase', 500n, purchase!.id, `member:${ann.userId}`],
    ]);
    const page = await b.get('/dashboard/credits');
    expect(page.html).toContain(
      `Invoice ${purchase!.invoiceNumber} is recorded: 500 credits were added, 1250.00 kr to pay.`,
    );
    expect(textOf(page.html, 'credits-total')).toBe('500');
    expect((await b.get('/dashboard/credits')).html).not.toContain('is recorded');
  });

  it('refuses an EAN purchase with a bad GLN at its field, every problem at once, and records nothing', async () => {
    const ann = await admin('cr-ean');
    const b = await dashboardBrowser(server, ann);
    const key = await buyForm(b);
    const bad = await b.post('/dashboard/credits/buy', {
      pack: '100',
      method: 'ean',
      gln: BAD_GLN,
      orderNumber: 'R-1',
      key,
    });
    expect(bad.status).toBe(400);
    expect(fieldError(bad.html, 'gln')).toBe(
      'This is not an EAN location number: its last digit does not match the others. Check it with the body.',
    );
    expect(bad.html).toContain('<a href="#field-gln">');
    // The form is drawn again as sent, its key kept.
    expect(formKey(bad.html)).toBe(key);
    expect(bad.html).toContain(`value="${BAD_GLN}"`);
    expect(bad.html).toContain('value="R-1"');

    const all = await b.post('/dashboard/credits/buy', {
      pack: '7',
      method: 'ean',
      gln: '12345',
      reference: 'x'.repeat(201),
      key,
    });
    expect(all.status).toBe(400);
    expect(fieldError(all.html, 'pack')).toBe('Choose a pack.');
    expect(fieldError(all.html, 'gln')).toBe(
      'Write the 13 digits of the EAN location number (GLN).',
    );
    expect(fieldError(all.html, 'reference')).toBe('This can be at most 200 characters.');
    const noMethod = await b.post('/dashboard/credits/buy', { pack: '100', key });
    expect(fieldError(noMethod.html, 'method')).toBe('Choose how to pay.');
    const noKey = await b.post('/dashboard/credits/buy', { pack: '100', method: 'invoice' });
    expect(noKey.status).toBe(400);
    expect(fieldError(noKey.html, 'pack')).toBe(
      'The form was incomplete. Choose the pack again and send it.',
    );
    expect(await listPurchases(db(), 'cr-ean')).toEqual([]);
    expect(await creditLines(db(), 'cr-ean')).toEqual([]);

    // Corrected, with the spaces people copy a GLN with: recorded, the GLN as digits.
    const good = await b.post('/dashboard/credits/buy', {
      pack: '100',
      method: 'ean',
      gln: '5798 0012 3456 6',
      orderNumber: 'R-1',
      contact: 'Bo Berg',
      key,
    });
    expect(good.status, good.html).toBe(303);
    const purchases = await listPurchases(db(), 'cr-ean');
    expect(purchases.map((p) => [p.method, p.ean])).toEqual([
      ['ean', { gln: GLN, orderNumber: 'R-1', contact: 'Bo Berg' }],
    ]);
    expect((await b.get('/dashboard/credits')).html).toContain('>EAN invoice<');
  });

  it('records one purchase for one form sent twice, and another for a new form', async () => {
    const ann = await admin('cr-twice');
    const b = await dashboardBrowser(server, ann);
    const key = await buyForm(b);
    const body = { pack: '100', method: 'invoice', key };
    const answers = await Promise.all([
      b.post('/dashboard/credits/buy', body),
      b.post('/dashboard/credits/buy', body),
    ]);
    expect(answers.map((a) => a.status)).toEqual([303, 303]);
    const again = await b.post('/dashboard/credits/buy', body);
    expect(again.status).toBe(303);
    const once = await listPurchases(db(), 'cr-twice');
    expect(once).toHaveLength(1);
    // The resend is told of the purchase it made, not of a new one.
    expect((await b.get('/dashboard/credits')).html).toContain(
      `Invoice ${once[0]!.invoiceNumber} is recorded`,
    );
    expect(await creditBalance(db(), 'cr-twice')).toMatchObject({ total: 100n });
    const next = await buyForm(b);
    expect(next).not.toBe(key);
    expect((await b.post('/dashboard/credits/buy', { ...body, key: next })).status).toBe(303);
    expect(await listPurchases(db(), 'cr-twice')).toHaveLength(2);
    expect(await creditBalance(db(), 'cr-twice')).toMatchObject({ total: 200n });
  });

  it('offers no card and refuses one, at the method', async () => {
    const ann = await admin('cr-card');
    const b = await dashboardBrowser(server, ann);
    const page = await b.get('/dashboard/credits');
    expect(page.html).toContain('Card payments are not offered on this installation');
    expect(page.html).not.toContain('value="card"');
    const card = await b.post('/dashboard/credits/buy', {
      pack: '100',
      method: 'card',
      key: formKey(page.html),
    });
    expect(card.status).toBe(400);
    expect(fieldError(card.html, 'method')).toBe(
      'Card payments are not offered here. Choose invoice or EAN invoice.',
    );
    expect(await listPurchases(db(), 'cr-card')).toEqual([]);
  });

  it('lets a member who is not an admin see the page, and neither buy nor change the auto-refill', async () => {
    await admin('cr-mem');
    const mo = await stack.member({ company: 'cr-mem', email: 'mo@cr-mem.example' });
    const b = await dashboardBrowser(server, mo);
    const page = await b.get('/dashboard/credits');
    expect(page.status).toBe(200);
    expect(page.html).toContain(
      'Only an admin of the company can buy credits and change the auto-refill.',
    );
    expect(page.html).not.toContain('/dashboard/credits/buy');
    expect(page.html).not.toContain('/dashboard/credits/refill');
    const buy = await b.post('/dashboard/credits/buy', {
      pack: '100',
      method: 'invoice',
      key: randomUUID(),
    });
    expect(buy.status).toBe(403);
    const refill = await b.post('/dashboard/credits/refill', {
      refillEnabled: 'true',
      refillBelow: '10',
      refillPack: '100',
      refillMethod: 'invoice',
    });
    expect(refill.status).toBe(403);
    expect(await listPurchases(db(), 'cr-mem')).toEqual([]);
    expect(await autoRefillOf(db(), 'cr-mem')).toBeUndefined();
  });

  it('refuses a form without its CSRF token, and records nothing', async () => {
    const ann = await admin('cr-csrf');
    const b = await dashboardBrowser(server, ann);
    const key = await buyForm(b);
    const res = await fetch(`${server.url}/dashboard/credits/buy`, {
      method: 'POST',
      headers: {
        cookie: `${ann.cookie.name}=${ann.cookie.value}`,
        origin: server.url,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ pack: '100', method: 'invoice', key }).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(403);
    expect(await listPurchases(db(), 'cr-csrf')).toEqual([]);
  });

  it('saves the auto-refill, refuses bad values at their fields, and turns it off', async () => {
    const ann = await admin('cr-refill');
    const b = await dashboardBrowser(server, ann);
    expect((await b.get('/dashboard/credits')).html).toContain('Auto-refill is off.');
    const saved = await b.post('/dashboard/credits/refill', {
      refillEnabled: 'true',
      refillBelow: '20',
      refillPack: '500',
      refillMethod: 'invoice',
    });
    expect(saved.status, saved.html).toBe(303);
    expect(await autoRefillOf(db(), 'cr-refill')).toEqual({
      below: 20n,
      credits: 500n,
      method: 'invoice',
    });
    const page = await b.get('/dashboard/credits');
    expect(page.html).toContain('The auto-refill is saved.');
    expect(textOf(page.html, 'refill-state')).toBe(
      'Auto-refill is on: when the balance falls below 20 credits, 500 credits are bought by invoice.',
    );
    expect(page.html).toMatch(/name="refillEnabled" value="true" checked/);

    const bad = await b.post('/dashboard/credits/refill', {
      refillEnabled: 'true',
      refillBelow: 'twenty',
      refillPack: '7',
      refillMethod: 'card',
    });
    expect(bad.status).toBe(400);
    expect(fieldError(bad.html, 'refillBelow')).toBe(
      'Write a whole number of credits from 0 to 1000000.',
    );
    expect(fieldError(bad.html, 'refillPack')).toBe('Choose a pack.');
    expect(fieldError(bad.html, 'refillMethod')).toBe(
      'Card payments are not offered here. Choose invoice or EAN invoice.',
    );
    const tooHigh = await b.post('/dashboard/credits/refill', {
      refillEnabled: 'true',
      refillBelow: '1000001',
      refillPack: '100',
      refillMethod: 'ean',
      refillGln: BAD_GLN,
    });
    expect(tooHigh.status).toBe(400);
    expect(fieldError(tooHigh.html, 'refillBelow')).toBe(
      'Write a whole number of credits from 0 to 1000000.',
    );
    expect(fieldError(tooHigh.html, 'refillGln')).toContain('its last digit does not match');
    expect(await autoRefillOf(db(), 'cr-refill')).toMatchObject({ below: 20n, credits: 500n });

    const ean = await b.post('/dashboard/credits/refill', {
      refillEnabled: 'true',
      refillBelow: '0',
      refillPack: '100',
      refillMethod: 'ean',
      refillGln: GLN,
      refillContact: 'Bo Berg',
    });
    expect(ean.status).toBe(303);
    expect(await autoRefillOf(db(), 'cr-refill')).toEqual({
      below: 0n,
      credits: 100n,
      method: 'ean',
      ean: { gln: GLN, contact: 'Bo Berg' },
    });

    const off = await b.post('/dashboard/credits/refill', { refillBelow: 'ignored' });
    expect(off.status).toBe(303);
    expect(await autoRefillOf(db(), 'cr-refill')).toBeUndefined();
    expect((await b.get('/dashboard/credits')).html).toContain('Auto-refill is off.');
  });

  it('keeps a pack the operator set for the auto-refill among the choices', async () => {
    const ann = await admin('cr-oddpack');
    await setAutoRefill(db(), 'cr-oddpack', { below: 5n, credits: 250n, method: 'invoice' });
    const b = await dashboardBrowser(server, ann);
    const page = await b.get('/dashboard/credits');
    expect(page.html).toMatch(/name="refillPack" value="250" checked/);
    const again = await b.post('/dashboard/credits/refill', {
      refillEnabled: 'true',
      refillBelow: '5',
      refillPack: '250',
      refillMethod: 'invoice',
    });
    expect(again.status).toBe(303);
    // The buy form offers the installation's packs only.
    expect(page.html).not.toMatch(/name="pack" value="250"/);
  });

  it('shows nothing of a partner configuration, to the partner or to its customer', async () => {
    const ann = await admin('cr-ptn');
    await new PartnerRepository(db()).set('cr-ptn', {
      isPartner: true,
      code: 'FjordCode',
      kickbackPpm: 150_000,
      discountPpm: 100_000,
      webhookEnabled: true,
    });
    await referred('cr-ptn', 'cr-ptn-kid', 'Partner Customer ApS');
    const kid = await admin('cr-ptn-kid');
    const k = await dashboardBrowser(server, kid);
    expect(
      (
        await k.post('/dashboard/credits/buy', {
          pack: '100',
          method: 'invoice',
          key: await buyForm(k),
        })
      ).status,
    ).toBe(303);
    const [bought] = await listPurchases(db(), 'cr-ptn-kid');
    await markPurchasePaid(db(), bought!.invoiceNumber);
    // The kickback is owed: there is partner data to leak.
    expect((await partnerAccount(db(), 'cr-ptn')).kickbacks).toHaveLength(1);
    const partnerPage = (await (await dashboardBrowser(server, ann)).get('/dashboard/credits'))
      .html;
    const customerPage = (await k.get('/dashboard/credits')).html;
    // The code is the link's, which spec 4.6 gives the company to share.
    expect(partnerPage).toContain(`value="${server.url}/user/register?ref=FjordCode"`);
    for (const html of [partnerPage, customerPage])
      for (const leak of [/kickback/i, /discount/i, /ispartner/i, /rabat/i, /webhook.?enabled/i])
        expect(html).not.toMatch(leak);
    // The rates themselves appear nowhere: 15 % and 10 %, as fractions or per mille.
    for (const html of [partnerPage, customerPage])
      for (const rate of ['15 %', '10 %', '0.15', '150000']) expect(html).not.toContain(rate);
    // The customer pays 10 % less (180.00 kr + VAT = 225.00 kr): the total, not why.
    expect(customerPage).toContain('225.00 kr');
  });

  it('shows one company only its own credits, purchases and cases', async () => {
    const ann = await admin('cr-iso-a');
    const bea = await admin('cr-iso-b');
    const secretCase = await sentCase('cr-iso-a', 'Secret merger');
    await referred('cr-iso-a', 'cr-iso-a-kid', 'Only A Referred ApS');
    const a = await dashboardBrowser(server, ann);
    expect(
      (
        await a.post('/dashboard/credits/buy', {
          pack: '100',
          method: 'invoice',
          key: await buyForm(a),
        })
      ).status,
    ).toBe(303);
    const [aPurchase] = await listPurchases(db(), 'cr-iso-a');
    // A line of B's that names A's case (only a bug could make one): B is not shown A's title.
    await chargeCase(db(), 'cr-iso-b', secretCase, 1n);
    const b = await dashboardBrowser(server, bea);
    const { html } = await b.get('/dashboard/credits');
    expect(textOf(html, 'credits-total')).toBe('-1');
    expect(html).toContain('No purchases yet.');
    expect(html).not.toContain(aPurchase!.invoiceNumber);
    expect(html).not.toContain('Secret merger');
    expect(html).not.toContain(`/dashboard/cases/${secretCase}`);
    expect(html).toContain('A case that is no longer there');
    expect(html).not.toContain('Only A Referred ApS');
    expect(textOf(html, 'referral-stats')).toBe(
      'Companies that signed up through it: 0. Free credits earned: 0.',
    );
    expect(html).toContain(`ref=cr-iso-b"`);
    const aPage = (await a.get('/dashboard/credits')).html;
    expect(aPage).toContain('Secret merger');
    expect(textOf(aPage, 'credits-total')).toBe('124');
  });

  it('speaks Danish to a Danish member and under /da, and keeps the prefix through a form', async () => {
    const dan = await admin('cr-da', 'da');
    await recordPurchase(
      { db: db(), pricing: PRICING },
      { company: 'cr-da', credits: 100n, method: 'invoice', key: 'op-da', by: 'operator' },
    );
    const b = await dashboardBrowser(server, dan);
    const page = await b.get('/dashboard/credits');
    expect(page.html).toContain('<html lang="da">');
    expect(page.html).toContain('Kreditter i alt');
    expect(page.html).toContain('250,00 kr.');
    expect(page.html).toContain('En sendt sag bruger 1 kredit.');

    const ann = await admin('cr-en');
    const e = await dashboardBrowser(server, ann);
    const da = await e.get('/da/dashboard/credits');
    expect(da.status).toBe(200);
    expect(da.html).toContain('<html lang="da">');
    expect(da.html).toContain('action="/da/dashboard/credits/buy"');
    const posted = await e.post('/da/dashboard/credits/buy', {
      pack: '100',
      method: 'ean',
      gln: BAD_GLN,
      key: formKey(da.html),
    });
    expect(posted.status).toBe(400);
    expect(fieldError(posted.html, 'gln')).toContain('det sidste ciffer passer ikke');
    const bought = await e.post('/da/dashboard/credits/buy', {
      pack: '100',
      method: 'invoice',
      key: formKey(da.html),
    });
    expect(bought.status).toBe(303);
    expect(bought.location).toBe('/da/dashboard/credits');
    expect((await e.get('/da/dashboard/credits')).html).toContain(
      'kreditter er tilføjet, 250,00 kr. skal betales.',
    );
    expect((await e.get('/en/dashboard/credits')).html).toContain('<html lang="en">');
  });
});
