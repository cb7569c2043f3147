import { Writable } from 'node:stream';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import { DocpipeMetrics } from '../../src/base/metrics/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { DocpipeClient } from '../../src/jobs/queue/index.js';
import { createRedis } from '../../src/platform/redis/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import {
  DEFAULT_SESSION_LIFETIMES,
  inviteMember,
  type AccountMail,
} from '../../src/service/accounts/index.js';
import type { HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { buildHttpServer } from '../../src/surfaces/http/server.js';
import {
  TEST_SECRET,
  startPagesStack,
  type PagesServer,
  type PagesStack,
} from '../helpers/pages-stack.js';
import { PageClient, pathOf } from './account-client.js';

/**
 * Issue 33's sessions over a real socket against PostgreSQL and Redis: a session past its idle
 * or its absolute lifetime is refused (its stored times moved back, as the clock would), the
 * session cookie's attributes on http and on an https public URL, no session token in the
 * server's JSON log, and an invitation link older than its 7 days refused.
 */
let stack: PagesStack;
let server: PagesServer;
/** Every JSON line the server logged, at trace level. */
const lines: string[] = [];

beforeAll(async () => {
  stack = await startPagesStack();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  server = await stack.server(
    { DOCPIPE_SIGNUPS_PER_HOUR: '1000' },
    { logger: pino({ level: 'trace' }, sink) },
  );
});
afterAll(() => stack?.close());

const PASSWORD = 'tangerine-orbit-41';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** Signs a company up through the page; the admin's login id. */
async function signUp(email: string, company: string): Promise<string> {
  const browser = new PageClient(server.url);
  await browser.get('/en/user/register');
  const answer = await browser.post('/en/user/register', {
    companyName: company,
    cvr: '24256790',
    name: 'Ann Berg',
    email,
    password: PASSWORD,
  });
  expect(answer.status).toBe(200);
  const login = await stack.t.db
    .selectFrom('logins')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return login.id;
}

async function logIn(browser: PageClient, email: string): Promise<void> {
  await browser.get('/user/login');
  const answer = await browser.post('/user/login', { email, password: PASSWORD });
  expect(answer.status).toBe(303);
}

const sessionsOf = (loginId: string) =>
  stack.t.db.selectFrom('login_sessions').selectAll().where('login_id', '=', loginId).execute();

/** Whether the browser's session still opens the dashboard (else it is sent to log in). */
async function admitted(browser: PageClient): Promise<boolean> {
  const page = await browser.get('/dashboard/account');
  if (page.status === 200) return true;
  expect(page.status).toBe(303);
  expect(page.location).toMatch(/^\/user\/login\?next=/);
  return false;
}

describe('session lifetimes', () => {
  it('are the documented 12 hours idle and 14 days at most', () => {
    expect(DEFAULT_SESSION_LIFETIMES).toEqual({ idleMs: 12 * HOUR, absoluteMs: 14 * DAY });
    expect(server.config.dashboard.sessionIdleMs).toBe(12 * HOUR);
    expect(server.config.dashboard.sessionMaxMs).toBe(14 * DAY);
  });

  it('refuses a session idle past 12 hours, and keeps one idle a little less', async () => {
    const email = 'idle@sessions.example';
    const loginId = await signUp(email, 'Idle ApS');
    const browser = new PageClient(server.url);
    await logIn(browser, email);
    const [session] = await sessionsOf(loginId);
    // Eleven hours and a half without a request: still within the idle lifetime.
    const now = Date.now();
    await stack.t.db
      .updateTable('login_sessions')
      .set({
        created_at: new Date(now - 12 * HOUR),
        last_seen_at: new Date(now - 11.5 * HOUR),
      } as never)
      .where('id', '=', session!.id)
      .execute();
    expect(await admitted(browser)).toBe(true);
    // The request renewed last_seen_at; now it is put 12 hours and a minute back.
    const [touched] = await sessionsOf(loginId);
    expect(touched!.last_seen_at.getTime()).toBeGreaterThan(now - 60_000);
    await stack.t.db
      .updateTable('login_sessions')
      .set({ last_seen_at: new Date(Date.now() - 12 * HOUR - 60_000) })
      .where('id', '=', session!.id)
      .execute();
    expect(await admitted(browser)).toBe(false);
    // The ended session's row is gone, so that it cannot come back.
    expect(await sessionsOf(loginId)).toEqual([]);
  });

  it('refuses a session past 14 days since its log-in however active, and keeps one a little younger', async () => {
    const email = 'old@sessions.example';
    const loginId = await signUp(email, 'Old ApS');
    const browser = new PageClient(server.url);
    await logIn(browser, email);
    const [session] = await sessionsOf(loginId);
    // Its end is set at log-in: 14 days after it.
    expect(session!.expires_at.getTime() - session!.created_at.getTime()).toBe(14 * DAY);
    // Logged in 13 days and 23 hours ago and seen a minute ago: still within.
    const young = Date.now() - 14 * DAY + HOUR;
    await stack.t.db
      .updateTable('login_sessions')
      .set({
        created_at: new Date(young),
        expires_at: new Date(young + 14 * DAY),
        last_seen_at: new Date(Date.now() - 60_000),
      } as never)
      .where('id', '=', session!.id)
      .execute();
    expect(await admitted(browser)).toBe(true);
    // Logged in 14 days and a minute ago, and active all the while (seen a minute ago).
    const old = Date.now() - 14 * DAY - 60_000;
    await stack.t.db
      .updateTable('login_sessions')
      .set({
        created_at: new Date(old),
        expires_at: new Date(old + 14 * DAY),
        last_seen_at: new Date(Date.now() - 60_000),
      } as never)
      .where('id', '=', session!.id)
      .execute();
    expect(await admitted(browser)).toBe(false);
    expect(await sessionsOf(loginId)).toEqual([]);
  });
});

/** Logs in with fetch: the log-in answer's Set-Cookie headers, and the session token. */
async function logInRaw(
  send: (request: {
    method: 'GET' | 'POST';
    path: string;
    headers: Record<string, string>;
    body?: string;
  }) => Promise<{ status: number; setCookies: string[]; html: string }>,
  origin: string,
  email: string,
  csrfCookie: string,
): Promise<{ status: number; setCookies: string[] }> {
  const form = await send({ method: 'GET', path: '/user/login', headers: {} });
  const seed = form.setCookies.find((c) => c.startsWith(`${csrfCookie}=`));
  expect(seed, form.setCookies.join('\n')).toBeDefined();
  const token = /name="_csrf" value="([^"]+)"/.exec(form.html)?.[1];
  expect(token).toBeDefined();
  return send({
    method: 'POST',
    path: '/user/login',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: seed!.split(';')[0]!,
      origin,
    },
    body: new URLSearchParams({ _csrf: token!, email, password: PASSWORD }).toString(),
  });
}

/** The attributes of a Set-Cookie header, lower-cased, without its name and value. */
function attributesOf(setCookie: string): string[] {
  return setCookie
    .split(';')
    .slice(1)
    .map((a) => a.trim().toLowerCase());
}

describe('the session cookie', () => {
  it('is HttpOnly and SameSite=Lax, neither Secure nor __Host- on an http public URL', async () => {
    const email = 'cookie@sessions.example';
    await signUp(email, 'Cookie ApS');
    const answer = await logInRaw(
      async ({ method, path, headers, body }) => {
        const res = await fetch(`${server.url}${path}`, {
          method,
          headers,
          redirect: 'manual',
          ...(body !== undefined ? { body } : {}),
        });
        return {
          status: res.status,
          setCookies: res.headers.getSetCookie(),
          html: await res.text(),
        };
      },
      server.url,
      email,
      'docpipe_csrf',
    );
    expect(answer.status).toBe(303);
    const session = answer.setCookies.find((c) => c.startsWith('docpipe_session='));
    expect(session, answer.setCookies.join('\n')).toBeDefined();
    const attributes = attributesOf(session!);
    expect(attributes).toContain('httponly');
    expect(attributes).toContain('samesite=lax');
    expect(attributes).toContain('path=/');
    expect(attributes).not.toContain('secure');
  });

  describe('with an https public URL', () => {
    const PUBLIC = 'https://docpipe.example';
    let app: HttpApp;
    let client: DocpipeClient;
    let connection: ReturnType<typeof createRedis>;

    beforeAll(async () => {
      // The pages stack's servers name their loopback address; this one is built as they are,
      // for an https public URL, and answers through inject (nothing here speaks TLS).
      const prefix = `pages-${randomUUID()}`;
      const config = loadConfig({
        DOCPIPE_SIGNING_SECRET: TEST_SECRET,
        DOCPIPE_QUEUE_PREFIX: prefix,
        DOCPIPE_TEMPLATES_DIR: join(projectRoot(), 'templates'),
        DOCPIPE_DATA_DIR: stack.redis.dir,
      });
      connection = createRedis(stack.redis.url, 'worker');
      const storage = new LocalStorage(join(stack.redis.dir, 'storage'));
      client = await DocpipeClient.connect({ redisUrl: stack.redis.url, prefix, storage });
      const queues: Queue[] = [];
      app = await buildHttpServer({
        config,
        publicUrl: PUBLIC,
        redis: connection,
        redisUrl: stack.redis.url,
        db: stack.t.db,
        keys: stack.keys,
        client,
        storage,
        library: new FolderLibrary(config.templatesDir),
        preparer: new InlinePreparer(),
        metrics: new DocpipeMetrics({ queues, processMetrics: false }),
        checks: {},
        queues,
      });
    });
    afterAll(async () => {
      await app?.close();
      await client?.close();
      connection?.disconnect();
    });

    it('is Secure and __Host- named (Path=/, no Domain), and opens the dashboard by that name', async () => {
      const email = 'https@sessions.example';
      await signUp(email, 'Https ApS');
      const answer = await logInRaw(
        async ({ method, path, headers, body }) => {
          const res = await app.inject({
            method,
            url: path,
            headers,
            ...(body !== undefined ? { payload: body } : {}),
          });
          const raw = res.headers['set-cookie'];
          const setCookies = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
          return { status: res.statusCode, setCookies, html: res.body };
        },
        PUBLIC,
        email,
        '__Host-docpipe_csrf',
      );
      expect(answer.status).toBe(303);
      expect(answer.setCookies.some((c) => c.startsWith('docpipe_session='))).toBe(false);
      const session = answer.setCookies.find((c) => c.startsWith('__Host-docpipe_session='));
      expect(session, answer.setCookies.join('\n')).toBeDefined();
      const attributes = attributesOf(session!);
      expect(attributes).toContain('secure');
      expect(attributes).toContain('httponly');
      expect(attributes).toContain('samesite=lax');
      expect(attributes).toContain('path=/');
      expect(attributes.some((a) => a.startsWith('domain='))).toBe(false);
      const cookie = session!.split(';')[0]!;
      const page = await app.inject({
        method: 'GET',
        url: '/dashboard/account',
        headers: { cookie },
      });
      expect(page.statusCode).toBe(200);
      // The unprefixed name is not read there: a sibling domain could have set it.
      const plain = await app.inject({
        method: 'GET',
        url: '/dashboard/account',
        headers: { cookie: cookie.replace('__Host-', '') },
      });
      expect(plain.statusCode).toBe(303);
    });
  });
});

describe('the server log', () => {
  it('carries no session token, from log-in through pages, a form and log-out', async () => {
    const email = 'log@sessions.example';
    await signUp(email, 'Log ApS');
    const browser = new PageClient(server.url);
    const from = lines.length;
    await logIn(browser, email);
    const token = browser.cookies.get('docpipe_session');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await browser.get('/dashboard/account')).status).toBe(200);
    expect((await browser.get('/dashboard')).status).toBeLessThan(400);
    const saved = await browser.post('/dashboard/account', {
      form: 'profile',
      name: 'Log Holm',
      language: 'en',
    });
    expect(saved.status).toBe(303);
    // A refused form logs a warning with its request: the token is not in that either.
    expect(
      (
        await browser.post(
          '/dashboard/account',
          { form: 'profile' },
          { origin: 'https://evil.example' },
        )
      ).status,
    ).toBe(403);
    expect((await browser.post('/user/logout', {})).status).toBe(303);
    const mine = lines.slice(from);
    // The requests were logged (so the log was written), as JSON, and none names the token.
    expect(mine.filter((l) => l.includes('/dashboard/account')).length).toBeGreaterThan(0);
    for (const line of mine) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(mine.filter((l) => l.includes(token!))).toEqual([]);
  });
});

describe('invitation links', () => {
  /** Invites a member of `company`; the link the e-mail carries, as a path. */
  async function invite(company: string, email: string): Promise<string> {
    const sent: AccountMail[] = [];
    await inviteMember(
      {
        db: stack.t.db,
        mailer: {
          send: (mail) => {
            sent.push(mail);
            return Promise.resolve({ ok: true });
          },
        },
        publicUrl: server.url,
      },
      company,
      { email, name: 'Pia' },
    );
    expect(sent).toHaveLength(1);
    return pathOf(sent[0]!.url);
  }

  /** Moves the invitation link of `email` back in time by `ms`, as if it had been sent then. */
  const age = (email: string, ms: number) =>
    stack.t.db
      .updateTable('login_links')
      .set({
        created_at: sql<Date>`created_at - ${ms} * interval '1 millisecond'`,
        expires_at: sql<Date>`expires_at - ${ms} * interval '1 millisecond'`,
      } as never)
      .where('purpose', '=', 'invite')
      .where('email', '=', email)
      .execute();

  it('works 6 days and 23 hours after it was sent, and is refused past 7 days', async () => {
    await signUp('ole@invite-age.example', 'Invite Age ApS');
    const fresh = await invite('invite-age-aps', 'pia@invite-age.example');
    await age('pia@invite-age.example', 7 * DAY - HOUR);
    const open = await new PageClient(server.url).get(fresh);
    expect(open.status).toBe(200);
    expect(open.html).toContain('Join Invite Age ApS');

    const stale = await invite('invite-age-aps', 'rut@invite-age.example');
    await age('rut@invite-age.example', 7 * DAY + 60_000);
    const browser = new PageClient(server.url);
    const page = await browser.get(stale);
    expect(page.status).toBe(410);
    expect(page.html).toContain('This link has expired');
    // Nor can its form be posted: no login is made for the address.
    await browser.get('/user/login');
    const posted = await browser.post(stale, {
      name: 'Rut',
      password: 'rut-orbit-password',
      repeated: 'rut-orbit-password',
    });
    expect(posted.status).toBe(410);
    expect(
      await stack.t.db
        .selectFrom('logins')
        .select('id')
        .where('email', '=', 'rut@invite-age.example')
        .execute(),
    ).toEqual([]);
  });
});
