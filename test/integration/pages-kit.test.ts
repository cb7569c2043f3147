import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPagesStack, type PagesServer, type PagesStack } from '../helpers/pages-stack.js';

/**
 * What every page shares, over a real socket: the headers (a CSP without inline script), the
 * assets served compressed by docpipe itself, the CSRF cookie and token, the Origin check and
 * the language switch.
 */
let stack: PagesStack;
let server: PagesServer;

beforeAll(async () => {
  stack = await startPagesStack();
  server = await stack.server();
});
afterAll(() => stack?.close());

/** The `docpipe_csrf` cookie and the token of the page a GET answered. */
async function formOf(
  path: string,
  cookie = '',
): Promise<{ cookie: string; token: string; html: string }> {
  const res = await fetch(`${server.url}${path}`, { headers: { cookie }, redirect: 'manual' });
  const set = res.headers.getSetCookie().find((c) => c.startsWith('docpipe_csrf='));
  const html = await res.text();
  const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  return { cookie: set ? set.split(';')[0]! : cookie, token, html };
}

describe('pages', () => {
  it('answers / with the way to the log-in page, and the CSRF cookie HttpOnly and SameSite=Lax', async () => {
    const res = await fetch(`${server.url}/`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/user/login');
    const csrf = res.headers.getSetCookie().find((c) => c.startsWith('docpipe_csrf='));
    expect(csrf).toMatch(/HttpOnly/i);
    expect(csrf).toMatch(/SameSite=Lax/i);
  });

  it('serves its assets from docpipe, compressed, under a versioned URL cached for a year', async () => {
    const page = await stack.member({ company: 'kit', email: 'ann@kit.example', admin: true });
    const { html } = await formOf('/dashboard/not-a-page', `docpipe_session=${page.cookie.value}`);
    const urls = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(urls.map((u) => u.split('?')[0])).toEqual(
      expect.arrayContaining(['/assets/app.css', '/assets/htmx.js', '/assets/app.js']),
    );
    let compressed = 0;
    for (const url of urls) {
      const res = await fetch(`${server.url}${url}`, {
        headers: { 'accept-encoding': 'br, gzip' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe('br');
      expect(res.headers.get('cache-control')).toContain('immutable');
      compressed += Number(
        res.headers.get('content-length') ?? (await res.arrayBuffer()).byteLength,
      );
    }
    expect(compressed).toBeGreaterThan(0);
    expect(compressed).toBeLessThan(100 * 1024);
  });

  it('sends a CSP without inline script, and renders text escaped', async () => {
    const res = await fetch(`${server.url}/dashboard/%3Cscript%3Ealert(1)%3C%2Fscript%3E`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(await res.text()).not.toContain('<script>alert(1)');
  });

  it('refuses a form without the CSRF token, or from another origin, and takes the right one', async () => {
    const { cookie, token } = await formOf('/user/login');
    expect(token).not.toBe('');
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/language`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, ...headers },
        body,
      });
    expect((await post('lang=en&back=/user/login')).status).toBe(403);
    expect((await post(`lang=en&_csrf=${token}x`)).status).toBe(403);
    const crossSite = await post(`lang=en&_csrf=${token}`, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.text()).toContain('Formularen var for gammel');
    const ok = await post(`lang=en&back=/user/login&_csrf=${token}`, { origin: server.url });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/user/login');
    expect(ok.headers.getSetCookie().join()).toContain('docpipe_lang=en');
    // Never off this server, whatever `back` says.
    const away = await post(`lang=da&back=//evil.example/x&_csrf=${token}`, { origin: server.url });
    expect(away.headers.get('location')).toBe('/');
  });

  it('speaks the browser language, then Danish; the switch and the account override it', async () => {
    const page = await stack.member({ company: 'kit', email: 'bo@kit.example' });
    const session = `docpipe_session=${page.cookie.value}`;
    const lang = async (headers: Record<string, string>) =>
      /<html lang="(\w+)"/.exec(
        await (await fetch(`${server.url}/dashboard/none`, { headers })).text(),
      )?.[1];
    expect(await lang({ cookie: session })).toBe('da');
    expect(await lang({ cookie: session, 'accept-language': 'en-GB,en;q=0.9' })).toBe('en');
    expect(await lang({ cookie: session, 'accept-language': 'de, da;q=0.5, en;q=0.4' })).toBe('da');
    expect(await lang({ cookie: `${session}; docpipe_lang=en` })).toBe('en');
    await stack.t.db
      .updateTable('logins')
      .set({ language: 'da' })
      .where('id', '=', page.loginId)
      .execute();
    expect(await lang({ cookie: `${session}; docpipe_lang=en`, 'accept-language': 'en' })).toBe(
      'da',
    );
  });

  it('shows the test environment banner on dashboard and signing pages there, and only there', async () => {
    const test = await stack.server({ DOCPIPE_ENVIRONMENT: 'test' });
    const member = await stack.member({ company: 'kit', email: 'cy@kit.example' });
    const headers = { cookie: `docpipe_session=${member.cookie.value}`, 'accept-language': 'en' };
    const banner = 'Test environment: signatures have no legal effect';
    const dashboard = await (await fetch(`${test.url}/dashboard/none`, { headers })).text();
    expect(dashboard).toContain(banner);
    const signing = await fetch(`${test.url}/sign/${'x'.repeat(43)}`, { headers });
    expect(signing.headers.get('content-type')).toContain('text/html');
    expect(await signing.text()).toContain(banner);
    const production = await (await fetch(`${server.url}/dashboard/none`, { headers })).text();
    expect(production).not.toContain(banner);
    const productionSigning = await (
      await fetch(`${server.url}/sign/${'x'.repeat(43)}`, { headers })
    ).text();
    expect(productionSigning).not.toContain('test-banner');
  });
});
