import { Algorithm, hash } from '@node-rs/argon2';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/service/accounts/index.js';
import { startPagesStack, type PagesServer, type PagesStack } from '../helpers/pages-stack.js';

/**
 * Two-factor log-in over a real socket (real PostgreSQL and Redis): turning it on from the
 * security page with codes an authenticator app would compute (otpauth here), the log-in's code
 * page for a session with the second factor due, a wrong code, a replayed one, recovery codes
 * used once, the throttle, and turning it off.
 */
let stack: PagesStack;
let server: PagesServer;

beforeAll(async () => {
  stack = await startPagesStack();
  server = await stack.server();
});
afterAll(() => stack?.close());

const SECURITY = '/dashboard/account/security';

/** A browser: its cookies, and the CSRF token of the last page it read. */
class Browser {
  private cookies = new Map<string, string>();
  token = '';

  constructor(session?: string) {
    if (session) this.cookies.set('docpipe_session', session);
  }

  async get(path: string): Promise<{ status: number; location: string | null; html: string }> {
    const res = await fetch(`${server.url}${path}`, {
      headers: { cookie: this.cookie(), 'accept-language': 'en' },
      redirect: 'manual',
    });
    this.keep(res);
    const html = await res.text();
    this.token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? this.token;
    return { status: res.status, location: res.headers.get('location'), html };
  }

  async post(
    path: string,
    form: Record<string, string> = {},
  ): Promise<{ status: number; location: string | null; html: string }> {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: this.cookie(),
        origin: server.url,
        'accept-language': 'en',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ ...form, _csrf: this.token }).toString(),
    });
    this.keep(res);
    return { status: res.status, location: res.headers.get('location'), html: await res.text() };
  }

  private cookie(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(res: Response): void {
    for (const set of res.headers.getSetCookie()) {
      const [pair = ''] = set.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }
}

const STEP_MS = 30_000;
function codeAt(secret: string, at: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: at,
  });
}

/** Turns two-factor log-in on for a new member; answers the secret and the recovery codes. */
async function turnedOn(email: string) {
  const member = await stack.member({ company: 'tfa', email });
  const browser = new Browser(member.cookie.value);
  const off = await browser.get(SECURITY);
  expect(off.status).toBe(200);
  expect(off.html).toContain('Two-factor log-in is off');
  const started = await browser.post(`${SECURITY}/totp/start`);
  expect(started.status).toBe(303);
  expect(started.location).toBe(`${SECURITY}/totp`);
  const setup = await browser.get(`${SECURITY}/totp`);
  expect(setup.status).toBe(200);
  expect(setup.html).toMatch(
    /<img class="totp-qr" src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+"/,
  );
  const secret = (/id="totp-key">([A-Z2-7 ]+)</.exec(setup.html)?.[1] ?? '').replace(/ /g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  return { member, browser, secret };
}

async function dueSession(loginId: string): Promise<Browser> {
  const { token } = await new SessionStore(stack.t.db).create({ loginId, secondFactorDue: true });
  const browser = new Browser(token);
  // The code page gives the browser its CSRF cookie and token, as a log-in's redirect would.
  expect((await browser.get('/user/login/code')).status).toBe(200);
  return browser;
}

describe('two-factor log-in', () => {
  it('is turned on with a first code, keeps the secret encrypted, and shows ten recovery codes once', async () => {
    const { member, browser, secret } = await turnedOn('ann@tfa.example');
    const wrong = await browser.post(`${SECURITY}/totp`, { code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain('That code is not right');
    expect(wrong.html).toContain('aria-invalid="true"');
    const on = await browser.post(`${SECURITY}/totp`, { code: codeAt(secret, Date.now()) });
    expect(on.status).toBe(200);
    const codes = [...on.html.matchAll(/<li>([a-z2-9]{5}-[a-z2-9]{5})<\/li>/g)].map((m) => m[1]);
    expect(codes).toHaveLength(10);
    const row = await stack.t.db
      .selectFrom('logins')
      .select(['totp_secret', 'totp_enabled_at'])
      .where('id', '=', member.loginId)
      .executeTakeFirstOrThrow();
    expect(row.totp_enabled_at).not.toBeNull();
    expect(row.totp_secret).toMatch(/^v1\./);
    expect(row.totp_secret).not.toContain(secret);
    const stored = await stack.t.db
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('login_id', '=', member.loginId)
      .execute();
    expect(stored).toHaveLength(10);
    for (const code of codes) expect(JSON.stringify(stored)).not.toContain(code);
    const page = await browser.get(SECURITY);
    expect(page.html).toContain('Two-factor log-in is on since');
    expect(page.html).toContain('Recovery codes left: 10 of 10.');
    // Shown once: the set-up page is gone, and nothing shows the codes again.
    expect((await browser.get(`${SECURITY}/totp`)).location).toBe(SECURITY);
    for (const code of codes) expect(page.html).not.toContain(code);
  });

  it('asks a session with the second factor due for the code; a wrong or replayed one is refused, the right one opens the dashboard', async () => {
    const { member, browser, secret } = await turnedOn('bo@tfa.example');
    const confirmedAt = Date.now();
    expect(
      (await browser.post(`${SECURITY}/totp`, { code: codeAt(secret, confirmedAt) })).status,
    ).toBe(200);

    const due = await dueSession(member.loginId);
    const dashboard = await due.get(SECURITY);
    expect(dashboard.status).toBe(303);
    expect(dashboard.location).toBe('/user/login/code');
    const form = await due.get('/user/login/code');
    expect(form.status).toBe(200);
    expect(form.html).toContain('<label for="field-code">Code</label>');

    const wrong = await due.post('/user/login/code', {
      code: '123456' === codeAt(secret, Date.now()) ? '654321' : '123456',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain('That code is not right');
    expect(wrong.html).toContain('id="field-code-error"');
    expect((await due.get(SECURITY)).location).toBe('/user/login/code');

    // The code that turned it on was used: within its window it opens nothing.
    const replayed = await due.post('/user/login/code', { code: codeAt(secret, confirmedAt) });
    expect(replayed.status).toBe(400);
    expect(replayed.html).toContain('That code has been used');

    // The next step's code is within the window (one step ahead) and unused.
    const right = await due.post('/user/login/code', {
      code: codeAt(secret, confirmedAt + STEP_MS),
    });
    expect(right.status).toBe(303);
    expect(right.location).toBe('/dashboard');
    expect((await due.get(SECURITY)).status).toBe(200);
    // And once more in another session: the same code again is a replay.
    const again = await (
      await dueSession(member.loginId)
    ).post('/user/login/code', {
      code: codeAt(secret, confirmedAt + STEP_MS),
    });
    expect(again.status).toBe(400);
  });

  it('takes each recovery code once, and new codes replace the old ones', async () => {
    const { member, browser, secret } = await turnedOn('cy@tfa.example');
    const on = await browser.post(`${SECURITY}/totp`, { code: codeAt(secret, Date.now()) });
    const codes = [...on.html.matchAll(/<li>([a-z2-9]{5}-[a-z2-9]{5})<\/li>/g)].map((m) => m[1]!);
    const first = await dueSession(member.loginId);
    const used = await first.post('/user/login/code', { code: codes[0]!.toUpperCase() });
    expect(used.status).toBe(303);
    expect(used.location).toBe(`${SECURITY}?done=recovery`);
    const after = await first.get(used.location!);
    expect(after.html).toContain('You logged in with a recovery code; 9 are left.');
    const second = await dueSession(member.loginId);
    const reused = await second.post('/user/login/code', { code: codes[0]! });
    expect(reused.status).toBe(400);
    expect((await second.post('/user/login/code', { code: codes[1]! })).status).toBe(303);

    await browser.get(SECURITY);
    const renewed = await browser.post(`${SECURITY}/recovery-codes`);
    expect(renewed.status).toBe(200);
    const fresh = [...renewed.html.matchAll(/<li>([a-z2-9]{5}-[a-z2-9]{5})<\/li>/g)].map(
      (m) => m[1]!,
    );
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(codes[2]);
    const third = await dueSession(member.loginId);
    expect((await third.post('/user/login/code', { code: codes[2]! })).status).toBe(400);
    expect((await third.post('/user/login/code', { code: fresh[0]! })).status).toBe(303);
  });

  it('throttles wrong codes per login, whatever the session, and sends a session without the factor due on', async () => {
    const { member, browser, secret } = await turnedOn('dy@tfa.example');
    await browser.post(`${SECURITY}/totp`, { code: codeAt(secret, Date.now()) });
    const answers: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const session = await dueSession(member.loginId);
      answers.push((await session.post('/user/login/code', { code: 'zzzzz-zzzzz' })).status);
    }
    expect(answers).toEqual([400, 400, 400, 400, 400, 429]);
    // Past the allowance even a right code waits: the answer tells a guesser nothing.
    const late = await dueSession(member.loginId);
    const right = await late.post('/user/login/code', {
      code: codeAt(secret, Date.now() + STEP_MS),
    });
    expect(right.status).toBe(429);
    expect(Number(right.html.length)).toBeGreaterThan(0);

    expect((await browser.get('/user/login/code')).location).toBe('/dashboard');
    expect((await new Browser().get('/user/login/code')).location).toBe('/user/login');
  });

  it('is turned off with the password (not with a wrong one), and the recovery codes go with it', async () => {
    const { member, browser, secret } = await turnedOn('ed@tfa.example');
    await browser.post(`${SECURITY}/totp`, { code: codeAt(secret, Date.now()) });
    // A cheap argon2id hash: the check reads its parameters from the PHC string.
    const passwordHash = await hash('correct horse battery', {
      algorithm: Algorithm.Argon2id,
      memoryCost: 1024,
      timeCost: 1,
    });
    await stack.t.db
      .updateTable('logins')
      .set({ password_hash: passwordHash })
      .where('id', '=', member.loginId)
      .execute();
    await browser.get(SECURITY);
    const wrong = await browser.post(`${SECURITY}/totp/off`, { proof: 'not the password' });
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain('That is neither a current code from your app nor your password.');
    const off = await browser.post(`${SECURITY}/totp/off`, { proof: 'correct horse battery' });
    expect(off.status).toBe(303);
    expect(off.location).toBe(`${SECURITY}?done=off`);
    expect((await browser.get(off.location!)).html).toContain('Two-factor log-in is off.');
    const row = await stack.t.db
      .selectFrom('logins')
      .select(['totp_secret', 'totp_enabled_at'])
      .where('id', '=', member.loginId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ totp_secret: null, totp_enabled_at: null });
    const left = await stack.t.db
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('login_id', '=', member.loginId)
      .execute();
    expect(left).toHaveLength(0);
  });

  it('refuses codes, and takes recovery codes, when the secret no longer decrypts', async () => {
    const { member, browser, secret } = await turnedOn('gu@tfa.example');
    const on = await browser.post(`${SECURITY}/totp`, { code: codeAt(secret, Date.now()) });
    const codes = [...on.html.matchAll(/<li>([a-z2-9]{5}-[a-z2-9]{5})<\/li>/g)].map((m) => m[1]!);
    // As after a change of the signing secret: the stored value is another key's.
    await stack.t.db
      .updateTable('logins')
      .set({ totp_secret: `v1.${Buffer.alloc(40, 7).toString('base64url')}` })
      .where('id', '=', member.loginId)
      .execute();
    const due = await dueSession(member.loginId);
    const code = await due.post('/user/login/code', { code: codeAt(secret, Date.now() + STEP_MS) });
    expect(code.status).toBe(400);
    expect((await due.post('/user/login/code', { code: codes[0]! })).status).toBe(303);
  });

  it('answers the security page in Danish too', async () => {
    const member = await stack.member({ company: 'tfa', email: 'fi@tfa.example', language: 'da' });
    const res = await fetch(`${server.url}${SECURITY}`, {
      headers: { cookie: `docpipe_session=${member.cookie.value}` },
    });
    const html = await res.text();
    expect(html).toContain('<h1>Sikkerhed</h1>');
    expect(html).toContain('Slå totrinslogin til');
  });
});
