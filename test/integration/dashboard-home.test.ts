import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/base/paths/index.js';
import { dashboardBrowser } from '../helpers/dashboard-forms.js';
import { startPagesStack, type PagesServer, type PagesStack } from '../helpers/pages-stack.js';

/**
 * The dashboard's home over a real socket: the company, the getting-started card's command
 * for this server, the notice of an unconfirmed address, and the company's own recent cases
 * (made over v3, as a client makes them).
 */
let stack: PagesStack;
let server: PagesServer;

beforeAll(async () => {
  stack = await startPagesStack();
  server = await stack.server();
});
afterAll(() => stack?.close());

/** A draft case over v3 whose document is another host's URL: nothing to render. */
async function createCase(key: string, title: string): Promise<string> {
  const res = await fetch(`${server.url}/v3/api/cases`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      title,
      state: 'draft',
      recipients: [
        { name: 'Mette', email: 'mette@example.com' },
        { name: 'Copy', email: 'copy@example.com', signing: false },
      ],
      documents: [{ name: 'Contract', url: 'https://files.example.com/contract.pdf' }],
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { case: { id: string } }).case.id;
}

/** The getting-started command's arguments, as the shell reads the page's text. */
function commandArgs(html: string): string[] {
  const command = /<pre id="first-case-command"[^>]*>([^<]*)<\/pre>/.exec(html)?.[1] ?? '';
  const text = command
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  // The shell reads it as written: curl, here a function, gets each argument intact.
  return execFileSync(
    'sh',
    ['-c', `curl() { printf '%s\\0' "$@"; }\nDOCPIPE_KEY=dp_live_x\n${text}`],
    { encoding: 'utf8' },
  ).split('\0');
}

interface SampleBody {
  title: string;
  tags: { tag: string; value: unknown }[];
}

function sampleBody(html: string): SampleBody {
  const args = commandArgs(html);
  return JSON.parse(args[args.indexOf('-d') + 1]!) as SampleBody;
}

describe('the home page', () => {
  it('lists the 10 most recent cases of its own company only, newest first', async () => {
    const ann = await stack.member({ company: 'home-a', email: 'ann@home-a.example', admin: true });
    await stack.member({ company: 'home-b', email: 'bob@home-b.example', admin: true });
    const keyA = await stack.keys.create({
      company: 'home-a',
      user: 'ann@home-a.example',
      name: 'a',
    });
    const keyB = await stack.keys.create({
      company: 'home-b',
      user: 'bob@home-b.example',
      name: 'b',
    });
    for (let i = 1; i <= 12; i++) await createCase(keyA.key, `Case A${String(i).padStart(2, '0')}`);
    await createCase(keyB.key, 'Case of B');

    const b = await dashboardBrowser(server, ann);
    const home = await b.get('/dashboard');
    expect(home.status).toBe(200);
    // Each title leads to its case's page, as on the case list.
    const titles = [
      ...home.html.matchAll(
        /<td data-label="Title"><a href="\/dashboard\/cases\/[0-9a-f-]{36}">(Case [^<]+)<\/a><\/td>/g,
      ),
    ].map((m) => m[1]);
    expect(titles).toEqual([
      'Case A12',
      'Case A11',
      'Case A10',
      'Case A09',
      'Case A08',
      'Case A07',
      'Case A06',
      'Case A05',
      'Case A04',
      'Case A03',
    ]);
    expect(home.html).not.toContain('Case of B');
    // One signer of the two recipients, none signed yet; a draft.
    expect(home.html).toContain('<td data-label="Signed">0 of 1</td>');
    expect(home.html).toContain('>Draft<');
    expect(home.html).toContain('href="/dashboard/cases"');

    const cases = await b.get('/dashboard/cases');
    expect(cases.status).toBe(200);
    // The case list links each case to its page (dashboard-cases-list.test.ts tests it fully).
    expect([...cases.html.matchAll(/">(Case A[^<]+)<\/a><\/td>/g)]).toHaveLength(12);
    expect(cases.html).not.toContain('Case of B');
  });

  it('shows the company, and a first-case command for this server with the key as a variable', async () => {
    const cy = await stack.member({ company: 'home-c', email: 'cy@home-c.example' });
    const home = await (await dashboardBrowser(server, cy)).get('/dashboard');
    expect(home.html).toContain('<code>home-c</code>');
    expect(home.html).toContain('Company home-c');
    const args = commandArgs(home.html);
    expect(args.slice(0, 4)).toEqual([
      '-s',
      '-X',
      'POST',
      `${server.url}/v3/api/documents/welcome-letter/cases`,
    ]);
    expect(args).toContain('Authorization: Bearer dp_live_x');
    const body = JSON.parse(args[args.indexOf('-d') + 1]!) as {
      recipients: unknown[];
      tags: { tag: string; type: string }[];
    };
    expect(body.recipients).toEqual([{ name: 'cy', email: 'cy@home-c.example' }]);
    // The library's welcome letter takes exactly its fixture's tags (it is filled strictly).
    const fixture = JSON.parse(
      readFileSync(
        join(projectRoot(), 'templates/welcome-letter/fixtures/remote.tags.json'),
        'utf8',
      ),
    ) as { tag: string; type: string }[];
    expect(body.tags.map((t) => `${t.tag}:${t.type}`).sort()).toEqual(
      fixture.map((t) => `${t.tag}:${t.type}`).sort(),
    );
    // A member (not an admin) is told to ask an admin for the key.
    expect(home.html).toContain('Only an admin can create API keys');
    const main = home.html.slice(home.html.indexOf('<main'));
    expect(main).not.toContain('href="/dashboard/keys"');
    expect(main).not.toContain('href="/dashboard/webhooks"');
  });

  it('words the first case in the page’s language, and points to the API description this server serves', async () => {
    const dan = await stack.member({
      company: 'home-e',
      email: 'dan@home-e.example',
      language: 'da',
    });
    const eve = await stack.member({
      company: 'home-f',
      email: 'eve@home-f.example',
      language: 'en',
    });
    const danish = await (await dashboardBrowser(server, dan)).get('/dashboard');
    const english = await (await dashboardBrowser(server, eve)).get('/dashboard');
    expect(danish.html).toContain('<html lang="da"');
    expect(english.html).toContain('<html lang="en"');
    const value = (body: SampleBody, tag: string) => body.tags.find((t) => t.tag === tag)?.value;
    const da = sampleBody(danish.html);
    expect(da.title).toBe('Min første sag');
    expect(value(da, 'city')).toBe('København');
    expect(value(da, 'address')).toBe('Hovedgaden 1, 1000 København K');
    const en = sampleBody(english.html);
    expect(en.title).toBe('My first case');
    expect(value(en, 'city')).toBe('Copenhagen');
    expect(value(en, 'address')).toBe('1 Main St, Springfield');

    // No file of the repository a dashboard user cannot open: the served OpenAPI document.
    for (const home of [danish, english]) {
      expect(home.html).not.toContain('docs/cases.md');
      expect(home.html).toContain('<a href="/openapi.json"><code>/openapi.json</code></a>');
    }
    const openapi = await fetch(`${server.url}/openapi.json`);
    expect(openapi.status).toBe(200);
    const paths = ((await openapi.json()) as { paths: Record<string, unknown> }).paths;
    expect(Object.keys(paths)).toContain('/v3/api/documents/{id}/cases');
  });

  it('asks a login whose address is not confirmed to confirm it, with the way to a new link', async () => {
    const dee = await stack.member({ company: 'home-d', email: 'dee@home-d.example', admin: true });
    const b = await dashboardBrowser(server, dee);
    expect((await b.get('/dashboard')).html).not.toContain('/user/confirm/resend');
    await stack.t.db
      .updateTable('logins')
      .set({ email_confirmed_at: null })
      .where('id', '=', dee.loginId)
      .execute();
    const home = await b.get('/dashboard');
    expect(home.html).toContain('Your e-mail address dee@home-d.example is not confirmed yet.');
    expect(home.html).toContain('href="/user/confirm/resend"');
  });

  it('sends a visitor without a session to the log-in page', async () => {
    const res = await fetch(`${server.url}/dashboard`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/user/login?next=%2Fdashboard');
  });
});
