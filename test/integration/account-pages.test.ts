import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginLinks } from '../../src/service/accounts/index.js';
import { startPagesStack, type PagesServer, type PagesStack } from '../helpers/pages-stack.js';
import { PageClient, lastMailTo, mails, mailsWhen, pathOf, type Mail } from './account-client.js';

/**
 * The account pages over a real socket, against PostgreSQL, Redis and the .eml mail folder:
 * sign-up, the address's confirmation from the e-mail, log-in and log-out, the same answer for
 * an unknown address and a wrong password, the throttles, reset links, invitations.
 */
let stack: PagesStack;
let server: PagesServer;
let mailDir: string;

beforeAll(async () => {
  stack = await startPagesStack();
  // Every browser here is 127.0.0.1: sign-ups are counted in a test of their own.
  server = await stack.server({ DOCPIPE_SIGNUPS_PER_HOUR: '1000' });
  mailDir = join(stack.redis.dir, 'mail');
});
afterAll(() => stack?.close());

const PASSWORD = 'tangerine-orbit-41';

/** An account e-mail's file name: its time (sortable), what it is, a random part (unique). */
const EML_NAME = (what: string) =>
  new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d\\.\\d{3}Z_${what}_[0-9a-f]{8}\\.eml$`);

function signUpFields(email: string, company = 'Brødrene Hansen A/S') {
  return { companyName: company, cvr: '24256790', name: 'Ann Berg', email, password: PASSWORD };
}

async function signUp(email: string, company?: string): Promise<PageClient> {
  const browser = new PageClient(server.url);
  await browser.get('/en/user/register');
  const answer = await browser.post('/en/user/register', signUpFields(email, company));
  expect(answer.status).toBe(200);
  expect(answer.html).toContain('Check your e-mail');
  return browser;
}

async function logIn(browser: PageClient, email: string, password = PASSWORD) {
  await browser.get('/user/login');
  return browser.post('/user/login', { email, password });
}

describe('sign-up', () => {
  it('shows the fields by their names, and keeps ref in a hidden field', async () => {
    const browser = new PageClient(server.url);
    const page = await browser.get('/en/user/register?ref=partner-1');
    expect(page.status).toBe(200);
    for (const label of ['Company name', 'CVR number', 'Your name', 'E-mail', 'Password'])
      expect(page.html).toContain(`>${label}</label>`);
    expect(page.html).toContain('>Create account</button>');
    expect(page.html).toContain('name="ref" value="partner-1"');
    const danish = await browser.get('/da/user/register');
    expect(danish.html).toContain('>Virksomhedens navn</label>');
    expect(danish.html).toContain('>Opret konto</button>');
  });

  it('serves log-in and a forgotten password under a locale prefix too, in its language', async () => {
    const browser = new PageClient(server.url);
    for (const [path, lang] of [
      ['/da/user/login', 'da'],
      ['/en/user/login', 'en'],
      ['/da/user/password/forgot', 'da'],
      ['/en/user/password/forgot', 'en'],
    ] as const) {
      const page = await browser.get(path);
      expect(page.status, path).toBe(200);
      expect(page.html, path).toContain(`<html lang="${lang}"`);
    }
  });

  it('lists every problem at once, next to its field and in the summary', async () => {
    const browser = new PageClient(server.url);
    await browser.get('/en/user/register');
    const answer = await browser.post('/en/user/register', {
      companyName: '',
      cvr: '24256791',
      name: '',
      email: 'not-an-address',
      password: 'qwertyuiop',
    });
    expect(answer.status).toBe(400);
    for (const [field, text] of [
      ['companyName', 'Enter the company name'],
      ['cvr', 'This is not a valid CVR number'],
      ['name', 'Enter your name'],
      ['email', 'Enter an e-mail address'],
      ['password', 'This password is too common'],
    ]) {
      expect(answer.html).toContain(`href="#field-${field}">${text}`);
      expect(answer.html).toMatch(new RegExp(`id="field-${field}-error">${text}`));
    }
    expect(
      await stack.t.db.selectFrom('companies').select('id').where('name', '=', '').execute(),
    ).toEqual([]);
  });

  it('makes the company, its admin and login, confirms the address from the e-mail, then logs in and out', async () => {
    const email = 'ann@hansen.example';
    const browser = await signUp(email);
    const company = await stack.t.db
      .selectFrom('companies')
      .selectAll()
      .where('name', '=', 'Brødrene Hansen A/S')
      .executeTakeFirstOrThrow();
    expect(company).toMatchObject({
      id: 'broedrene-hansen-a-s',
      cvr: '24256790',
      created_by_signup: true,
    });
    const user = await stack.t.db
      .selectFrom('users')
      .selectAll()
      .where('company_id', '=', company.id)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ email, admin: true, name: 'Ann Berg' });
    const login = await stack.t.db
      .selectFrom('logins')
      .selectAll()
      .where('id', '=', user.login_id!)
      .executeTakeFirstOrThrow();
    expect(login.email_confirmed_at).toBeNull();
    expect(login.password_hash).toMatch(/^\$argon2id\$/);

    const { mail, link } = await lastMailTo(mailDir, email, '/user/confirm/');
    expect(mail.subject).toBe('Confirm your e-mail address for docpipe');
    // Named for what it is, as its reader says it (no case's id, no case message's kind).
    expect(basename(mail.file)).toMatch(EML_NAME('confirm-email'));
    const confirmed = await browser.get(pathOf(link));
    expect(confirmed.status).toBe(200);
    expect(confirmed.html).toContain('Your e-mail address is confirmed');
    const again = await browser.get(pathOf(link));
    expect(again.status).toBe(410);
    expect(again.html).toContain('This link has been used');
    expect(again.html).toContain('Get a new confirmation e-mail');
    const after = await stack.t.db
      .selectFrom('logins')
      .select('email_confirmed_at')
      .where('id', '=', login.id)
      .executeTakeFirstOrThrow();
    expect(after.email_confirmed_at).not.toBeNull();

    const seed = browser.cookies.get('docpipe_csrf');
    const loggedIn = await logIn(browser, 'ANN@hansen.example');
    expect(loggedIn.status).toBe(303);
    expect(loggedIn.location).toBe('/dashboard');
    expect(browser.cookies.get('docpipe_session')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(browser.cookies.get('docpipe_csrf')).not.toBe(seed);
    const dashboard = await browser.get('/dashboard/account');
    expect(dashboard.status).toBe(200);
    expect(dashboard.html).toContain('Ann Berg');

    const out = await browser.post('/user/logout', {});
    expect(out.status).toBe(303);
    expect(browser.cookies.has('docpipe_session')).toBe(false);
    const sessions = await stack.t.db
      .selectFrom('login_sessions')
      .select('id')
      .where('login_id', '=', login.id)
      .execute();
    expect(sessions).toEqual([]);
    expect((await browser.get('/dashboard/account')).location).toMatch(/^\/user\/login\?next=/);
  });

  it('answers a taken address as a new one, makes nothing, and tells the address by e-mail', async () => {
    const email = 'bo@taken.example';
    await signUp(email, 'Taken ApS');
    const before = await stack.t.db.selectFrom('companies').select('id').execute();
    const browser = await signUp('BO@taken.example', 'Another Taken ApS');
    expect(browser).toBeDefined();
    const afterwards = await stack.t.db.selectFrom('companies').select('id').execute();
    expect(afterwards.length).toBe(before.length);
    const { mail, link } = await lastMailTo(mailDir, 'BO@taken.example', '/user/login');
    expect(mail.subject).toBe('You already have a docpipe account');
    expect(basename(mail.file)).toMatch(EML_NAME('account-exists'));
    expect(pathOf(link)).toBe('/user/login');
    expect(mail.text).toContain('/user/password/forgot');
  });

  it('makes the company id unique with -2 for the same name', async () => {
    await signUp('cy@same.example', 'Same Name A/S');
    await signUp('dy@same.example', 'Same Name A/S');
    const ids = await stack.t.db
      .selectFrom('companies')
      .select('id')
      .where('name', '=', 'Same Name A/S')
      .orderBy('id')
      .execute();
    expect(ids.map((r) => r.id)).toEqual(['same-name-a-s', 'same-name-a-s-2']);
  });
});

describe('log-in', () => {
  it('answers an unknown address and a wrong password with the same page', async () => {
    await signUp('eve@same-answer.example', 'Same Answer ApS');
    const browser = new PageClient(server.url);
    const wrong = await logIn(browser, 'eve@same-answer.example', 'wrong-password-1');
    const unknown = await logIn(browser, 'nobody@same-answer.example', 'wrong-password-1');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const strip = (html: string) => html.replace(/value="[^"]*@same-answer\.example"/g, '');
    expect(strip(unknown.html)).toBe(strip(wrong.html));
    expect(wrong.html).toContain('The e-mail address or the password is wrong');
    expect(browser.cookies.has('docpipe_session')).toBe(false);
  });

  it('keeps next, but only a path of this server', async () => {
    await signUp('fay@next.example', 'Next ApS');
    const browser = new PageClient(server.url);
    const page = await browser.get('/user/login?next=%2Fdashboard%2Faccount');
    expect(page.html).toContain('name="next" value="/dashboard/account"');
    const inside = await browser.post('/user/login', {
      email: 'fay@next.example',
      password: PASSWORD,
      next: '/dashboard/account',
    });
    expect(inside.location).toBe('/dashboard/account');
    const other = new PageClient(server.url);
    await other.get('/user/login');
    const outside = await other.post('/user/login', {
      email: 'fay@next.example',
      password: PASSWORD,
      next: '//evil.example/x',
    });
    expect(outside.location).toBe('/dashboard');
  });

  it('refuses the log-in form from another origin (CSRF)', async () => {
    const browser = new PageClient(server.url);
    await browser.get('/user/login');
    const answer = await browser.post(
      '/user/login',
      { email: 'fay@next.example', password: PASSWORD },
      { origin: 'https://evil.example' },
    );
    expect(answer.status).toBe(403);
    expect(answer.html).toContain('The form was too old');
    expect(browser.cookies.has('docpipe_session')).toBe(false);
  });

  it('sends an address of a single sign-on domain to its provider, never checking a password', async () => {
    const sso = await stack.server({
      DOCPIPE_LOGIN_OIDC_CORP_ISSUER: 'https://login.corp.example',
      DOCPIPE_LOGIN_OIDC_CORP_CLIENT_ID: 'docpipe',
      DOCPIPE_LOGIN_OIDC_CORP_DOMAINS: 'corp.example',
      DOCPIPE_LOGIN_OIDC_CORP_COMPANY: 'corp',
    });
    const browser = new PageClient(sso.url);
    await browser.get('/user/login');
    const answer = await browser.post('/user/login', {
      email: 'Zoe@Corp.example',
      password: 'anything-at-all',
      next: '/dashboard/account',
    });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(
      '/user/login/sso?email=Zoe%40Corp.example&next=%2Fdashboard%2Faccount',
    );
  });

  it('sends a login with TOTP on to the code page, its session waiting for the code', async () => {
    await signUp('gus@totp.example', 'Totp ApS');
    await stack.t.db
      .updateTable('logins')
      .set({ totp_enabled_at: new Date(), totp_secret: 'x' })
      .where('email', '=', 'gus@totp.example')
      .execute();
    const browser = new PageClient(server.url);
    const answer = await logIn(browser, 'gus@totp.example');
    expect(answer.status).toBe(303);
    expect(answer.location).toBe('/user/login/code');
    const row = await stack.t.db
      .selectFrom('login_sessions as s')
      .innerJoin('logins as l', 'l.id', 's.login_id')
      .select('s.second_factor_due')
      .where('l.email', '=', 'gus@totp.example')
      .executeTakeFirstOrThrow();
    expect(row.second_factor_due).toBe(true);
  });
});

describe('throttled log-in', () => {
  it('answers 429 past the allowance per client address, the right password included', async () => {
    const throttled = await stack.server({ DOCPIPE_LOGIN_ATTEMPTS_PER_MINUTE: '3' });
    await signUp('hal@throttle.example', 'Throttle ApS');
    const browser = new PageClient(throttled.url);
    for (let i = 0; i < 3; i++)
      expect((await logIn(browser, `x${i}@throttle.example`, 'wrong-password-1')).status).toBe(401);
    const past = await logIn(browser, 'hal@throttle.example');
    expect(past.status).toBe(429);
    expect(past.html).toContain('Too many tries');
    expect(browser.cookies.has('docpipe_session')).toBe(false);
  });

  it('answers 429 past the allowance per account, from any address', async () => {
    const throttled = await stack.server({ DOCPIPE_LOGIN_FAILURES_PER_ACCOUNT: '2' });
    await signUp('ida@throttle.example', 'Account Throttle ApS');
    const guesser = new PageClient(throttled.url);
    for (let i = 0; i < 2; i++)
      expect((await logIn(guesser, 'ida@throttle.example', `wrong-password-${i}`)).status).toBe(
        401,
      );
    // The owner, from another browser: the account waits out its 15 minutes.
    const owner = new PageClient(throttled.url);
    const answer = await logIn(owner, 'IDA@throttle.example');
    expect(answer.status).toBe(429);
    // Another account is not affected.
    await signUp('jon@throttle.example', 'Other Throttle ApS');
    expect((await logIn(owner, 'jon@throttle.example')).status).toBe(303);
  });
});

describe('password reset', () => {
  it('answers the same for an unknown address, and sends a link only to a known one', async () => {
    await signUp('kim@reset.example', 'Reset ApS');
    const browser = new PageClient(server.url);
    await browser.get('/user/password/forgot');
    const before = (await mails(mailDir)).length;
    const unknown = await browser.post('/user/password/forgot', { email: 'nobody@reset.example' });
    expect((await mails(mailDir)).length).toBe(before);
    await browser.get('/user/password/forgot');
    const known = await browser.post('/user/password/forgot', { email: 'kim@reset.example' });
    expect(known.status).toBe(unknown.status);
    expect(known.html.replace(/kim@/g, 'nobody@')).toBe(unknown.html);
    // The e-mail leaves after the answer; only the known address gets one.
    const after = await mailsWhen(mailDir, (all) => all.length >= before + 1);
    expect(after.slice(before).map((m) => m.to)).toEqual(['kim@reset.example']);
  });

  it('sets the new password, ends every session, and refuses the link when reused', async () => {
    const email = 'lea@reset.example';
    await signUp(email, 'Reset Two ApS');
    const other = new PageClient(server.url);
    expect((await logIn(other, email)).status).toBe(303);
    expect((await other.get('/dashboard/account')).status).toBe(200);

    const browser = new PageClient(server.url);
    await browser.get('/user/password/forgot');
    await browser.post('/user/password/forgot', { email });
    await mailsWhen(mailDir, (all) =>
      all.some((m) => m.to === email && m.text.includes('/reset/')),
    );
    const { mail, link } = await lastMailTo(mailDir, email, '/user/password/reset/');
    expect(basename(mail.file)).toMatch(EML_NAME('reset-password'));
    const path = pathOf(link);
    const form = await browser.get(path);
    expect(form.html).toContain('>New password</label>');
    const mismatch = await browser.post(path, {
      password: 'new-orbit-password',
      repeated: 'other',
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.html).toContain('The two passwords are not the same');
    const done = await browser.post(path, {
      password: 'new-orbit-password',
      repeated: 'new-orbit-password',
    });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/user/login?done=reset');
    // The other browser's session has ended.
    expect((await other.get('/dashboard/account')).location).toMatch(/^\/user\/login/);

    const reused = await browser.get(path);
    expect(reused.status).toBe(410);
    expect(reused.html).toContain('This link has been used');
    expect(
      (await browser.post(path, { password: 'third-orbit-pass', repeated: 'third-orbit-pass' }))
        .status,
    ).toBe(410);
    expect((await logIn(new PageClient(server.url), email)).status).toBe(401);
    expect((await logIn(new PageClient(server.url), email, 'new-orbit-password')).status).toBe(303);
  });

  it('sends one address at most 5 reset e-mails an hour, known or not', async () => {
    // A client address's own allowance well above the test's tries: only the address's counts.
    const fresh = await stack.server({ DOCPIPE_LOGIN_ATTEMPTS_PER_MINUTE: '100' });
    for (const email of ['vic@reset-count.example', 'nobody@reset-count.example']) {
      if (email.startsWith('vic')) await signUp(email, 'Reset Count ApS');
      const browser = new PageClient(fresh.url);
      for (let i = 0; i < 5; i++) {
        await browser.get('/user/password/forgot');
        expect((await browser.post('/user/password/forgot', { email })).status).toBe(200);
      }
      await browser.get('/user/password/forgot');
      const past = await browser.post('/user/password/forgot', { email: email.toUpperCase() });
      expect(past.status, email).toBe(429);
    }
    const resets = (all: Mail[]) =>
      all.filter(
        (m) => m.to === 'vic@reset-count.example' && m.subject === 'Choose a new docpipe password',
      );
    expect(resets(await mailsWhen(mailDir, (all) => resets(all).length >= 5)).length).toBe(5);
  });

  it('refuses an expired reset link', async () => {
    const email = 'max@reset.example';
    await signUp(email, 'Reset Three ApS');
    const login = await stack.t.db
      .selectFrom('logins')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    // A link made two hours ago: its hour is over.
    const past = new LoginLinks(stack.t.db, () => new Date(Date.now() - 2 * 60 * 60 * 1000));
    const token = await past.issue('reset', { email, loginId: login.id });
    const browser = new PageClient(server.url);
    const answer = await browser.get(`/user/password/reset/${token}`);
    expect(answer.status).toBe(410);
    expect(answer.html).toContain('This link has expired');
    expect(answer.html).toContain('href="/user/password/forgot"');
  });
});

describe('invitation', () => {
  it('lets an invited member set a name and password, and logs them in', async () => {
    const admin = await signUp('ole@invite.example', 'Invite ApS');
    expect(admin).toBeDefined();
    const { inviteMember, channelMailer } = await import('../../src/service/accounts/index.js');
    const { messageChannels } = await import('../../src/service/messages/index.js');
    const { silentLogger } = await import('../../src/base/log/index.js');
    const channels = messageChannels(server.config.delivery, silentLogger);
    const deps = {
      db: stack.t.db,
      mailer: channelMailer(channels.email, server.config.delivery.from),
      publicUrl: server.url,
    };
    const invited = await inviteMember(
      deps,
      'invite-aps',
      { email: 'pia@invite.example', name: 'Pia' },
      { name: 'Ole' },
    );
    expect(invited.sent.ok).toBe(true);
    await channels.close();
    const { mail, link } = await lastMailTo(mailDir, 'pia@invite.example', '/user/invitation/');
    // The company's language is the sign-up page's: English here.
    expect(mail.subject).toBe('You are invited to Invite ApS on docpipe');
    expect(basename(mail.file)).toMatch(EML_NAME('invitation'));
    expect(mail.text).toContain('Ole has invited you');
    const browser = new PageClient(server.url);
    const path = pathOf(link);
    const form = await browser.get(path);
    expect(form.status).toBe(200);
    expect(form.html).toContain('Join Invite ApS');
    const accepted = await browser.post(path, {
      name: 'Pia Holm',
      password: 'pia-orbit-password',
      repeated: 'pia-orbit-password',
    });
    expect(accepted.status).toBe(303);
    expect(accepted.location).toBe('/dashboard');
    const user = await stack.t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', invited.user.id)
      .executeTakeFirstOrThrow();
    expect(user.login_id).not.toBeNull();
    expect(user.name).toBe('Pia Holm');
    expect((await browser.get('/dashboard/account')).status).toBe(200);
    expect((await new PageClient(server.url).get(path)).status).toBe(410);
  });

  it('asks a person with a login to log in, then joins the membership to it', async () => {
    await signUp('quinn@first.example', 'First ApS');
    await signUp('rita@second.example', 'Second ApS');
    const { inviteMember, channelMailer } = await import('../../src/service/accounts/index.js');
    const { messageChannels } = await import('../../src/service/messages/index.js');
    const { silentLogger } = await import('../../src/base/log/index.js');
    const channels = messageChannels(server.config.delivery, silentLogger);
    const deps = {
      db: stack.t.db,
      mailer: channelMailer(channels.email, server.config.delivery.from),
      publicUrl: server.url,
    };
    await inviteMember(deps, 'second-aps', { email: 'Quinn@First.example', name: 'Quinn' });
    await channels.close();
    const { link } = await lastMailTo(mailDir, 'Quinn@First.example', '/user/invitation/');
    const path = pathOf(link);
    const browser = new PageClient(server.url);
    const ask = await browser.get(path);
    expect(ask.html).toContain('already has a docpipe account');
    expect(ask.html).toContain(`/user/login?next=${encodeURIComponent(path)}`);
    const loggedIn = await browser.post('/user/login', {
      email: 'quinn@first.example',
      password: PASSWORD,
      next: path,
    });
    expect(loggedIn.location).toBe(path);
    const join = await browser.get(path);
    expect(join.html).toContain('Join Second ApS');
    const joined = await browser.post(path, {});
    expect(joined.location).toBe('/dashboard');
    const choose = await browser.get('/user/companies');
    expect(choose.html).toContain('Open First ApS');
    expect(choose.html).toContain('Open Second ApS');
    const first = await stack.t.db
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', 'first-aps')
      .executeTakeFirstOrThrow();
    expect((await browser.post('/user/companies', { user: first.id })).location).toBe('/dashboard');
    const session = await stack.t.db
      .selectFrom('login_sessions as s')
      .innerJoin('logins as l', 'l.id', 's.login_id')
      .select('s.user_id')
      .where('l.email', '=', 'quinn@first.example')
      .executeTakeFirstOrThrow();
    expect(session.user_id).toBe(first.id);
    // Another login's membership is no choice of this one's.
    const other = await stack.t.db
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', 'invite-aps')
      .executeTakeFirstOrThrow();
    await browser.get('/user/companies');
    expect((await browser.post('/user/companies', { user: other.id })).status).toBe(404);
  });
});

describe('your account', () => {
  it('changes the name and language, and the password with the current one, ending the other sessions', async () => {
    const email = 'wes@account.example';
    await signUp(email, 'Account ApS');
    const other = new PageClient(server.url);
    await logIn(other, email);
    const browser = new PageClient(server.url);
    await logIn(browser, email);
    const page = await browser.get('/dashboard/account');
    expect(page.html).toContain('>Current password</label>');
    const saved = await browser.post('/dashboard/account', {
      form: 'profile',
      name: 'Wes Holm',
      language: 'da',
    });
    expect(saved.location).toBe('/dashboard/account?done=profile');
    expect((await browser.get('/dashboard/account')).html).toContain('<html lang="da"');
    const wrong = await browser.post('/dashboard/account', {
      form: 'password',
      current: 'not-the-password',
      password: 'wes-orbit-password',
      repeated: 'wes-orbit-password',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain('Den nuværende adgangskode er forkert');
    await browser.get('/dashboard/account');
    const changed = await browser.post('/dashboard/account', {
      form: 'password',
      current: PASSWORD,
      password: 'wes-orbit-password',
      repeated: 'wes-orbit-password',
    });
    expect(changed.location).toBe('/dashboard/account?done=password');
    expect((await browser.get('/dashboard/account')).status).toBe(200);
    expect((await other.get('/dashboard/account')).location).toMatch(/^\/user\/login/);
    const login = await stack.t.db
      .selectFrom('logins')
      .select(['name', 'language'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(login).toEqual({ name: 'Wes Holm', language: 'da' });
    expect((await logIn(new PageClient(server.url), email, 'wes-orbit-password')).status).toBe(303);
  });

  it('shows every problem of a refused new password at once, each by its field', async () => {
    const email = 'xia@account.example';
    await signUp(email, 'Account Two ApS');
    const browser = new PageClient(server.url);
    await logIn(browser, email);
    await browser.get('/dashboard/account');
    await browser.post('/dashboard/account', { form: 'profile', name: 'Xia', language: 'en' });
    await browser.get('/dashboard/account');
    // A wrong current password, a new one too short, and a repeat that differs: three problems.
    const all = await browser.post('/dashboard/account', {
      form: 'password',
      current: 'not-the-password',
      password: 'short',
      repeated: 'shorter',
    });
    expect(all.status).toBe(400);
    expect(all.html).toContain(
      '<p class="field-error" id="field-current-error">The current password is wrong</p>',
    );
    expect(all.html).toContain(
      '<p class="field-error" id="field-password-error">Use at least 10 characters</p>',
    );
    expect(all.html).toContain(
      '<p class="field-error" id="field-repeated-error">The two passwords are not the same</p>',
    );
    // The right current password: the other two still show together, and nothing changed.
    await browser.get('/dashboard/account');
    const two = await browser.post('/dashboard/account', {
      form: 'password',
      current: PASSWORD,
      password: 'qwertyuiop',
      repeated: 'qwertyuiop!',
    });
    expect(two.status).toBe(400);
    expect(two.html).not.toContain('id="field-current-error"');
    expect(two.html).toContain(
      '<p class="field-error" id="field-password-error">This password is too common: choose another</p>',
    );
    expect(two.html).toContain('id="field-repeated-error"');
    expect((await logIn(new PageClient(server.url), email)).status).toBe(303);
  });
});

describe('sign-up throttle', () => {
  it('answers 429 past the sign-ups an address may make in an hour', async () => {
    const throttled = await stack.server({ DOCPIPE_SIGNUPS_PER_HOUR: '1' });
    const browser = new PageClient(throttled.url);
    await browser.get('/user/register');
    expect(
      (await browser.post('/user/register', signUpFields('tia@hour.example', 'Hour ApS'))).status,
    ).toBe(200);
    await browser.get('/user/register');
    const past = await browser.post(
      '/user/register',
      signUpFields('uma@hour.example', 'Hour Two ApS'),
    );
    expect(past.status).toBe(429);
    expect(
      await stack.t.db
        .selectFrom('logins')
        .select('id')
        .where('email', '=', 'uma@hour.example')
        .execute(),
    ).toEqual([]);
  });
});

describe('sign-up turned off', () => {
  it('says so on the page and creates nothing', async () => {
    const off = await stack.server({ DOCPIPE_SIGNUP: 'off' });
    const browser = new PageClient(off.url);
    const page = await browser.get('/user/register');
    expect(page.status).toBe(403);
    expect(page.html).toContain('Sign-up is turned off');
    const posted = await browser.post('/user/register', signUpFields('sam@off.example', 'Off ApS'));
    expect(posted.status).toBe(403);
    expect(
      await stack.t.db.selectFrom('companies').select('id').where('name', '=', 'Off ApS').execute(),
    ).toEqual([]);
  });
});
