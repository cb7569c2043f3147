import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseSource } from '../../src/service/db/index.js';
import { fillCaseSearchText } from '../../src/service/db/migrations/0016-case-search-text.js';
import { FolderRepository } from '../../src/service/companies/index.js';
import { dashboardBrowser, type DashboardBrowser } from '../helpers/dashboard-forms.js';
import { draftCase } from '../helpers/draft-case.js';
import {
  launchChromium,
  startPagesStack,
  type PagesServer,
  type PagesStack,
  type TestMember,
} from '../helpers/pages-stack.js';

/**
 * The case list (/dashboard/cases) over a real socket and PostgreSQL: tabs by state, the folder
 * and date filters, the search over title, reference and recipients, the cursor's pages, the
 * company's own cases only, and each row's creator and source, in English and Danish.
 */
let stack: PagesStack;
let server: PagesServer;
let ann: TestMember;
let annB: DashboardBrowser;
const ids: Record<string, string> = {};
let contracts: string;
let keyName: string;

/** The listed cases' titles, in the page's order (links to a case's page only, not "New case"). */
function titlesOf(html: string): string[] {
  return [...html.matchAll(/<a href="\/dashboard\/cases\/[0-9a-f-]{36}">([^<]+)<\/a>/g)].map(
    (m) => m[1]!,
  );
}

function idsOf(html: string): string[] {
  return [...html.matchAll(/<a href="\/dashboard\/cases\/([0-9a-f-]{36})">/g)].map((m) => m[1]!);
}

/** The "Older" link's address, or undefined on the last page. */
function olderOf(html: string): string | undefined {
  return /<a href="([^"]+)" rel="next">/.exec(html)?.[1]?.replace(/&amp;/g, '&');
}

async function set(
  id: string,
  values: {
    state?: 'draft' | 'open' | 'signed' | 'denied' | 'expired';
    created_at?: Date;
    source?: CaseSource | null;
    reference_id?: string | null;
    folder_id?: string;
    created_by_key?: string | null;
    created_by_user?: string | null;
  },
): Promise<void> {
  const { created_at: at, ...rest } = values;
  if (Object.keys(rest).length)
    await stack.t.db.updateTable('cases').set(rest).where('id', '=', id).execute();
  // created_at is the database's own (not updatable by type): the test sets it as a migration would.
  if (at) await sql`update cases set created_at = ${at} where id = ${id}`.execute(stack.t.db);
}

/** The web-flow that made Echo hire. */
const FLOW_ID = '0b6f1c2e-4d5a-4e7b-9c8d-1a2b3c4d5e6f';

beforeAll(async () => {
  stack = await startPagesStack();
  server = await stack.server();
  ann = await stack.member({
    company: 'list-a',
    email: 'ann@list-a.example',
    name: 'Ann Andersen',
    admin: true,
  });
  await stack.member({ company: 'list-b', email: 'bob@list-b.example', admin: true });
  keyName = `Integration ${randomBytes(2).toString('hex')}`;
  const key = await stack.keys.create({
    company: 'list-a',
    user: 'ann@list-a.example',
    name: keyName,
  });
  contracts = (await new FolderRepository(stack.t.db).add('list-a', 'Contracts')).id;

  const make = async (title: string, recipients: { name: string; email: string }[]) =>
    (ids[title] = (await draftCase(stack, 'list-a', { title, recipients, pages: 1 })).id);
  await make('Alpha lease', [{ name: 'Anna', email: 'anna@example.com' }]);
  await make('Bravo loan', [
    { name: 'Bo', email: 'bo@example.com' },
    { name: 'Bea', email: 'bea@example.com' },
  ]);
  await make('Charlie deal', [{ name: 'Carl', email: 'carl@example.com' }]);
  await make('Delta sale', [{ name: 'Søren Kierkegaard', email: 'soren@example.com' }]);
  await make('Echo hire', [{ name: 'Eve', email: 'Echo.Person@Example.org' }]);
  ids['Foxtrot of B'] = (
    await draftCase(stack, 'list-b', {
      title: 'Foxtrot of B',
      recipients: [{ name: 'Kierkegaard Bravo', email: 'echo.person@example.org' }],
      pages: 1,
    })
  ).id;

  await set(ids['Alpha lease']!, {
    created_at: new Date('2026-01-05T12:00:00Z'),
    source: 'dashboard',
    created_by_user: ann.userId,
  });
  await set(ids['Bravo loan']!, {
    state: 'open',
    created_at: new Date('2026-02-10T23:30:00Z'),
    source: 'v3',
    created_by_key: key.id,
    folder_id: contracts,
  });
  await stack.t.db
    .updateTable('recipients')
    .set({ status: 'signed' })
    .where('case_id', '=', ids['Bravo loan']!)
    .where('name', '=', 'Bo')
    .execute();
  await set(ids['Charlie deal']!, {
    state: 'signed',
    created_at: new Date('2026-03-15T00:10:00Z'),
    source: null,
    reference_id: 'PO-77_X',
    folder_id: contracts,
  });
  await set(ids['Delta sale']!, {
    state: 'denied',
    created_at: new Date('2026-04-20T12:00:00Z'),
    source: 'v2',
  });
  // Made by a completed web-flow: its creating key names the flow, and is no API key.
  await set(ids['Echo hire']!, {
    state: 'expired',
    created_at: new Date('2026-05-25T12:00:00Z'),
    source: 'form',
    created_by_key: `webflow:${FLOW_ID}`,
  });
  // The references were set after the cases were written: their search text is made again, as
  // migration 0016 makes it for cases written before it.
  for (const company of ['list-a', 'list-b']) await fillCaseSearchText(stack.t.db, company);
  await set(ids['Foxtrot of B'], { created_at: new Date('2026-03-01T12:00:00Z') });
  annB = await dashboardBrowser(server, ann);
});
afterAll(() => stack?.close());

describe('the case list', () => {
  it('shows every case of its own company newest first, with a New case button', async () => {
    const page = await annB.get('/dashboard/cases');
    expect(page.status).toBe(200);
    expect(titlesOf(page.html)).toEqual([
      'Echo hire',
      'Delta sale',
      'Charlie deal',
      'Bravo loan',
      'Alpha lease',
    ]);
    expect(page.html).toContain('href="/dashboard/cases/new"');
    expect(page.html).not.toContain('Foxtrot of B');
    expect(olderOf(page.html)).toBeUndefined();
  });

  it('has a tab for each state, each listing only its cases', async () => {
    const tabs: Record<string, string[]> = {
      draft: ['Alpha lease'],
      open: ['Bravo loan'],
      signed: ['Charlie deal'],
      denied: ['Delta sale'],
      expired: ['Echo hire'],
    };
    for (const [state, titles] of Object.entries(tabs)) {
      const page = await annB.get(`/dashboard/cases?state=${state}`);
      expect(titlesOf(page.html), state).toEqual(titles);
      expect(page.html).toContain(`href="/dashboard/cases?state=${state}" aria-current="page"`);
    }
    // A state that is none is the All tab, not an error.
    expect(titlesOf((await annB.get('/dashboard/cases?state=lost')).html)).toHaveLength(5);
  });

  it('filters by folder and by created date, both days included', async () => {
    const folder = await annB.get(`/dashboard/cases?folder=${contracts}`);
    expect(titlesOf(folder.html)).toEqual(['Charlie deal', 'Bravo loan']);
    expect(folder.html).toContain(`<option value="${contracts}" selected>Contracts</option>`);
    const dates = await annB.get('/dashboard/cases?from=2026-02-10&to=2026-03-15');
    expect(titlesOf(dates.html)).toEqual(['Charlie deal', 'Bravo loan']);
    expect(titlesOf((await annB.get('/dashboard/cases?from=2026-04-01')).html)).toEqual([
      'Echo hire',
      'Delta sale',
    ]);
    expect(titlesOf((await annB.get('/dashboard/cases?to=2026-01-31')).html)).toEqual([
      'Alpha lease',
    ]);
    // Days are the installation's (DOCPIPE_TIME_ZONE, Europe/Copenhagen here), as its times are
    // shown: 23:30 UTC on 10 February is 00:30 on the 11th in Copenhagen.
    expect(
      titlesOf((await annB.get('/dashboard/cases?from=2026-02-11&to=2026-02-11')).html),
    ).toEqual(['Bravo loan']);
    // Filters and a tab together, and another company's folder id finds nothing of theirs.
    expect(
      titlesOf((await annB.get(`/dashboard/cases?state=open&folder=${contracts}`)).html),
    ).toEqual(['Bravo loan']);
  });

  it('searches title, reference and recipient name and e-mail, in any case, LIKE signs as text', async () => {
    const search = async (q: string) =>
      titlesOf((await annB.get(`/dashboard/cases?q=${encodeURIComponent(q)}`)).html);
    expect(await search('BRAVO')).toEqual(['Bravo loan']);
    expect(await search('po-77_x')).toEqual(['Charlie deal']);
    expect(await search('_')).toEqual(['Charlie deal']);
    expect(await search('%')).toEqual([]);
    expect(await search('kierkeg')).toEqual(['Delta sale']);
    expect(await search('echo.person@example')).toEqual(['Echo hire']);
    expect(await search('Foxtrot')).toEqual([]);
    // The search is kept in the form and in the tabs' links.
    const page = await annB.get('/dashboard/cases?q=loan');
    expect(page.html).toContain('value="loan"');
    expect(page.html).toContain('href="/dashboard/cases?state=open&amp;q=loan"');
  });

  it('shows signed of signers, active group, folder, creator and source', async () => {
    const html = (await annB.get('/dashboard/cases')).html;
    const row = (title: string) => {
      const at = html.indexOf(`>${title}</a>`);
      return html.slice(at, html.indexOf('</tr>', at));
    };
    expect(row('Bravo loan')).toContain('<td data-label="Signed">1/2</td>');
    expect(row('Bravo loan')).toContain('<td data-label="Folder">Contracts</td>');
    expect(row('Bravo loan')).toContain(`<td data-label="Created by">Key ${keyName}</td>`);
    expect(row('Bravo loan')).toContain('>API v3<');
    expect(row('Alpha lease')).toContain('<td data-label="Created by">Ann Andersen</td>');
    expect(row('Alpha lease')).toContain('>Dashboard<');
    expect(row('Alpha lease')).toContain('<td data-label="Signed">0/1</td>');
    expect(row('Charlie deal')).toContain('>Not recorded<');
    expect(row('Charlie deal')).toContain('<td data-label="Created by">Unknown</td>');
    expect(row('Delta sale')).toContain('>API v2<');
    expect(row('Echo hire')).toContain('>Form<');
    expect(row('Echo hire')).toContain(
      `<td data-label="Created by"><a href="/dashboard/flows/${FLOW_ID}">Web-flow</a></td>`,
    );
  });

  it('is in Danish for a Danish member', async () => {
    const dan = await stack.member({
      company: 'list-a',
      email: 'dan@list-a.example',
      name: 'Dan',
      language: 'da',
    });
    const html = (await (await dashboardBrowser(server, dan)).get('/dashboard/cases')).html;
    expect(html).toContain('<html lang="da"');
    expect(html).toContain('Ny sag');
    expect(html).toContain('>Alle<');
    expect(html).toContain('>Ikke registreret<');
    expect(html).toContain(`<td data-label="Oprettet af">Nøgle ${keyName}</td>`);
    expect(html).toContain(
      `<td data-label="Oprettet af"><a href="/dashboard/flows/${FLOW_ID}">Forespørgsel</a></td>`,
    );
    expect(titlesOf(html)).toHaveLength(5);
  });

  it('pages by cursor through many cases, without a gap or a repeat, ties on time included', async () => {
    const pat = await stack.member({ company: 'list-p', email: 'pat@list-p.example' });
    const folder = await new FolderRepository(stack.t.db).defaultFolder('list-p');
    // 130 cases, three to each moment: the id orders the ties.
    const base = Date.parse('2026-06-01T00:00:00Z');
    await stack.t.db
      .insertInto('cases')
      .values(
        Array.from({ length: 130 }, (_, i) => ({
          company_id: 'list-p',
          title: `Paged ${String(i).padStart(3, '0')}`,
          state: i % 2 === 0 ? ('open' as const) : ('draft' as const),
          folder_id: folder.id,
          reference_id: null,
          settings: '{}',
          language: 'en',
          signing_schemas: '["draw"]',
          message_template_id: null,
          expires_at: new Date(base + 90 * 86_400_000),
          active_group: null,
          completed_at: null,
          sealed_at: null,
          next_reminder_at: null,
          expired_at: null,
          sender_id: null,
          sender_name: 'S',
          sender_email: 's@example.com',
          created_by_key: null,
          // Microseconds apart within a millisecond too: the cursor must keep them.
          created_at: new Date(base + Math.floor(i / 3) * 60_000)
            .toISOString()
            .replace('Z', `${i % 3}Z`),
        })),
      )
      .execute();
    const expected = (
      await stack.t.db
        .selectFrom('cases')
        .select('id')
        .where('company_id', '=', 'list-p')
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute()
    ).map((r) => r.id);
    const b = await dashboardBrowser(server, pat);
    const walk = async (start: string) => {
      const seen: string[] = [];
      let path: string | undefined = start;
      let pages = 0;
      while (path) {
        const page = await b.get(path);
        expect(page.status).toBe(200);
        seen.push(...idsOf(page.html));
        if (pages > 0) expect(page.html).toContain('>Newest<');
        path = olderOf(page.html);
        pages++;
        expect(pages).toBeLessThan(10);
      }
      return { seen, pages };
    };
    const all = await walk('/dashboard/cases');
    expect(all.pages).toBe(3);
    expect(all.seen).toEqual(expected);
    const open = await walk('/dashboard/cases?state=open');
    expect(open.pages).toBe(2);
    expect(open.seen).toHaveLength(65);
    expect(new Set(open.seen).size).toBe(65);
    // A cursor that is not one reads as none: the newest page.
    expect(idsOf((await b.get('/dashboard/cases?cursor=bm9uc2Vuc2U')).html)).toEqual(
      expected.slice(0, 50),
    );
    // Another company's member sees none of these.
    expect(titlesOf((await annB.get('/dashboard/cases?q=Paged')).html)).toEqual([]);
  });

  it('searches by one index per field yet lists what the plain OR lists: each case once, in order, its tab kept, paged by cursor', async () => {
    const sam = await stack.member({ company: 'list-s', email: 'sam@list-s.example' });
    const folder = await new FolderRepository(stack.t.db).defaultFolder('list-s');
    const base = Date.parse('2026-07-01T00:00:00Z');
    // 120 cases: every third titled "Needle", every fourth with the reference "NEEDLE-<i>", every
    // fifth with a recipient named "Needle" and every seventh one with a needle e-mail; some match
    // in several ways and must still be listed once. Two recipients each, so a case matched by both
    // of its recipients is a case two rows of recipients name.
    await stack.t.db
      .insertInto('cases')
      .values(
        Array.from({ length: 120 }, (_, i) => ({
          company_id: 'list-s',
          title: i % 3 === 0 ? `Needle case ${i}` : `Plain case ${i}`,
          state: i % 2 === 0 ? ('open' as const) : ('draft' as const),
          folder_id: folder.id,
          reference_id: i % 4 === 0 ? `NEEDLE-${i}` : `ref-${i}`,
          settings: '{}',
          language: 'en',
          signing_schemas: '["draw"]',
          message_template_id: null,
          expires_at: new Date(base + 90 * 86_400_000),
          active_group: null,
          completed_at: null,
          sealed_at: null,
          next_reminder_at: null,
          expired_at: null,
          sender_id: null,
          sender_name: 'S',
          sender_email: 's@example.com',
          created_by_key: null,
          created_at: new Date(base + Math.floor(i / 2) * 60_000),
        })),
      )
      .execute();
    await sql`
      insert into recipients (company_id, case_id, uid, position, name, email, type, signing,
        "group", details, status, signing_token_hash)
      select c.company_id, c.id, substr(md5(c.id::text || p), 1, 12), p,
        case when n % 5 = 0 then 'Needle Person' else 'Other ' || n end,
        case when n % 7 = 0 then 'x' || p || '@needle.example' else 'y' || n || '@plain.example' end,
        'email', true, 0, '{}'::jsonb, 'pending', sha256((c.id::text || p)::bytea)
      from cases c, lateral (select split_part(c.title, ' ', 3)::int) t(n), generate_series(0, 1) p
      where c.company_id = 'list-s'`.execute(stack.t.db);
    await fillCaseSearchText(stack.t.db, 'list-s');
    // What the search lists, written as the plain OR over the case and its recipients.
    const expected = async (state?: 'open') =>
      (
        await sql<{ id: string }>`select c.id from cases c where c.company_id = 'list-s'
          and (${state ?? null}::text is null or c.state = ${state ?? null})
          and (lower(c.title) like '%needle%' or lower(c.reference_id) like '%needle%'
            or exists (select 1 from recipients r where r.company_id = c.company_id
              and r.case_id = c.id and (lower(r.name) like '%needle%' or lower(r.email) like '%needle%')))
          order by c.created_at desc, c.id desc`.execute(stack.t.db)
      ).rows.map((r) => r.id);
    const b = await dashboardBrowser(server, sam);
    const walk = async (start: string) => {
      const seen: string[] = [];
      let path: string | undefined = start;
      for (let pages = 0; path; pages++) {
        expect(pages).toBeLessThan(10);
        const page = await b.get(path);
        expect(page.status).toBe(200);
        seen.push(...idsOf(page.html));
        path = olderOf(page.html);
      }
      return seen;
    };
    const all = await expected();
    // 1 - (2/3 * 3/4 * 4/5 * 6/7) of 120, more than a page: the cursor is crossed.
    expect(all.length).toBeGreaterThan(50);
    expect(await walk('/dashboard/cases?q=NEEDLE')).toEqual(all);
    expect(await walk('/dashboard/cases?state=open&q=needle')).toEqual(await expected('open'));
    // A search for one recipient's address finds its case alone.
    const one = await stack.t.db
      .selectFrom('recipients')
      .select(['case_id', 'email'])
      .where('company_id', '=', 'list-s')
      .where('email', 'like', 'y1%@plain.example')
      .orderBy('email')
      .executeTakeFirstOrThrow();
    expect(await walk(`/dashboard/cases?q=${encodeURIComponent(one.email!)}`)).toEqual([
      one.case_id,
    ]);
  });

  it('is searched from its form by keyboard at 360 px, without script, and passes axe', async () => {
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({
        viewport: { width: 360, height: 800 },
        javaScriptEnabled: false,
      });
      await context.addCookies([{ ...ann.cookie, url: server.url }]);
      const page = await context.newPage();
      await page.goto(`${server.url}/dashboard/cases`);
      await page.getByLabel('Search').fill('kierke');
      await page.getByLabel('Search').press('Enter');
      await page.waitForURL(/q=kierke/);
      expect(titlesOf(await page.content())).toEqual(['Delta sale']);
      const found = page.url();
      await context.close();
      // axe runs its script in the page: a context with script for it, at the same width.
      const withScript = await browser.newContext({ viewport: { width: 360, height: 800 } });
      await withScript.addCookies([{ ...ann.cookie, url: server.url }]);
      const checked = await withScript.newPage();
      await checked.goto(found);
      const { violations } = await new AxeBuilder({ page: checked }).analyze();
      const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(bad.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      expect(
        await checked.evaluate(() => document.documentElement.scrollWidth),
      ).toBeLessThanOrEqual(360);
      await withScript.close();
    } finally {
      await browser.close();
    }
  }, 60_000);
});
