import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.js';
import { startPagesStack, type PagesServer, type PagesStack } from '../helpers/pages-stack.js';

/**
 * Single sign-on against a real OpenID Connect provider (oidc-provider, started here on
 * loopback): an address of the configured domain is sent to the provider with PKCE, state and
 * nonce, and comes back logged in as a member of the configured company; an address the provider
 * did not verify, one of another domain, a callback in another browser and a replayed one log
 * no one in.
 */
let stack: PagesStack;
let server: PagesServer;
let op: TestOidcProvider;

const CALLBACK = '/user/login/sso/callback';

beforeAll(async () => {
  stack = await startPagesStack();
  // The provider's issuer (its port) goes into docpipe's configuration, and docpipe's URL into
  // the provider's redirect URIs: the port is reserved first, and docpipe discovers on first use.
  const port = await freePort();
  server = await stack.server({
    DOCPIPE_LOGIN_OIDC_ACME_ISSUER: `http://127.0.0.1:${port}`,
    DOCPIPE_LOGIN_OIDC_ACME_CLIENT_ID: 'pending',
    DOCPIPE_LOGIN_OIDC_ACME_DOMAINS: 'acme.example, acme.dk',
    DOCPIPE_LOGIN_OIDC_ACME_COMPANY: 'acme',
  });
  op = await startOidcProvider({
    port,
    redirectUris: [`${server.url}${CALLBACK}`],
    accounts: {
      ann: { email: 'Ann@acme.example', email_verified: true, name: 'Ann Andersen' },
      bo: { email: 'bo@acme.dk', email_verified: false, name: 'Bo' },
      cy: { email: 'cy@elsewhere.example', email_verified: true, name: 'Cy' },
    },
    scopes: { email: ['email', 'email_verified'], profile: ['name'] },
  });
  // The provider made its client id and secret on start: the server was configured before.
  const provider = server.config.dashboard.loginOidc.providers[0]!;
  provider.clientId = op.clientId;
  provider.clientSecret = op.clientSecret;
  await stack.member({ company: 'acme', email: 'admin@acme.example', admin: true });
});
afterAll(async () => {
  await op?.close();
  await stack?.close();
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A browser's cookie jar over fetch, following nothing by itself. */
class Browser {
  private cookies = new Map<string, string>();

  async get(url: string): Promise<{ status: number; location: string; html: string }> {
    const res = await fetch(new URL(url, server.url), {
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'accept-language': 'en',
      },
      redirect: 'manual',
    });
    for (const set of res.headers.getSetCookie()) {
      const [pair = ''] = set.split(';');
      const eq = pair.indexOf('=');
      const value = pair.slice(eq + 1);
      if (value === '' || /Max-Age=0/i.test(set)) this.cookies.delete(pair.slice(0, eq));
      else this.cookies.set(pair.slice(0, eq), value);
    }
    return {
      status: res.status,
      location: res.headers.get('location') ?? '',
      html: await res.text(),
    };
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }
}

/** Starts the SSO log-in of `email` in `browser`; answers the provider's authorization URL. */
async function started(browser: Browser, email: string): Promise<URL> {
  const start = await browser.get(`/user/login/sso?email=${encodeURIComponent(email)}`);
  expect(start.status).toBe(200);
  // A page that moves on by itself (meta refresh) with a link to the same place.
  const refresh = /<meta http-equiv="refresh" content="0;url=([^"]+)"/.exec(start.html)?.[1] ?? '';
  const link = /<a class="button" href="([^"]+)" rel="noreferrer">/.exec(start.html)?.[1];
  expect(link).toBe(refresh);
  const location = refresh.replace(/&amp;/g, '&');
  const url = new URL(location);
  expect(url.origin).toBe(op.issuer);
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  expect(url.searchParams.get('redirect_uri')).toBe(`${server.url}${CALLBACK}`);
  expect(url.searchParams.get('login_hint')).toBe(email);
  for (const p of ['state', 'nonce', 'code_challenge'])
    expect(url.searchParams.get(p)).toBeTruthy();
  expect(browser.has('docpipe_sso_browser')).toBe(true);
  return url;
}

const loginOf = (email: string) =>
  stack.t.db
    .selectFrom('logins')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();

describe('single sign-on', () => {
  it('logs an address of the domain in through the provider, as a new member of its company', async () => {
    const browser = new Browser();
    const callback = await op.login((await started(browser, 'ann@acme.example')).href, {
      account: 'ann',
    });
    expect(callback.pathname).toBe(CALLBACK);
    const back = await browser.get(`${callback.pathname}${callback.search}`);
    expect(back.status).toBe(303);
    expect(back.location).toBe('/dashboard');
    expect(browser.has('docpipe_session')).toBe(true);
    expect(browser.has('docpipe_sso_browser')).toBe(false);
    const security = await browser.get('/dashboard/account/security');
    expect(security.status).toBe(200);
    expect(security.html).toContain('Ann Andersen');

    const login = await loginOf('ann@acme.example');
    expect(login?.password_hash).toBeNull();
    expect(login?.email_confirmed_at).not.toBeNull();
    const members = await stack.t.db
      .selectFrom('users')
      .select(['company_id', 'admin', 'login_id'])
      .where('login_id', '=', login!.id)
      .execute();
    expect(members).toEqual([{ company_id: 'acme', admin: false, login_id: login!.id }]);

    // A second log-in finds the same login and membership.
    const again = new Browser();
    const second = await op.login((await started(again, 'ANN@acme.example')).href, {
      account: 'ann',
    });
    expect((await again.get(`${second.pathname}${second.search}`)).location).toBe('/dashboard');
    const count = await stack.t.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('login_id', '=', login!.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('refuses an address the provider did not verify, and one outside the domains', async () => {
    const unverified = new Browser();
    const bo = await op.login((await started(unverified, 'bo@acme.dk')).href, { account: 'bo' });
    const refused = await unverified.get(`${bo.pathname}${bo.search}`);
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('did not confirm your e-mail address');
    expect(unverified.has('docpipe_session')).toBe(false);
    expect(await loginOf('bo@acme.dk')).toBeUndefined();

    const foreign = new Browser();
    const cy = await op.login((await started(foreign, 'cy@acme.example')).href, { account: 'cy' });
    const outside = await foreign.get(`${cy.pathname}${cy.search}`);
    expect(outside.status).toBe(400);
    expect(outside.html).toContain('an address outside acme.example, acme.dk');
    expect(foreign.has('docpipe_session')).toBe(false);
    expect(await loginOf('cy@elsewhere.example')).toBeUndefined();
  });

  it('logs in only the browser that started it, once; a cancel and an unknown domain say so', async () => {
    const starter = new Browser();
    const callback = await op.login((await started(starter, 'ann@acme.example')).href, {
      account: 'ann',
    });
    const other = new Browser();
    const elsewhere = await other.get(`${callback.pathname}${callback.search}`);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.html).toContain('did not belong to this browser');
    expect(other.has('docpipe_session')).toBe(false);
    // Taken by the first callback: the starter's own browser finds nothing now either.
    const replay = await starter.get(`${callback.pathname}${callback.search}`);
    expect(replay.status).toBe(400);
    expect(starter.has('docpipe_session')).toBe(false);

    const cancelling = new Browser();
    const cancelled = await op.cancel((await started(cancelling, 'ann@acme.example')).href);
    const answer = await cancelling.get(`${cancelled.pathname}${cancelled.search}`);
    expect(answer.status).toBe(400);
    expect(answer.html).toContain('The log-in was cancelled.');

    const none = await new Browser().get('/user/login/sso?email=dy%40nowhere.example');
    expect(none.status).toBe(404);
    expect(none.html).toContain('does not log in with single sign-on here');
  });

  it('asks for the code afterwards when the login has two-factor log-in on', async () => {
    const login = await loginOf('ann@acme.example');
    await stack.t.db
      .updateTable('logins')
      .set({ totp_enabled_at: new Date(), totp_secret: 'v1.unused' })
      .where('id', '=', login!.id)
      .execute();
    const browser = new Browser();
    const callback = await op.login((await started(browser, 'ann@acme.example')).href, {
      account: 'ann',
    });
    const back = await browser.get(`${callback.pathname}${callback.search}`);
    expect(back.location).toBe('/user/login/code');
    expect((await browser.get('/dashboard/account/security')).location).toBe('/user/login/code');
  });
});
