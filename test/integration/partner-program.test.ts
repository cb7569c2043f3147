import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { KyselyPlugin, QueryId } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompanyRepository } from '../../src/service/companies/index.js';
import {
  REFERRAL_CREDITS,
  addCreditLine,
  chargeCase,
  creditBalance,
  ledgerSums,
  markPurchasePaid,
  recordPurchase,
  refillIfLow,
  setAutoRefill,
  type PurchaseDeps,
} from '../../src/service/credits/index.js';
import {
  PARTNER_WEBHOOK_TIMEOUT_MS,
  PartnerRepository,
  handOverCustomerKey,
  partnerAccount,
} from '../../src/service/partners/index.js';
import { draftCase } from '../helpers/draft-case.js';
import { WebhookRepository } from '../../src/service/webhooks/index.js';
import { startPagesStack, type PagesServer, type PagesStack } from '../helpers/pages-stack.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { PageClient } from './account-client.js';

/**
 * The partner program's rules (spec 2.5, 4.5, 4.6, 5.6, 6) against PostgreSQL, Redis and a
 * receiver on loopback: referral sign-ups through the page, attribution for good (also against a
 * direct SQL update), 25 free credits once, purchases priced with the rates of their time, a
 * kickback once per invoice, the partner webhook's one request, and the public lookup.
 */
let stack: PagesStack;
let server: PagesServer;
let receiver: WebhookReceiver;
let partners: PartnerRepository;

const PASSWORD = 'tangerine-orbit-41';
const PRICING = { unitPriceOre: 250n, vatPpm: 250_000 };
const purchases = (): PurchaseDeps => ({ db: stack.t.db, pricing: PRICING });

/** Every JSON line the server logged, at trace level. */
const lines: string[] = [];
const lineWaiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
/** The first line (logged already, or to come) that `match` accepts. */
function logged(match: (line: string) => boolean): Promise<string> {
  const seen = lines.find(match);
  if (seen !== undefined) return Promise.resolve(seen);
  return new Promise((resolve) => lineWaiters.push({ match, resolve }));
}
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
      lines.push(line);
      for (const w of [...lineWaiters])
        if (w.match(line)) {
          lineWaiters.splice(lineWaiters.indexOf(w), 1);
          w.resolve(line);
        }
    }
    done();
  },
});

beforeAll(async () => {
  [stack, receiver] = await Promise.all([startPagesStack(), startWebhookReceiver()]);
  server = await stack.server(
    {
      DOCPIPE_SIGNUPS_PER_HOUR: '1000',
      // The receiver is on loopback.
      DOCPIPE_WEBHOOK_ALLOW_PRIVATE: 'true',
      DOCPIPE_PARTNER_LOOKUPS_PER_MINUTE: '1000',
    },
    { logger: pino({ level: 'trace' }, sink) },
  );
  partners = new PartnerRepository(stack.t.db);
  const companies = new CompanyRepository(stack.t.db);
  await companies.create({ id: 'fjord', name: 'Fjord Partners ApS' });
  await companies.create({ id: 'plain', name: 'Plain Referrer ApS' });
  await partners.set('fjord', {
    isPartner: true,
    code: 'FjordRef',
    kickbackPpm: 150_000,
    discountPpm: 100_000,
    webhookEnabled: true,
  });
});
afterAll(async () => {
  await receiver?.close();
  await stack?.close();
});

/** Signs a company up through `/user/register?ref=`, as a browser does; its new id. */
async function signUpThrough(
  ref: string | undefined,
  company: string,
  options: { consent?: boolean } = {},
): Promise<{ id: string | undefined; page: string }> {
  const browser = new PageClient(server.url);
  const path = `/en/user/register${ref === undefined ? '' : `?ref=${encodeURIComponent(ref)}`}`;
  const form = await browser.get(path);
  const email = `${randomUUID().slice(0, 8)}@${company.toLowerCase().replace(/\W+/g, '-')}.example`;
  const answer = await browser.post('/en/user/register', {
    companyName: company,
    cvr: '24256790',
    name: 'Ann Berg',
    email,
    password: PASSWORD,
    ...(ref === undefined ? {} : { ref }),
    ...(options.consent ? { partnerConsent: 'true' } : {}),
  });
  expect(answer.status, answer.html).toBe(200);
  const row = await stack.t.db
    .selectFrom('users')
    .select('company_id')
    .where('email', '=', email)
    .executeTakeFirst();
  return { id: row?.company_id, page: form.html };
}

const referredBy = async (company: string) =>
  (
    await stack.t.db
      .selectFrom('companies')
      .select('referred_by')
      .where('id', '=', company)
      .executeTakeFirstOrThrow()
  ).referred_by;

const referralLines = (referrer: string, company: string) =>
  stack.t.db
    .selectFrom('credit_lines')
    .selectAll()
    .where('company_id', '=', referrer)
    .where('referred_company_id', '=', company)
    .execute();

describe('referral sign-up and attribution', () => {
  it('names an active partner on the page, attributes the company by its code in any case, and gives 25 free credits once', async () => {
    const before = await creditBalance(stack.t.db, 'fjord');
    const { id, page } = await signUpThrough('fjordref', 'Referred One ApS');
    expect(page).toContain('You were referred by Fjord Partners ApS.');
    expect(page).toContain('name="partnerConsent"');
    expect(id).toBeDefined();
    expect(await referredBy(id!)).toBe('fjord');
    const lines = await referralLines('fjord', id!);
    expect(lines.map((l) => [l.kind, l.free_credits, l.paid_credits])).toEqual([
      ['referral', String(REFERRAL_CREDITS), '0'],
    ]);
    const after = await creditBalance(stack.t.db, 'fjord');
    expect(after.free - before.free).toBe(25n);
    expect(await ledgerSums(stack.t.db, 'fjord')).toEqual(after);
  });

  it('attributes to a company that is no partner (yet) by its id, credits it too, and names it nowhere', async () => {
    const { id, page } = await signUpThrough('plain', 'Referred Two ApS');
    expect(page).not.toContain('You were referred by');
    expect(page).not.toContain('name="partnerConsent"');
    expect(await referredBy(id!)).toBe('plain');
    expect(await referralLines('plain', id!)).toHaveLength(1);
  });

  it('signs up without attribution through a ref that names no company', async () => {
    const { id } = await signUpThrough('nobody-at-all', 'Unreferred ApS');
    expect(await referredBy(id!)).toBeNull();
  });

  it('never moves an attribution nor adds one later, not even by a direct SQL update', async () => {
    const { id } = await signUpThrough('plain', 'Referred Three ApS');
    const { id: loose } = await signUpThrough(undefined, 'Loose ApS');
    await expect(
      stack.t.db
        .updateTable('companies')
        .set({ referred_by: 'fjord' } as never)
        .where('id', '=', id!)
        .execute(),
    ).rejects.toThrow(/keeps its referrer/);
    await expect(
      stack.t.db
        .updateTable('companies')
        .set({ referred_by: 'fjord' } as never)
        .where('id', '=', loose!)
        .execute(),
    ).rejects.toThrow(/keeps its referrer/);
    await expect(
      stack.t.db
        .updateTable('companies')
        .set({ referred_by: null } as never)
        .where('id', '=', id!)
        .execute(),
    ).rejects.toThrow(/keeps its referrer/);
    expect(await referredBy(id!)).toBe('plain');
    expect(await referredBy(loose!)).toBeNull();
    // Other columns of a referred company still change.
    await stack.t.db
      .updateTable('companies')
      .set({ name: 'Renamed ApS' })
      .where('id', '=', id!)
      .execute();
  });

  it('keeps the ledger append-only: a line is never edited nor removed', async () => {
    await expect(
      stack.t.db
        .updateTable('credit_lines')
        .set({ note: 'edited' } as never)
        .where('company_id', '=', 'fjord')
        .execute(),
    ).rejects.toThrow(/append-only/);
    await expect(
      stack.t.db.deleteFrom('credit_lines').where('company_id', '=', 'fjord').execute(),
    ).rejects.toThrow(/append-only/);
  });
});

describe('purchases and kickbacks', () => {
  it('prices each purchase with the rates of its time: a change between two changes only the second', async () => {
    const { id } = await signUpThrough('FJORDREF', 'Buyer One ApS');
    const first = await recordPurchase(purchases(), {
      company: id!,
      credits: 100n,
      method: 'invoice',
      key: 'p-1',
      by: 'operator',
    });
    // 100 × 2.50 = 250.00; 10 % off: 225.00; VAT 56.25; total 281.25.
    expect(first.purchase).toMatchObject({
      grossOre: 25_000n,
      discountOre: 2_500n,
      netOre: 22_500n,
      vatOre: 5_625n,
      totalOre: 28_125n,
      discountPpm: 100_000,
      kickbackPpm: 150_000,
      referrerPartner: true,
      status: 'open',
    });
    await partners.set('fjord', { discountPpm: 200_000, kickbackPpm: 50_000 });
    const second = await recordPurchase(purchases(), {
      company: id!,
      credits: 100n,
      method: 'invoice',
      key: 'p-2',
      by: 'operator',
    });
    expect(second.purchase).toMatchObject({
      discountOre: 5_000n,
      netOre: 20_000n,
      kickbackPpm: 50_000,
    });
    const stored = await stack.t.db
      .selectFrom('credit_purchases')
      .select(['invoice_number', 'discount_ore', 'kickback_ppm'])
      .where('id', '=', first.purchase.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({
      invoice_number: first.purchase.invoiceNumber,
      discount_ore: '2500',
      kickback_ppm: 150_000,
    });
    // Paid: each earns its own rate, once.
    await markPurchasePaid(stack.t.db, first.purchase.invoiceNumber);
    await markPurchasePaid(stack.t.db, second.purchase.invoiceNumber);
    const account = await partnerAccount(stack.t.db, 'fjord');
    const mine = account.kickbacks.filter((k) => k.customer === id);
    expect(mine.map((k) => k.amountOre)).toEqual([3_375n, 1_000n]);
    // A recorded purchase stays as it was: the database refuses an edit.
    await expect(
      stack.t.db
        .updateTable('credit_purchases')
        .set({ net_ore: 1n } as never)
        .where('id', '=', first.purchase.id)
        .execute(),
    ).rejects.toThrow(/stays as recorded/);
    await partners.set('fjord', { discountPpm: 100_000, kickbackPpm: 150_000 });
  });

  it('records one purchase, one ledger line and one kickback when the same purchase is recorded and paid twice at once', async () => {
    const { id } = await signUpThrough('fjordref', 'Buyer Twice ApS');
    const request = {
      company: id!,
      credits: 40n,
      method: 'ean' as const,
      ean: { gln: '5790000000005', orderNumber: 'PO-9' },
      key: 'double',
      by: 'operator',
    };
    const [a, b] = await Promise.all([
      recordPurchase(purchases(), request),
      recordPurchase(purchases(), request),
    ]);
    expect(a.purchase.id).toBe(b.purchase.id);
    expect([a.again, b.again].sort()).toEqual([false, true]);
    const paid = await Promise.all([
      markPurchasePaid(stack.t.db, a.purchase.invoiceNumber),
      markPurchasePaid(stack.t.db, a.purchase.invoiceNumber),
    ]);
    expect(paid.map((p) => p!.again).sort()).toEqual([false, true]);
    const kickbacks = await stack.t.db
      .selectFrom('partner_kickbacks')
      .selectAll()
      .where('purchase_id', '=', a.purchase.id)
      .execute();
    expect(kickbacks).toHaveLength(1);
    const lines = await stack.t.db
      .selectFrom('credit_lines')
      .select('paid_credits')
      .where('company_id', '=', id!)
      .where('kind', '=', 'purchase')
      .execute();
    expect(lines).toEqual([{ paid_credits: '40' }]);
  });

  it('gives no discount and owes no kickback while the referrer is not an active partner', async () => {
    const { id } = await signUpThrough('plain', 'Buyer Plain ApS');
    const bought = await recordPurchase(purchases(), {
      company: id!,
      credits: 10n,
      method: 'invoice',
      key: 'plain-1',
      by: 'operator',
    });
    expect(bought.purchase).toMatchObject({
      discountOre: 0n,
      referrerPartner: false,
      kickbackPpm: 0,
    });
    await markPurchasePaid(stack.t.db, bought.purchase.invoiceNumber);
    expect((await partnerAccount(stack.t.db, 'plain')).kickbacks).toEqual([]);
    // Nor once the referrer turns partner: the purchase was recorded before.
    const { id: later } = await signUpThrough('fjordref', 'Buyer Later ApS');
    await partners.set('fjord', { isPartner: false });
    const off = await recordPurchase(purchases(), {
      company: later!,
      credits: 10n,
      method: 'invoice',
      key: 'off-1',
      by: 'operator',
    });
    await partners.set('fjord', { isPartner: true });
    await markPurchasePaid(stack.t.db, off.purchase.invoiceNumber);
    const owed = (await partnerAccount(stack.t.db, 'fjord')).kickbacks.filter(
      (k) => k.customer === later,
    );
    expect(owed).toEqual([]);
    expect(off.purchase.discountOre).toBe(0n);
  });

  it('takes a sent case from free credits first, then bought ones, once per case', async () => {
    const { id } = await signUpThrough(undefined, 'Charged ApS');
    await recordPurchase(purchases(), {
      company: id!,
      credits: 2n,
      method: 'invoice',
      key: 'c',
      by: 'operator',
    });
    await stack.t.db.transaction().execute(async (tx) => {
      const { addCreditLine } = await import('../../src/service/credits/index.js');
      await addCreditLine(tx, {
        company: id!,
        kind: 'correction',
        freeCredits: 1n,
        key: 'gift',
        by: 'operator',
      });
    });
    const caseA = randomUUID();
    for (const caseId of [caseA, caseA, randomUUID(), randomUUID()])
      await stack.t.db.transaction().execute((tx) => chargeCase(tx, id!, caseId, 1n));
    // Three cases (one charged twice counts once): the free credit, then both bought ones.
    expect(await creditBalance(stack.t.db, id!)).toEqual({ paid: 0n, free: 0n, total: 0n });
    // A fourth goes below zero: no case is refused for want of credits.
    await stack.t.db.transaction().execute((tx) => chargeCase(tx, id!, randomUUID(), 1n));
    expect((await creditBalance(stack.t.db, id!)).total).toBe(-1n);
  });
});

describe('the partner webhook', () => {
  let hookPath = 0;
  async function partnerHook(options: { trigger?: string; active?: boolean } = {}) {
    const path = `/partner-${++hookPath}`;
    await new WebhookRepository(stack.t.db).add('fjord', {
      url: `${receiver.url}${path}`,
      method: 'PUT',
      triggers: [options.trigger ?? 'partner.customer.registered'],
      headers: ['X-Shared: s3cr3t'],
      active: options.active ?? true,
    });
    return path;
  }
  const removeHooks = async () =>
    stack.t.db.deleteFrom('webhooks').where('company_id', '=', 'fjord').execute();
  const keysOf = (company: string) =>
    stack.t.db.selectFrom('api_keys').selectAll().where('company_id', '=', company).execute();

  it("sends exactly the new company's id, name, CVR and a working key, once, with the webhook's method and headers", async () => {
    await removeHooks();
    const path = await partnerHook();
    const before = receiver.requests.length;
    receiver.script(500);
    const { id } = await signUpThrough('fjordref', 'Hooked ApS', { consent: true });
    const got = (await receiver.waitFor(before + 1))[before]!;
    expect(got.method).toBe('PUT');
    expect(got.url).toBe(path);
    expect(got.headers['x-shared']).toBe('s3cr3t');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-docpipe-signature']).toBeUndefined();
    const body = JSON.parse(got.body) as { trigger: string; company: Record<string, string> };
    expect(Object.keys(body).sort()).toEqual(['company', 'trigger']);
    expect(Object.keys(body.company).sort()).toEqual(['apiKey', 'cvr', 'id', 'name']);
    expect(body).toMatchObject({
      trigger: 'partner.customer.registered',
      company: { id, name: 'Hooked ApS', cvr: '24256790' },
    });
    // The key acts as the new admin, never expires, and is the partner's integration.
    const verified = await stack.keys.verify(body.company.apiKey!);
    expect(verified).toMatchObject({ ok: true });
    const [key] = await keysOf(id!);
    expect(key).toMatchObject({
      partner_company_id: 'fjord',
      expires_at: null,
      name: 'Partner integration',
    });
    // One attempt: the 500 is not retried, and no run is written.
    expect(receiver.requests.length).toBe(before + 1);
    expect(
      await stack.t.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('trigger', '=', 'partner.customer.registered')
        .execute(),
    ).toEqual([]);
    // The consent is kept with the words shown.
    const consent = await stack.t.db
      .selectFrom('partner_consents')
      .selectAll()
      .where('company_id', '=', id!)
      .executeTakeFirstOrThrow();
    expect(consent).toMatchObject({ partner_company_id: 'fjord', language: 'en', ip: '127.0.0.1' });
    expect(consent.text).toContain('Send Fjord Partners ApS an API key');
  });

  it('makes no key and sends nothing without the consent, without an active webhook of the trigger, or to a * webhook', async () => {
    await removeHooks();
    await partnerHook();
    const before = receiver.requests.length;
    const { id: noConsent } = await signUpThrough('fjordref', 'No Consent ApS');
    expect(await keysOf(noConsent!)).toEqual([]);
    await removeHooks();
    await partnerHook({ active: false });
    await partnerHook({ trigger: '*' });
    const { id: noHook } = await signUpThrough('fjordref', 'No Hook ApS', { consent: true });
    expect(await keysOf(noHook!)).toEqual([]);
    // Nor when the partner's webhook is switched off, whatever the box.
    await removeHooks();
    await partnerHook();
    await partners.set('fjord', { webhookEnabled: false });
    const { id: off, page } = await signUpThrough('fjordref', 'Webhook Off ApS', { consent: true });
    expect(page).not.toContain('name="partnerConsent"');
    expect(await keysOf(off!)).toEqual([]);
    await partners.set('fjord', { webhookEnabled: true });
    expect(receiver.requests.length).toBe(before);
  });

  it("lists the key in the customer's dashboard as a partner integration, in its language, and revokes it there", async () => {
    await removeHooks();
    await partnerHook();
    const before = receiver.requests.length;
    const { id } = await signUpThrough('FJORDREF', 'Listed Key ApS', { consent: true });
    const got = (await receiver.waitFor(before + 1))[before]!;
    const apiKey = (JSON.parse(got.body) as { company: { apiKey: string } }).company.apiKey;
    const admin = await stack.member({ company: id!, email: 'second@listed.example', admin: true });
    const client = new PageClient(server.url);
    client.cookies.set(admin.cookie.name, admin.cookie.value);
    const en = await client.get('/dashboard/keys');
    expect(en.status).toBe(200);
    expect(en.html).toContain('Partner integration: Fjord Partners ApS');
    const danish = new PageClient(server.url, { 'accept-language': 'da' });
    danish.cookies.set(admin.cookie.name, admin.cookie.value);
    const da = await danish.get('/dashboard/keys');
    expect(da.html).toContain('Partnerintegration: Fjord Partners ApS');
    // Only the partner's name: never its terms.
    expect(en.html).not.toMatch(/kickback|discount|15 %|10 %/i);
    const [key] = await keysOf(id!);
    expect((await client.get(`/dashboard/keys/${key!.id}/revoke`)).status).toBe(200);
    const revoked = await client.post(`/dashboard/keys/${key!.id}/revoke`, {});
    expect(revoked.status).toBe(303);
    const res = await fetch(`${server.url}/v3/api/cases`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe('key-revoked');
  });

  it('offers the trigger in the webhook form only to an active partner with the webhook enabled, and saves it there', async () => {
    const triggerBox = 'value="partner.customer.registered"';
    const fjordAdmin = await stack.member({
      company: 'fjord',
      email: 'hooks@fjord.example',
      admin: true,
    });
    const plainAdmin = await stack.member({
      company: 'plain',
      email: 'hooks@plain.example',
      admin: true,
    });
    const fjord = new PageClient(server.url);
    fjord.cookies.set(fjordAdmin.cookie.name, fjordAdmin.cookie.value);
    const plain = new PageClient(server.url);
    plain.cookies.set(plainAdmin.cookie.name, plainAdmin.cookie.value);
    const offered = await fjord.get('/dashboard/webhooks');
    expect(offered.html).toContain(triggerBox);
    expect(offered.html).toContain('New referred customer');
    expect((await plain.get('/dashboard/webhooks')).html).not.toContain(triggerBox);
    // A forged form from a company that may not have it is refused at the field.
    const forged = await plain.post('/dashboard/webhooks', {
      url: `${receiver.url}/forged`,
      method: 'POST',
      active: 'on',
      triggers: 'partner.customer.registered',
    });
    expect(forged.status).toBe(400);
    expect(forged.html).toContain('id="field-triggers-error"');
    await removeHooks();
    const saved = await fjord.post('/dashboard/webhooks', {
      url: `${receiver.url}/from-the-form`,
      method: 'POST',
      active: 'on',
      triggers: 'partner.customer.registered',
    });
    expect(saved.status, saved.html).toBe(200);
    const [hook] = await new WebhookRepository(stack.t.db).list('fjord');
    expect(hook?.triggers).toEqual(['partner.customer.registered']);
    // Once the operator turns the webhook off, the form no longer offers it, but a webhook that
    // names it still shows it, so that it can be unticked.
    await partners.set('fjord', { webhookEnabled: false });
    expect((await fjord.get('/dashboard/webhooks')).html).not.toContain(triggerBox);
    expect((await fjord.get(`/dashboard/webhooks/${hook!.id}`)).html).toContain(triggerBox);
    await partners.set('fjord', { webhookEnabled: true });
  });

  it('refuses the trigger on the webhooks of a company that is no partner with the webhook enabled', async () => {
    await expect(
      new WebhookRepository(stack.t.db).add('plain', {
        url: `${receiver.url}/nope`,
        triggers: ['partner.customer.registered'],
      }),
    ).rejects.toThrow(/received only by a partner/);
  });
});

describe('GET /v3/public/partner/{ref}', () => {
  const lookup = async (ref: string) => {
    const res = await fetch(`${server.url}/v3/public/partner/${encodeURIComponent(ref)}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('answers an active partner by its code in any case or its id, and anything else as no partner, 200 alike', async () => {
    for (const ref of ['FjordRef', 'fjordref', 'fjord'])
      expect(await lookup(ref)).toEqual({
        status: 200,
        body: { isPartner: true, name: 'Fjord Partners ApS', logo: null, webhookEnabled: true },
      });
    for (const ref of ['plain', 'nobody', 'x'.repeat(150)])
      expect(await lookup(ref)).toEqual({ status: 200, body: { isPartner: false } });
    await stack.t.db
      .updateTable('companies')
      .set({ disabled: true })
      .where('id', '=', 'fjord')
      .execute();
    expect(await lookup('fjordref')).toEqual({ status: 200, body: { isPartner: false } });
    await stack.t.db
      .updateTable('companies')
      .set({ disabled: false })
      .where('id', '=', 'fjord')
      .execute();
  });

  it("serves an active partner's logo, and nobody else's", async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('not really the rest of a PNG'),
    ]);
    for (const id of ['fjord', 'plain'])
      await stack.t.db
        .updateTable('companies')
        .set({ logo: png, logo_type: 'image/png' })
        .where('id', '=', id)
        .execute();
    const found = await lookup('FjordRef');
    expect(found.body.logo).toBe(`${server.url}/v3/public/partner/FjordRef/logo`);
    const logo = await fetch(String(found.body.logo));
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await logo.arrayBuffer())).toEqual(png);
    // A company that is no partner has a logo too, and it is not served.
    expect((await fetch(`${server.url}/v3/public/partner/plain/logo`)).status).toBe(404);
    expect((await fetch(`${server.url}/v3/public/partner/nobody/logo`)).status).toBe(404);
  });

  it('is described in the OpenAPI document without security', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, { get?: { security?: unknown[] } }>;
    };
    expect(doc.paths['/v3/public/partner/{ref}']?.get?.security).toEqual([]);
  });

  it('counts lookups per address and answers 429 past the limit', async () => {
    const limited = await stack.server({ DOCPIPE_PARTNER_LOOKUPS_PER_MINUTE: '2' });
    const answers: Response[] = [];
    for (let i = 0; i < 3; i++) answers.push(await fetch(`${limited.url}/v3/public/partner/fjord`));
    const last = answers.at(-1)!;
    expect(last.status).toBe(429);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await last.json()) as { error: string }).error).toBe('rate-limited');
    // The count is per address, against each server's own allowance: the other one still answers.
    expect((await fetch(`${server.url}/v3/public/partner/fjord`)).status).toBe(200);
  });
});

describe('auto-refill', () => {
  /** A company with `credits` free credits and an auto-refill of 10 by invoice below 5. */
  async function refilling(id: string, credits = 5n) {
    const companies = new CompanyRepository(stack.t.db);
    if (!(await companies.find(id))) await companies.create({ id, name: `Refill ${id}` });
    await setAutoRefill(stack.t.db, id, { below: 5n, credits: 10n, method: 'invoice' });
    await stack.t.db.transaction().execute((tx) =>
      addCreditLine(tx, {
        company: id,
        kind: 'correction',
        freeCredits: credits,
        key: 'start',
        by: 'operator',
      }),
    );
  }
  const refills = (company: string) =>
    stack.t.db
      .selectFrom('credit_purchases')
      .selectAll()
      .where('company_id', '=', company)
      .where('auto_refill', '=', true)
      .execute();
  /** A case sent as the case service sends one: charged in its transaction, then the refill. */
  const sendCase = async (company: string) => {
    await stack.t.db.transaction().execute((tx) => chargeCase(tx, company, randomUUID(), 1n));
    return refillIfLow(purchases(), company);
  };

  it('buys one pack when a case sent through the API takes the balance below the threshold', async () => {
    const ann = await stack.member({ company: 'refill-api', email: 'ann@refill-api.example' });
    await refilling('refill-api');
    const { key } = await stack.keys.create({
      company: 'refill-api',
      user: ann.email,
      name: 'refill',
    });
    const draft = await draftCase(stack, 'refill-api', {
      title: 'Takes the last credit above',
      recipients: [{ name: 'Bo', email: 'bo@refill-api.example' }],
    });
    const bought = logged(
      (l) => l.includes('auto-refill bought credits') && l.includes('"company":"refill-api"'),
    );
    const sent = await fetch(`${server.url}/v3/api/cases/${draft.id}/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(sent.status, await sent.clone().text()).toBe(200);
    const line = JSON.parse(await bought) as { invoice: string; credits: string };
    const [refill, ...more] = await refills('refill-api');
    expect(more).toEqual([]);
    expect(refill).toMatchObject({
      invoice_number: line.invoice,
      credits: '10',
      method: 'invoice',
      created_by: 'auto-refill',
    });
    // 5 - 1 = 4 is below 5: 10 more.
    expect((await creditBalance(stack.t.db, 'refill-api')).total).toBe(14n);
  });

  it('buys nothing while a case leaves the balance at the threshold, and one pack below it', async () => {
    await refilling('refill-edge', 6n);
    expect(await sendCase('refill-edge')).toBeUndefined();
    expect(await refills('refill-edge')).toEqual([]);
    const bought = await sendCase('refill-edge');
    expect(bought).toMatchObject({ credits: 10n, autoRefill: true, method: 'invoice' });
    expect(await refills('refill-edge')).toHaveLength(1);
    // Back above the threshold: the next case buys nothing.
    expect(await sendCase('refill-edge')).toBeUndefined();
    expect(await refills('refill-edge')).toHaveLength(1);
    expect((await creditBalance(stack.t.db, 'refill-edge')).total).toBe(13n);
  });

  it('buys one pack between two cases sent at once that both see the balance low', async () => {
    for (let round = 0; round < 5; round++) {
      const company = `refill-twice-${round}`;
      await refilling(company);
      const bought = await Promise.all([sendCase(company), sendCase(company)]);
      expect(
        bought.filter((b) => b !== undefined),
        company,
      ).toHaveLength(1);
      expect(await refills(company), company).toHaveLength(1);
      // 5 - 2 + 10.
      expect((await creditBalance(stack.t.db, company)).total, company).toBe(13n);
    }
  });

  it('buys one pack when the other refill is recorded between its reading the balance and its purchase', async () => {
    await refilling('refill-between');
    await stack.t.db
      .transaction()
      .execute((tx) => chargeCase(tx, 'refill-between', randomUUID(), 1n));
    // The late one reads the balance (4, low), and waits there while the other buys its pack.
    let reached!: () => void;
    const atBalance = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const late = refillIfLow(
      {
        db: stack.t.db.withPlugin(holdResult('credit_balances', reached, released)),
        pricing: PRICING,
      },
      'refill-between',
    );
    await atBalance;
    const first = await refillIfLow(purchases(), 'refill-between');
    expect(first).toBeDefined();
    release();
    expect(await late).toBeUndefined();
    expect(await refills('refill-between')).toHaveLength(1);
    expect((await creditBalance(stack.t.db, 'refill-between')).total).toBe(14n);
  });
});

/**
 * A plugin that holds the answer of the first query reading `table` until `released`, calling
 * `reached` when it has it: another transaction can then commit between that read and the next.
 */
function holdResult(table: string, reached: () => void, released: Promise<void>): KyselyPlugin {
  let held: QueryId | undefined;
  return {
    transformQuery({ node, queryId }) {
      if (
        held === undefined &&
        node.kind === 'SelectQueryNode' &&
        JSON.stringify(node).includes(`"${table}"`)
      )
        held = queryId;
      return node;
    },
    async transformResult({ result, queryId }) {
      if (held !== undefined && queryId.queryId === held.queryId) {
        reached();
        await released;
      }
      return result;
    },
  };
}

describe('the partner webhook at its limits', () => {
  let customers = 0;
  /** A new customer company with its admin, as the sign-up leaves it. */
  async function customer() {
    const id = `hook-limit-${++customers}`;
    const admin = await stack.member({ company: id, email: `ann@${id}.example`, admin: true });
    return {
      partner: 'fjord',
      companyId: id,
      name: `Company ${id}`,
      cvr: '24256790',
      adminEmail: admin.email,
    };
  }
  async function onlyHook(path: string) {
    await stack.t.db.deleteFrom('webhooks').where('company_id', '=', 'fjord').execute();
    await new WebhookRepository(stack.t.db).add('fjord', {
      url: `${receiver.url}${path}`,
      triggers: ['partner.customer.registered'],
    });
  }

  it('refuses a private destination without DOCPIPE_WEBHOOK_ALLOW_PRIVATE, directly and at sign-up', async () => {
    await onlyHook('/private');
    const before = receiver.requests.length;
    const direct = await handOverCustomerKey(
      { db: stack.t.db, keys: stack.keys, allowPrivate: false },
      await customer(),
    );
    expect(direct.deliveries).toHaveLength(1);
    expect(direct.deliveries[0]!.status).toBeUndefined();
    expect(direct.deliveries[0]!.error).toMatch(/private|loopback|not allowed|refused/i);
    // No key was made for a receiver it could not be sent to.
    expect(direct.keyId).toBeUndefined();
    // A server as configured by default: the sign-up works, and nothing leaves for loopback.
    const closed = await stack.server({ DOCPIPE_SIGNUPS_PER_HOUR: '1000' });
    expect(closed.config.webhooks.allowPrivate).toBe(false);
    const browser = new PageClient(closed.url);
    await browser.get('/en/user/register?ref=fjordref');
    const answer = await browser.post('/en/user/register', {
      companyName: 'Private Hook ApS',
      cvr: '24256790',
      name: 'Ann Berg',
      email: 'ann@private-hook.example',
      password: PASSWORD,
      ref: 'fjordref',
      partnerConsent: 'true',
    });
    expect(answer.status, answer.html).toBe(200);
    expect(await referredBy('private-hook-aps')).toBe('fjord');
    // And the same call allowed to reach loopback does reach the receiver (the refusal was the rule).
    const allowed = await handOverCustomerKey(
      { db: stack.t.db, keys: stack.keys, allowPrivate: true },
      await customer(),
    );
    expect(allowed.deliveries[0]).toMatchObject({ status: 200 });
    expect(allowed.keyId).toEqual(expect.any(String));
    const got = await receiver.waitFor(before + 1);
    expect(receiver.requests.length).toBe(before + 1);
    expect(got[before]!.url).toBe('/private');
  });

  it('gives up on a slow receiver at the cap, and waits the few seconds by default', async () => {
    expect(PARTNER_WEBHOOK_TIMEOUT_MS).toBeGreaterThanOrEqual(1_000);
    expect(PARTNER_WEBHOOK_TIMEOUT_MS).toBeLessThanOrEqual(10_000);
    await onlyHook('/slow');
    const before = receiver.requests.length;
    receiver.script({ delayMs: 4_000 });
    const started = Date.now();
    const slow = await handOverCustomerKey(
      { db: stack.t.db, keys: stack.keys, allowPrivate: true, timeoutMs: 300 },
      await customer(),
    );
    const took = Date.now() - started;
    // The request arrived; its answer was not waited for.
    expect(receiver.requests.length).toBe(before + 1);
    expect(slow.deliveries[0]!.status).toBeUndefined();
    expect(slow.deliveries[0]!.error).toBeDefined();
    expect(took).toBeGreaterThanOrEqual(300);
    expect(took).toBeLessThan(2_000);
  });

  it("keeps the handed-over key out of every log line, the sign-up's and the hand-over's", async () => {
    await onlyHook('/logged');
    const before = receiver.requests.length;
    const from = lines.length;
    const email = `${randomUUID().slice(0, 8)}@logged-key.example`;
    const browser = new PageClient(server.url);
    await browser.get('/en/user/register?ref=fjordref');
    const answer = await browser.post('/en/user/register', {
      companyName: 'Logged Key ApS',
      cvr: '24256790',
      name: 'Ann Berg',
      email,
      password: PASSWORD,
      ref: 'fjordref',
      partnerConsent: 'true',
    });
    expect(answer.status).toBe(200);
    const got = (await receiver.waitFor(before + 1))[before]!;
    const apiKey = (JSON.parse(got.body) as { company: { apiKey: string } }).company.apiKey;
    expect(apiKey.length).toBeGreaterThan(20);
    const mine = lines.slice(from);
    // The hand-over was logged (so the log was written), without the key.
    expect(mine.some((l) => l.includes("a referred customer's key was sent to its partner"))).toBe(
      true,
    );
    expect(mine.filter((l) => l.includes(apiKey))).toEqual([]);
    // Nor the key's secret part alone, after its prefix.
    const secret = apiKey.slice(apiKey.lastIndexOf('_') + 1);
    expect(mine.filter((l) => l.includes(secret))).toEqual([]);
  });
});
