import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/service/accounts/index.js';
import { CompanyOverview } from '../../src/service/companies/index.js';
import { addCreditLine } from '../../src/service/credits/index.js';
import { PartnerRepository, recordConsent } from '../../src/service/partners/index.js';
import {
  startPagesStack,
  type PagesServer,
  type PagesStack,
  type TestMember,
} from '../helpers/pages-stack.js';

/**
 * The operator's pages (/admin) over a real socket: the admin credential and its count of wrong
 * tries, the companies list with its counts, a company's page, disable and enable with their
 * effect on the company's keys and its members' sessions, the CSRF check, and the pages when
 * DOCPIPE_ADMIN_PASSWORD is not set.
 */
const PASSWORD = 'operator password of the test';
const BASIC = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
const WRONG = `Basic ${Buffer.from('admin:not the password').toString('base64')}`;

let stack: PagesStack;
let server: PagesServer;
let alphaAdmin: TestMember;
let alphaMember: TestMember;
let alphaKey: string;

beforeAll(async () => {
  stack = await startPagesStack();
  server = await stack.server({ DOCPIPE_ADMIN_PASSWORD: PASSWORD });
  alphaAdmin = await stack.member({ company: 'op-alpha', email: 'ann@alpha.example', admin: true });
  alphaMember = await stack.member({ company: 'op-alpha', email: 'bo@alpha.example' });
  await stack.member({ company: 'op-beta', email: 'cy@beta.example', admin: true });
  // A member who never took the invitation: no login.
  await stack.t.db
    .insertInto('users')
    .values({ company_id: 'op-alpha', email: 'dan@alpha.example', name: 'Dan' })
    .execute();
  alphaKey = (await stack.keys.create({ company: 'op-alpha', user: alphaAdmin.email, name: 'CI' }))
    .key;
  const revoked = await stack.keys.create({ company: 'op-alpha', user: alphaAdmin.email });
  await stack.keys.revoke(revoked.key.split('_').at(-2)!);
  const betaKey = (await stack.keys.create({ company: 'op-beta', user: 'cy@beta.example' })).key;
  // Cases through the v3 API: two drafts and an open case in alpha, one open case in beta.
  for (const [key, state] of [
    [alphaKey, 'draft'],
    [alphaKey, 'draft'],
    [alphaKey, 'open'],
    [betaKey, 'open'],
  ] as const) {
    const res = await fetch(`${server.url}/v3/api/cases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Lease',
        recipients: [{ name: 'Tenant', email: 'tenant@example.com' }],
        documents: [{ name: 'Annex', url: 'https://files.example.com/annex.pdf' }],
        state,
      }),
    });
    expect(res.status, await res.text()).toBe(201);
  }
});
afterAll(() => stack?.close());

/** A GET of an operator page, in English, with the admin credential unless told otherwise. */
function admin(path: string, init: { authorization?: string | null; cookie?: string } = {}) {
  const headers: Record<string, string> = { 'accept-language': 'en' };
  const authorization = init.authorization === undefined ? BASIC : init.authorization;
  if (authorization !== null) headers.authorization = authorization;
  if (init.cookie) headers.cookie = init.cookie;
  return fetch(`${server.url}${path}`, { headers, redirect: 'manual' });
}

/** The row of a company in the list's HTML: its cells' text, by their data-count. */
function rowOf(html: string, company: string): Record<string, string> | undefined {
  const row = new RegExp(`<tr data-company="${company}">([\\s\\S]*?)</tr>`).exec(html)?.[1];
  if (row === undefined) return undefined;
  const cells: Record<string, string> = {};
  for (const m of row.matchAll(/<td data-count="(\w+)">([^<]*)<\/td>/g)) cells[m[1]!] = m[2]!;
  return cells;
}

/** The confirmation page's form: its CSRF cookie and token, for a POST. */
async function confirmForm(path: string): Promise<{ cookie: string; token: string }> {
  const res = await admin(path);
  expect(res.status).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('docpipe_csrf='))!
    .split(';')[0]!;
  const token = /name="_csrf" value="([^"]+)"/.exec(await res.text())![1]!;
  return { cookie, token };
}

function post(path: string, body: string, cookie: string, extra: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      authorization: BASIC,
      'content-type': 'application/x-www-form-urlencoded',
      origin: server.url,
      cookie,
      ...extra,
    },
    body,
  });
}

/** What `key` gets from the v3 API of `on`: its status and slug. */
async function keyAnswer(
  on: PagesServer,
  key: string,
): Promise<{ status: number; error?: string }> {
  const res = await fetch(`${on.url}/v3/api/cases`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const body = (await res.json()) as { error?: string };
  return { status: res.status, ...(body.error ? { error: body.error } : {}) };
}

/** Whether the member's session opens their company's dashboard: the member navigation shows. */
async function dashboardOpens(member: TestMember): Promise<boolean> {
  const res = await fetch(`${server.url}/dashboard/anything`, {
    headers: { cookie: `docpipe_session=${member.cookie.value}`, 'accept-language': 'en' },
  });
  return (await res.text()).includes('href="/dashboard/keys"');
}

describe('the operator pages', () => {
  it('ask for the admin credential: none or a wrong one is 401 with a Basic challenge', async () => {
    const none = await admin('/admin', { authorization: null });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic realm="docpipe admin"/);
    expect((await admin('/admin/companies/op-alpha', { authorization: WRONG })).status).toBe(401);
    // A dashboard session is no credential for them.
    const session = await admin('/admin', {
      authorization: null,
      cookie: `docpipe_session=${alphaAdmin.cookie.value}`,
    });
    expect(session.status).toBe(401);
    expect((await admin('/admin')).status).toBe(200);
  });

  it('count wrong credentials per address: past the allowance even the right one is 429', async () => {
    // A server of its own: its queue prefix is its own count, so the others' tries stay free.
    const strict = await stack.server({
      DOCPIPE_ADMIN_PASSWORD: PASSWORD,
      DOCPIPE_ADMIN_ATTEMPTS_PER_MINUTE: '2',
    });
    const get = (authorization: string) =>
      fetch(`${strict.url}/admin`, { headers: { authorization } });
    expect((await get(WRONG)).status).toBe(401);
    expect((await get(WRONG)).status).toBe(401);
    const third = await get(WRONG);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await get(BASIC)).status).toBe(429);
    // The queue dashboard counts the same tries: one allowance for the one credential.
    expect(
      (await fetch(`${strict.url}/admin/queues`, { headers: { authorization: BASIC } })).status,
    ).toBe(429);
  });

  it('list the companies with their members, cases by state and keys counted', async () => {
    const res = await admin('/admin?q=op-');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).toContain('Operator pages: every company of this installation');
    expect(html).toContain('href="/admin/queues"');
    // No member navigation: the operator is nobody's member.
    expect(html).not.toContain('href="/dashboard/keys"');
    expect(rowOf(html, 'op-alpha')).toEqual({
      members: '3',
      cases: '3 in all: 2 draft, 1 open',
      keys: '1 working of 2',
    });
    expect(rowOf(html, 'op-beta')).toEqual({
      members: '1',
      cases: '1 in all: 1 open',
      keys: '1 working of 1',
    });
    expect(html).toMatch(
      /<tr data-company="op-alpha">[\s\S]*?<td>CLI<\/td>[\s\S]*?<td>Enabled<\/td>/,
    );
    // Searched by name too, in any case; another search finds neither.
    const byName = await (await admin('/admin?q=COMPANY%20OP-B')).text();
    expect(rowOf(byName, 'op-beta')).toBeDefined();
    expect(rowOf(byName, 'op-alpha')).toBeUndefined();
    // The search's own % is a character, not LIKE's wildcard.
    const none = await (await admin('/admin?q=op-%25')).text();
    expect(none).toContain('No company matches &quot;op-%&quot;.');
  });

  it("show a company's members, keys, webhooks and recent cases", async () => {
    const res = await admin('/admin/companies/op-alpha');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<h1>Company Company op-alpha</h1>');
    const member = (email: string) =>
      new RegExp(`<tr data-member="${email}">([\\s\\S]*?)</tr>`)
        .exec(html)?.[1]
        ?.replace(/<[^>]+>/g, '|');
    // Name, e-mail, admin, has logged in, last seen.
    expect(member('ann@alpha.example')).toMatch(/\|Yes\|\|Yes\|\|\d{4}-\d\d-\d\d \d\d:\d\d UTC\|/);
    expect(member('bo@alpha.example')).toMatch(/\|No\|\|Yes\|/);
    expect(member('dan@alpha.example')).toMatch(/\|No\|\|No\|\|–\|/);
    expect([...html.matchAll(/<tr data-key="[0-9a-f]{16}">/g)]).toHaveLength(2);
    const alphaId = alphaKey.split('_').at(-2)!;
    expect(html).toContain(`<tr data-key="${alphaId}">`);
    expect(html).toContain(`<code>dp_live_${alphaId}_…</code>`);
    expect(html).not.toContain(alphaKey);
    expect(html).toContain('<dd data-fact="webhooks">0</dd>');
    expect(html).toContain('<dd data-fact="recent-cases">3</dd>');
    expect(html).toContain(
      '<dd data-fact="cases">2 draft, 1 open, 0 signed, 0 denied, 0 expired</dd>',
    );
    expect(html).toContain('href="/admin/companies/op-alpha/disable"');
    // An unknown company, and any other path, is the not-found page.
    expect((await admin('/admin/companies/op-nobody')).status).toBe(404);
    expect((await admin('/admin/companies/op-nobody/disable')).status).toBe(404);
    expect((await admin('/admin/elsewhere')).status).toBe(404);
    expect((await admin('/admin/companies/op-alpha/delete')).status).toBe(404);
    expect((await admin('/admin/companies/op-alpha?done=whatever')).status).toBe(200);
  });

  it("disable refuses the company's keys and its members' sessions; enable gives them back", async () => {
    const warm = await keyAnswer(server, alphaKey);
    expect(warm.status).toBe(200);
    expect(await dashboardOpens(alphaMember)).toBe(true);

    const { cookie, token } = await confirmForm('/admin/companies/op-alpha/disable');
    const done = await post('/admin/companies/op-alpha/disable', `_csrf=${token}`, cookie);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/admin/companies/op-alpha?done=disabled');
    const page = await (await admin(done.headers.get('location')!)).text();
    expect(page).toContain('The company is disabled.');
    expect(page).toContain('<dd data-fact="status">Disabled</dd>');
    expect(page).toContain('href="/admin/companies/op-alpha/enable"');
    // A server that has not verified the key within its cache's 5 s refuses it at once.
    expect(await keyAnswer(await stack.server(), alphaKey)).toEqual({
      status: 403,
      error: 'company-disabled',
    });
    expect(await dashboardOpens(alphaMember)).toBe(false);
    expect((await new SessionStore(stack.t.db).read(alphaMember.cookie.value))?.user).toBeNull();
    const again = await post('/admin/companies/op-alpha/disable', `_csrf=${token}`, cookie);
    expect(again.headers.get('location')).toBe('/admin/companies/op-alpha?done=already-disabled');
    expect(rowOf(await (await admin('/admin?q=op-alpha')).text(), 'op-alpha')).toBeDefined();

    const enable = await confirmForm('/admin/companies/op-alpha/enable');
    const enabled = await post(
      '/admin/companies/op-alpha/enable',
      `_csrf=${enable.token}`,
      enable.cookie,
    );
    expect(enabled.headers.get('location')).toBe('/admin/companies/op-alpha?done=enabled');
    expect((await keyAnswer(await stack.server(), alphaKey)).status).toBe(200);
    expect(await dashboardOpens(alphaMember)).toBe(true);
  });

  it("show a company's partner configuration, credits and kickbacks owed, and change it by its form", async () => {
    await stack.t.db.transaction().execute((tx) =>
      addCreditLine(tx, {
        company: 'op-beta',
        kind: 'correction',
        freeCredits: 5n,
        key: 'correction:op-test',
        note: 'test',
        by: 'operator',
      }),
    );
    const first = await (await admin('/admin/companies/op-beta')).text();
    expect(first).toContain('<h2 id="partner-heading">Partner and credits</h2>');
    expect(first).toContain('<dd data-fact="partner">No</dd>');
    expect(first).toContain('<dd data-fact="kickback">0 %</dd>');
    // Its one open case took a credit before the 5 were given: the ledger may go below zero.
    expect(first).toContain('<dd data-fact="credits">4 (-1 bought, 5 given)</dd>');
    expect(first).toContain('<dd data-fact="owed">0.00 kr (earned 0.00 kr, paid out 0.00 kr)</dd>');
    expect(first).toContain('action="/admin/companies/op-beta/partner"');

    const { cookie, token } = await confirmForm('/admin/companies/op-beta');
    // A rate that is no fraction, and a code that is another company's id: named by field.
    const english = { 'accept-language': 'en' };
    const refused = await post(
      '/admin/companies/op-beta/partner',
      `_csrf=${token}&isPartner=true&code=BetaRef&kickback=15%25&discount=0.1`,
      cookie,
      english,
    );
    expect(refused.status).toBe(400);
    const problems = await refused.text();
    expect(problems).toContain('<a href="#field-kickback">Write a fraction from 0 to 1');
    // What was typed is kept.
    expect(problems).toContain('value="15%"');
    expect(problems).toContain('value="BetaRef"');
    const clash = await post(
      '/admin/companies/op-beta/partner',
      `_csrf=${token}&isPartner=true&code=OP-ALPHA&kickback=0.15&discount=0.1`,
      cookie,
      english,
    );
    expect(clash.status).toBe(400);
    expect(await clash.text()).toContain(
      '<p class="field-error" id="field-code-error">This is the id of another company: a link would name both.</p>',
    );
    // The language switch of a refused form comes back to the company's page.
    const back = await admin('/admin/companies/op-beta/partner');
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('/admin/companies/op-beta');
    expect(await new PartnerRepository(stack.t.db).get('op-beta')).toMatchObject({
      isPartner: false,
      updatedAt: null,
    });

    const saved = await post(
      '/admin/companies/op-beta/partner',
      `_csrf=${token}&isPartner=true&code=BetaRef&kickback=0.15&discount=0.125&webhookEnabled=true`,
      cookie,
    );
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe('/admin/companies/op-beta?done=partner-saved');
    const page = await (await admin(saved.headers.get('location')!)).text();
    expect(page).toContain('The partner configuration is saved.');
    expect(page).toContain('<dd data-fact="partner">Yes</dd>');
    expect(page).toContain('<dd data-fact="code"><code>BetaRef</code></dd>');
    expect(page).toContain('<dd data-fact="kickback">15 %</dd>');
    expect(page).toContain('<dd data-fact="discount">12.5 %</dd>');
    expect(page).toContain('<dd data-fact="partner-webhook">Allowed</dd>');
    expect(page).toContain('name="kickback" type="text" value="0.15"');
    expect(await new PartnerRepository(stack.t.db).get('op-beta')).toMatchObject({
      isPartner: true,
      code: 'BetaRef',
      kickbackPpm: 150_000,
      discountPpm: 125_000,
      webhookEnabled: true,
    });

    // Unticked boxes and an empty code switch them off; the Danish page has the same section.
    const off = await post(
      '/admin/companies/op-beta/partner',
      `_csrf=${token}&code=&kickback=0.15&discount=0.125`,
      cookie,
    );
    expect(off.status).toBe(303);
    expect(await new PartnerRepository(stack.t.db).get('op-beta')).toMatchObject({
      isPartner: false,
      code: null,
      webhookEnabled: false,
    });
    const danish = await fetch(`${server.url}/admin/companies/op-beta`, {
      headers: { authorization: BASIC, 'accept-language': 'da' },
    });
    expect(await danish.text()).toContain('<h2 id="partner-heading">Partner og kreditter</h2>');
    // The company's own dashboard never shows it.
    expect(await (await fetch(`${server.url}/dashboard/anything`)).text()).not.toContain(
      'partner-heading',
    );
  });

  it('show who referred a company and the consent it gave to send its key to the partner, with the words shown', async () => {
    await stack.t.db
      .insertInto('companies')
      .values({ id: 'op-referred', name: 'Referred ApS', referred_by: 'op-beta' })
      .execute();
    const before = await (await admin('/admin/companies/op-referred')).text();
    expect(before).toContain('<dd data-fact="consent">None given</dd>');
    expect(before).toMatch(
      /<dd data-fact="referred-by"><a href="\/admin\/companies\/op-beta">[^<]+<\/a><\/dd>/,
    );
    expect(await (await admin('/admin/companies/op-beta')).text()).toContain(
      '<dd data-fact="referred-by">No one: it did not sign up through a referral link</dd>',
    );
    const referredAdmin = await stack.member({
      company: 'op-referred',
      email: 'ann@referred.example',
      admin: true,
    });
    await recordConsent(stack.t.db, {
      company: 'op-referred',
      partner: 'op-beta',
      userId: referredAdmin.userId,
      email: 'ann@referred.example',
      text: 'Send Beta an API key for <Referred>',
      language: 'en',
      ip: '192.0.2.7',
    });
    const after = await (await admin('/admin/companies/op-referred')).text();
    expect(after).toContain('Given by ann@referred.example on 2');
    expect(after).toContain('from 192.0.2.7');
    // The words as shown, escaped.
    expect(after).toContain(
      '<blockquote lang="en">Send Beta an API key for &lt;Referred></blockquote>',
    );
  });

  it('refuse a disable without the CSRF token, or from another origin', async () => {
    const { cookie, token } = await confirmForm('/admin/companies/op-beta/disable');
    const bare = await post('/admin/companies/op-beta/disable', '', cookie);
    expect(bare.status).toBe(403);
    const forged = await post('/admin/companies/op-beta/disable', `_csrf=${token}`, cookie, {
      origin: 'https://evil.example',
    });
    expect(forged.status).toBe(403);
    const row = await stack.t.db
      .selectFrom('companies')
      .select('disabled')
      .where('id', '=', 'op-beta')
      .executeTakeFirstOrThrow();
    expect(row.disabled).toBe(false);
  });

  it('leave the queue dashboard its own pages', async () => {
    const board = await admin('/admin/queues');
    expect(board.status).toBe(200);
    expect(await board.text()).toContain('docpipe queues');
  });

  it('without DOCPIPE_ADMIN_PASSWORD answer 404 with a page that says how to turn them on', async () => {
    const off = await stack.server();
    for (const path of ['/admin', '/admin/companies/op-alpha']) {
      const res = await fetch(`${off.url}${path}`, {
        headers: { authorization: BASIC, 'accept-language': 'en' },
      });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain('The operator pages are off');
      expect(html).toContain('DOCPIPE_ADMIN_PASSWORD');
      expect(html).not.toContain('op-alpha</code>');
    }
  });
});

describe('the companies overview with 10,000 companies', () => {
  it('pages by cursor with a fixed number of queries, whatever the page holds', async () => {
    await sql`insert into companies (id, name)
      select 'bulk-' || lpad(i::text, 5, '0'), 'Bulk company ' || i from generate_series(1, 10000) i`.execute(
      stack.t.db,
    );
    await sql`insert into users (company_id, email, name)
      select 'bulk-' || lpad(i::text, 5, '0'), 'u' || j || '@bulk.example', 'U'
      from generate_series(1, 10000) i, generate_series(1, 2) j`.execute(stack.t.db);
    let queries = 0;
    const counted = stack.t.db.withPlugin({
      transformQuery: (args) => {
        queries += 1;
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    });
    const overview = new CompanyOverview(counted);
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      queries = 0;
      const page = await overview.list({
        search: 'bulk-',
        limit: 200,
        ...(cursor ? { cursor } : {}),
      });
      expect(queries).toBe(4);
      for (const c of page.companies) {
        expect(c.members).toBe(2);
        seen.add(c.id);
      }
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBe(50);
    expect(seen.size).toBe(10_000);

    const started = performance.now();
    const res = await admin('/admin?q=bulk-');
    const html = await res.text();
    console.log(`/admin with 10,000 companies: ${Math.round(performance.now() - started)} ms`);
    expect(res.status).toBe(200);
    expect([...html.matchAll(/<tr data-company="bulk-/g)]).toHaveLength(50);
    const next = /href="(\/admin\?q=bulk-&amp;cursor=[^"]+)" rel="next"/.exec(html)?.[1];
    expect(next).toBeDefined();
    const second = await (await admin(next!.replaceAll('&amp;', '&'))).text();
    expect(second).toContain('<tr data-company="bulk-00051">');
    expect(second).not.toContain('<tr data-company="bulk-00050">');
    expect(
      rowOf(await (await admin('/admin?q=Bulk%20company%209999')).text(), 'bulk-09999'),
    ).toEqual({
      members: '2',
      cases: 'None',
      keys: 'None',
    });
  });
});
