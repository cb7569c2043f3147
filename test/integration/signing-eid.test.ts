import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import { DocpipeMetrics } from '../../src/base/metrics/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { Renderer } from '../../src/render/pipeline/index.js';
import { DocpipeClient, DocpipeWorker } from '../../src/jobs/queue/index.js';
import { createRedis } from '../../src/platform/redis/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import { KeyStore } from '../../src/service/keys/index.js';
import type { HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { MAX_PENDING_LOGINS } from '../../src/surfaces/http/signing/signing-eid-routes.js';
import { buildHttpServer } from '../../src/surfaces/http/server.js';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';

/**
 * eID signing end to end over HTTP: the composed server listening on loopback at its public URL,
 * a real OpenID Connect provider (oidc-provider) as the MitID broker, and the signer's browser as
 * fetch with a cookie jar, every redirect followed by hand: the signing link's eID start, the
 * broker's login, the callback, and what the database holds after (the signature with the
 * broker's claims and never a CPR number, the recipient, the outbox event). Cases are made
 * through the server's own case routes (v3, and v2 for a recipient's CPR number, stored
 * encrypted with DOCPIPE_CPR_KEY).
 */

const SUBSTANTIAL = 'urn:grn:authn:dk:mitid:substantial';
const LOW = 'urn:grn:authn:dk:mitid:low';
const CALLBACK_PATH = '/sign/eid/callback';
/** Anna's CPR number as the broker gives it, and Bo's. */
const ANNA_CPR = '0101901234';
const BO_CPR = '0202802345';
const CPR_KEY = randomBytes(32);

let t: TestDatabase;
let stack: QueueStack;
/** The file's own queue: a worker and a client on a prefix of its own (a lane is a test's). */
let worker: DocpipeWorker;
let client: DocpipeClient;
let connection: Redis;
let op: TestOidcProvider;
let app: HttpApp;
let publicUrl = '';
let apiKey = '';
let pdf = '';
const logLines: string[] = [];
/** Every signing token, broker's code and login state the file used: none may be in the log. */
const secrets = new Set<string>();

/** A loopback port free now: the server must listen where its public URL says. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  let onePage: Uint8Array;
  [t, stack, op, onePage] = await Promise.all([
    testDatabase(),
    startQueueStack(),
    startOidcProvider({
      redirectUris: [`${publicUrl}${CALLBACK_PATH}`],
      accounts: {
        'mitid-anna': { name: 'Anna Hansen', cprNumberIdentifier: ANNA_CPR },
        'mitid-bo': { name: 'Bo Jensen', cprNumberIdentifier: BO_CPR },
        // An eID account the broker gives no CPR number for.
        'mitid-cy': { name: 'Cy Nielsen' },
      },
    }),
    (async () => {
      const doc = await PDFDocument.create();
      doc.addPage([595, 842]).drawText('the lease');
      return doc.save();
    })(),
  ]);
  pdf = Buffer.from(onePage).toString('base64');
  await new CompanyRepository(t.db).create({ id: 'acme', name: 'Acme', defaultLanguage: 'en' });
  const owner = await new UserRepository(t.db).add('acme', {
    email: 'owner@acme.example',
    name: 'Owner',
  });
  const keys = new KeyStore({ db: t.db, databaseUrl: t.url });
  apiKey = (await keys.create({ company: 'acme', user: owner.email, name: 'eid' })).key;
  const prefix = `signing-eid-${randomUUID()}`;
  connection = createRedis(stack.url, 'worker');
  [worker, client] = await Promise.all([
    DocpipeWorker.start({
      redisUrl: stack.url,
      prefix,
      concurrency: 2,
      renderer: new Renderer({
        preparer: stack.preparer,
        converter: stack.office,
        storage: stack.storage,
      }),
      storage: stack.storage,
      library: new FolderLibrary(join(projectRoot(), 'templates')),
    }),
    DocpipeClient.connect({ redisUrl: stack.url, prefix, storage: stack.storage }),
  ]);
  const config = loadConfig({
    DOCPIPE_SIGNING_SECRET: 'a-test-signing-secret-of-32-chars',
    DOCPIPE_QUEUE_PREFIX: prefix,
    DOCPIPE_TEMPLATES_DIR: join(projectRoot(), 'templates'),
    DOCPIPE_PUBLIC_URL: publicUrl,
    DOCPIPE_CPR_KEY: CPR_KEY.toString('base64'),
    DOCPIPE_EID_ISSUER: op.issuer,
    DOCPIPE_EID_CLIENT_ID: op.clientId,
    DOCPIPE_EID_CLIENT_SECRET: op.clientSecret,
    // LOW is served too: a scheme the broker serves and the case did not give the signer.
    DOCPIPE_EID_SCHEMES: `${SUBSTANTIAL},${LOW}`,
    DOCPIPE_EID_SCOPES: 'openid profile cpr',
    DOCPIPE_EID_CPR_CLAIM: 'cprNumberIdentifier',
  });
  app = await buildHttpServer({
    config,
    publicUrl,
    redis: connection,
    redisUrl: stack.url,
    db: t.db,
    keys,
    client,
    storage: stack.storage,
    library: new FolderLibrary(config.templatesDir),
    preparer: new InlinePreparer(),
    metrics: new DocpipeMetrics({ queues: [], processMetrics: false }),
    checks: {},
    queues: [],
    logger: pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
          done();
        },
      }),
    ),
  });
  await app.listen({ port, host: '127.0.0.1' });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await op?.close();
  await client?.close();
  await worker?.close(5000);
  connection?.disconnect();
  await Promise.all([t?.close(), stack?.close()]);
});

/**
 * The signer's browser at docpipe: cookies kept by name with their Path (sent where the path
 * is under it), nothing followed by itself.
 */
class Browser {
  readonly cookies = new Map<string, { value: string; path: string }>();

  async get(url: string): Promise<Response> {
    const target = new URL(url, publicUrl);
    expect(target.origin).toBe(publicUrl);
    if (target.pathname === CALLBACK_PATH)
      for (const name of ['code', 'state']) {
        const value = target.searchParams.get(name);
        if (value) secrets.add(value);
      }
    const cookie = [...this.cookies]
      .filter(([, c]) => target.pathname === c.path || target.pathname.startsWith(`${c.path}/`))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
    const res = await fetch(target, {
      redirect: 'manual',
      headers: { 'user-agent': 'signing-eid test', ...(cookie ? { cookie } : {}) },
    });
    for (const header of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const path = attributes.find((a) => /^path=/i.test(a))?.slice(5) ?? '/';
      if (attributes.some((a) => /^max-age=0$/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, { value: pair.slice(eq + 1), path });
    }
    return res;
  }
}

/** The token of a signing URL (its last path segment). */
function tokenOf(url: string): string {
  const token = new URL(url).pathname.split('/').pop()!;
  secrets.add(token);
  return token;
}

async function api(method: 'POST', path: string, body: object) {
  const res = await fetch(new URL(path, publicUrl), {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** A v3 case whose recipients sign with MitID substantial: its id and their tokens. */
async function v3Case(recipients: object[]): Promise<{ id: string; tokens: string[] }> {
  const res = await api('POST', '/v3/api/cases', {
    title: 'Lease',
    senderEmail: 'owner@acme.example',
    settings: { signingSchemas: [SUBSTANTIAL] },
    recipients,
    documents: [{ name: 'lease.pdf', content: pdf }],
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  const made = res.json.case as { id: string; recipients: { signingUrl: string }[] };
  return { id: made.id, tokens: made.recipients.map((r) => tokenOf(r.signingUrl)) };
}

/** A v2 case of one MitID signer given a CPR number (stored encrypted): its id and token. */
async function v2CprCase(cpr: string): Promise<{ id: string; token: string }> {
  const res = await api('POST', '/api/v2/acme/case/create', {
    title: 'Lease',
    signingSchemas: [SUBSTANTIAL],
    recipients: [
      { name: 'Anna Hansen', email: 'anna@example.com', signing: true, needsCpr: true, cpr },
    ],
    documents: [{ name: 'lease.pdf', file: pdf, fileIsBlob: true }],
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  const data = res.json.data as { _id: string; recipients: { url: string }[] };
  expect(JSON.stringify(res.json)).not.toContain(cpr);
  return { id: data._id, token: tokenOf(data.recipients[0]!.url) };
}

interface Login {
  browser: Browser;
  /** The callback URL the broker sent the browser to. */
  callback: URL;
  /** docpipe's answer to it. */
  answer: Response;
}

/**
 * A signer's eID login from their link: the start's redirect to the broker, the login there as
 * `as` (or a cancel), and the callback back at docpipe.
 */
async function eidLogin(
  token: string,
  as: { account: string; acr?: string } | 'cancel',
  scheme = SUBSTANTIAL,
): Promise<Login> {
  const browser = new Browser();
  const start = await browser.get(`/sign/${token}/eid?scheme=${encodeURIComponent(scheme)}`);
  expect(start.status, await start.text()).toBe(302);
  const atBroker = start.headers.get('location')!;
  expect(new URL(atBroker).origin).toBe(op.issuer);
  const callback = as === 'cancel' ? await op.cancel(atBroker) : await op.login(atBroker, as);
  expect(`${callback.origin}${callback.pathname}`).toBe(`${publicUrl}${CALLBACK_PATH}`);
  const answer = await browser.get(callback.href);
  return { browser, callback, answer };
}

async function signaturesOf(caseId: string) {
  return t.db.selectFrom('signatures').selectAll().where('case_id', '=', caseId).execute();
}

async function eventsOf(caseId: string): Promise<string[]> {
  const rows = await t.db
    .selectFrom('case_events')
    .select('trigger')
    .where('case_id', '=', caseId)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => r.trigger);
}

async function statusOf(caseId: string): Promise<string[]> {
  const rows = await t.db
    .selectFrom('recipients')
    .select('status')
    .where('case_id', '=', caseId)
    .orderBy('position')
    .execute();
  return rows.map((r) => r.status);
}

async function loginRows(caseId: string): Promise<number> {
  const rows = await t.db
    .selectFrom('signing_logins')
    .select('state_hash')
    .where('case_id', '=', caseId)
    .execute();
  return rows.length;
}

/** What the signing page's API answers for `token` (404: the link opens nothing). */
async function pageApi(token: string): Promise<number> {
  const res = await fetch(new URL(`/sign/${token}/api`, publicUrl));
  await res.body?.cancel();
  return res.status;
}

/** Expects the HTML page of a link that opens nothing. */
async function expectNotFoundPage(res: Response): Promise<void> {
  expect(res.status).toBe(404);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(await res.text()).toContain('This link does not work');
}

describe('signing with an eID through the broker', () => {
  it('signs: start, the broker’s login at substantial, the callback, and the signature with the broker’s claims', async () => {
    const { id, tokens } = await v3Case([{ name: 'Anna Hansen', email: 'anna@example.com' }]);
    const token = tokens[0]!;

    const browser = new Browser();
    const start = await browser.get(`/sign/${token}/eid?scheme=${encodeURIComponent(SUBSTANTIAL)}`);
    expect(start.status).toBe(302);
    expect(start.headers.get('cache-control')).toBe('no-store');
    const atBroker = new URL(start.headers.get('location')!);
    expect(atBroker.origin).toBe(op.issuer);
    expect(atBroker.searchParams.get('acr_values')).toBe(SUBSTANTIAL);
    expect(atBroker.searchParams.get('redirect_uri')).toBe(`${publicUrl}${CALLBACK_PATH}`);
    // The way back is a cookie for the callback's path alone.
    const cookie = start.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(
      new RegExp(`^docpipe_sign_return=${token}; Path=${CALLBACK_PATH}; Max-Age=\\d+; HttpOnly`),
    );
    expect(await loginRows(id)).toBe(1);
    // The browser that started it: a random value for the callback's path, its hash beside the
    // state.
    const bound = start.headers.getSetCookie().find((c) => c.startsWith('docpipe_eid_browser='));
    expect(bound).toMatch(
      new RegExp(
        `^docpipe_eid_browser=[A-Za-z0-9_-]{43}; Path=${CALLBACK_PATH}; Max-Age=900; HttpOnly; SameSite=Lax$`,
      ),
    );
    const value = browser.cookies.get('docpipe_eid_browser')!.value;
    secrets.add(value);
    // Only the value's hash is kept beside the state.
    const row = await t.db
      .selectFrom('signing_logins')
      .selectAll()
      .where('case_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.browser_hash).toEqual(createHash('sha256').update(value).digest());
    expect(JSON.stringify(row)).not.toContain(value);

    const callback = await op.login(atBroker.href, { account: 'mitid-anna' });
    const answer = await browser.get(callback.href);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/sign/done?eid=signed&lang=en');
    // The return cookie is spent, and so is the login.
    expect(browser.cookies.has('docpipe_sign_return')).toBe(false);
    expect(browser.cookies.has('docpipe_eid_browser')).toBe(false);
    expect(await loginRows(id)).toBe(0);
    const done = await browser.get(answer.headers.get('location')!);
    expect(done.status).toBe(200);
    await done.body?.cancel();

    const signatures = await signaturesOf(id);
    expect(signatures).toHaveLength(1);
    const signature = signatures[0]!;
    expect(signature).toMatchObject({
      method: SUBSTANTIAL,
      typed_name: null,
      image: null,
      cpr_matched: null,
      ip: '127.0.0.1',
      user_agent: 'signing-eid test',
    });
    const identity = signature.identity as { subject: string; claims: Record<string, unknown> };
    expect(identity.subject).toBe('mitid-anna');
    expect(identity.claims).toMatchObject({
      sub: 'mitid-anna',
      name: 'Anna Hansen',
      acr: SUBSTANTIAL,
      broker: 'eid',
      issuer: op.issuer,
    });
    expect(Math.abs(Date.parse(identity.claims.authTime as string) - Date.now())).toBeLessThan(
      60_000,
    );
    // The broker gave Anna's CPR number; no part of the row keeps it.
    const text = JSON.stringify(signature);
    expect(text).toContain('mitid-anna');
    expect(text).not.toContain(ANNA_CPR);
    expect(text).not.toContain('cprNumberIdentifier');

    expect(await statusOf(id)).toEqual(['signed']);
    expect(await eventsOf(id)).toEqual(['case.created', 'recipient.signed']);
    expect(await pageApi(token)).toBe(404);
  });

  it('signs a recipient given a CPR number when the broker’s is the same', async () => {
    // Written with the dash: both sides are brought to their ten digits.
    const { id, token } = await v2CprCase('010190-1234');
    const { answer } = await eidLogin(token, { account: 'mitid-anna' });
    expect(answer.status).toBe(302);
    // A v2 case is Danish.
    expect(answer.headers.get('location')).toBe('/sign/done?eid=signed&lang=da');
    const signatures = await signaturesOf(id);
    expect(signatures).toHaveLength(1);
    expect(signatures[0]).toMatchObject({ method: SUBSTANTIAL, cpr_matched: true });
    expect(JSON.stringify(signatures[0])).not.toContain(ANNA_CPR);
    expect(await statusOf(id)).toEqual(['signed']);
    expect(await eventsOf(id)).toEqual(['case.created', 'recipient.signed']);
  });

  it('records nothing when the broker’s CPR number is another person’s, and the right person signs after', async () => {
    const { id, token } = await v2CprCase(ANNA_CPR);
    const bo = await eidLogin(token, { account: 'mitid-bo' });
    expect(bo.answer.status).toBe(302);
    expect(bo.answer.headers.get('location')).toBe(`/sign/${token}?eid=mismatch`);
    expect(await signaturesOf(id)).toEqual([]);
    expect(await statusOf(id)).toEqual(['pending']);
    expect(await eventsOf(id)).toEqual(['case.created']);
    expect(await loginRows(id)).toBe(0);
    // The page the signer is sent back to opens, and the link still signs.
    const back = await bo.browser.get(bo.answer.headers.get('location')!);
    expect(back.status).toBe(200);
    await back.body?.cancel();
    expect(await pageApi(token)).toBe(200);

    const anna = await eidLogin(token, { account: 'mitid-anna' });
    expect(anna.answer.headers.get('location')).toBe('/sign/done?eid=signed&lang=da');
    const signatures = await signaturesOf(id);
    expect(signatures).toHaveLength(1);
    expect(signatures[0]).toMatchObject({ cpr_matched: true });
    expect((signatures[0]!.identity as { subject: string }).subject).toBe('mitid-anna');
  });

  it('records nothing when the signer cancels at the broker, or logs in below the scheme’s level', async () => {
    const { id, tokens } = await v3Case([{ name: 'Anna Hansen', email: 'anna@example.com' }]);
    const token = tokens[0]!;
    const cancelled = await eidLogin(token, 'cancel');
    expect(cancelled.callback.searchParams.get('error')).toBe('access_denied');
    expect(cancelled.answer.status).toBe(302);
    expect(cancelled.answer.headers.get('location')).toBe(`/sign/${token}?eid=cancelled`);

    const weaker = await eidLogin(token, { account: 'mitid-anna', acr: LOW });
    expect(weaker.answer.headers.get('location')).toBe(`/sign/${token}?eid=failed`);

    // The login came back to another browser than it started in: it has no way back either.
    const browser = new Browser();
    const start = await browser.get(`/sign/${token}/eid?scheme=${encodeURIComponent(SUBSTANTIAL)}`);
    const elsewhere = await new Browser().get(
      (await op.cancel(start.headers.get('location')!)).href,
    );
    expect(elsewhere.headers.get('location')).toBe('/sign/done?eid=elsewhere');

    expect(await signaturesOf(id)).toEqual([]);
    expect(await statusOf(id)).toEqual(['pending']);
    expect(await eventsOf(id)).toEqual(['case.created']);
    expect(await loginRows(id)).toBe(0);
    expect(await pageApi(token)).toBe(200);
  });

  it('records nothing when the case closed while the signer was at the broker', async () => {
    const { id, tokens } = await v3Case([{ name: 'Anna Hansen', email: 'anna@example.com' }]);
    const token = tokens[0]!;
    const browser = new Browser();
    const start = await browser.get(`/sign/${token}/eid?scheme=${encodeURIComponent(SUBSTANTIAL)}`);
    const callback = await op.login(start.headers.get('location')!, { account: 'mitid-anna' });
    // Meanwhile, in another tab, the signer denies.
    const loaded = await fetch(new URL(`/sign/${token}/api`, publicUrl));
    const { csrfToken } = (await loaded.json()) as { csrfToken: string };
    const denied = await fetch(new URL(`/sign/${token}/api/deny`, publicUrl), {
      method: 'POST',
      headers: { 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'Changed my mind' }),
    });
    expect(denied.status).toBe(200);
    await denied.body?.cancel();

    const answer = await browser.get(callback.href);
    expect(answer.headers.get('location')).toBe(`/sign/${token}?eid=closed`);
    expect(await signaturesOf(id)).toEqual([]);
    expect(await statusOf(id)).toEqual(['denied']);
    expect(await eventsOf(id)).toEqual(['case.created', 'case.denied']);
  });

  it('takes a callback once: the same code and state again, or twice at once, open nothing', async () => {
    const { id, tokens } = await v3Case([
      {
        name: 'Anna Hansen',
        email: 'anna@example.com',
        redirectUrl: 'https://acme.example/thanks',
      },
    ]);
    const browser = new Browser();
    const start = await browser.get(
      `/sign/${tokens[0]}/eid?scheme=${encodeURIComponent(SUBSTANTIAL)}`,
    );
    const callback = await op.login(start.headers.get('location')!, { account: 'mitid-anna' });
    // Two tabs (or a retried request) bring the same callback at once, the cookie in both.
    const answers = await Promise.all([browser.get(callback.href), browser.get(callback.href)]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([302, 404]);
    const signed = answers.find((a) => a.status === 302)!;
    expect(signed.headers.get('location')).toBe('https://acme.example/thanks');
    await expectNotFoundPage(answers.find((a) => a.status === 404)!);

    // Later, replayed from another browser.
    await expectNotFoundPage(await new Browser().get(callback.href));
    expect(await signaturesOf(id)).toHaveLength(1);
    expect(await eventsOf(id)).toEqual(['case.created', 'recipient.signed']);
  });

  it('starts no login for a scheme the recipient may not use, a group not yet signing, or a link that opens nothing', async () => {
    const { id, tokens } = await v3Case([
      { name: 'Anna Hansen', email: 'anna@example.com', group: 1 },
      { name: 'Bo Jensen', email: 'bo@example.com', group: 2 },
    ]);
    const browser = new Browser();
    const start = (token: string, scheme: string) =>
      browser.get(`/sign/${token}/eid?scheme=${encodeURIComponent(scheme)}`);
    // LOW is served by the broker, but this case signs with SUBSTANTIAL.
    await expectNotFoundPage(await start(tokens[0]!, LOW));
    await expectNotFoundPage(await start(tokens[0]!, 'draw'));
    await expectNotFoundPage(await start(tokens[0]!, 'urn:grn:authn:se:bankid'));
    // Bo's group waits for Anna's.
    await expectNotFoundPage(await start(tokens[1]!, SUBSTANTIAL));
    const before = await t.db.selectFrom('signing_logins').select('state_hash').execute();
    await expectNotFoundPage(await start('A'.repeat(43), SUBSTANTIAL));
    await expectNotFoundPage(
      await start(
        tokens[0]!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
        SUBSTANTIAL,
      ),
    );
    const after = await t.db.selectFrom('signing_logins').select('state_hash').execute();
    expect(after).toHaveLength(before.length);
    expect(await loginRows(id)).toBe(0);
    expect(browser.cookies.size).toBe(0);
    // The right scheme on the right link does start one.
    const right = await start(tokens[0]!, SUBSTANTIAL);
    expect(right.status).toBe(302);
    expect(await loginRows(id)).toBe(1);
  });

  it('signs a case whose document must be read first (the page holds the eID buttons back until it is)', async () => {
    const { id, tokens } = await v3Case([{ name: 'Anna Hansen', email: 'anna@example.com' }]);
    // v2's documentMustBeRead, as the row keeps it.
    await t.db
      .updateTable('case_documents')
      .set({ must_be_read: true })
      .where('case_id', '=', id)
      .execute();
    const { answer } = await eidLogin(tokens[0]!, { account: 'mitid-anna' });
    expect(answer.headers.get('location')).toBe('/sign/done?eid=signed&lang=en');
    expect(await signaturesOf(id)).toHaveLength(1);
  });

  it('signs only in the browser that started the login: a broker URL sent to someone else signs nothing, and its starter cannot finish it after', async () => {
    const { id, tokens } = await v3Case([{ name: 'Anna Hansen', email: 'anna@example.com' }]);
    const token = tokens[0]!;
    // Someone who holds the link starts the login and sends the broker's URL on.
    const starter = new Browser();
    const start = await starter.get(`/sign/${token}/eid?scheme=${encodeURIComponent(SUBSTANTIAL)}`);
    expect(start.status).toBe(302);
    // The victim logs in with their own eID, and the broker sends their browser back.
    const callback = await op.login(start.headers.get('location')!, { account: 'mitid-bo' });
    const victim = new Browser();
    const answer = await victim.get(callback.href);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/sign/done?eid=elsewhere');
    const told = await victim.get(answer.headers.get('location')!);
    expect(await told.text()).toContain('came back to another browser');
    expect(await signaturesOf(id)).toEqual([]);
    expect(await loginRows(id)).toBe(0);

    // The starter brings the victim's callback, with the cookie: the login was spent.
    await expectNotFoundPage(await starter.get(callback.href));
    expect(await signaturesOf(id)).toEqual([]);
    expect(await statusOf(id)).toEqual(['pending']);
    expect(await eventsOf(id)).toEqual(['case.created']);
    expect(await pageApi(token)).toBe(200);
  });

  it('signs nothing when the browser brings another login’s cookie, and goes back to its page', async () => {
    const { id, tokens } = await v3Case([{ name: 'Anna Hansen', email: 'anna@example.com' }]);
    const token = tokens[0]!;
    const browser = new Browser();
    const start = await browser.get(`/sign/${token}/eid?scheme=${encodeURIComponent(SUBSTANTIAL)}`);
    const callback = await op.login(start.headers.get('location')!, { account: 'mitid-anna' });
    browser.cookies.set('docpipe_eid_browser', {
      value: randomBytes(32).toString('base64url'),
      path: CALLBACK_PATH,
    });
    const answer = await browser.get(callback.href);
    expect(answer.headers.get('location')).toBe(`/sign/${token}?eid=elsewhere`);
    expect(browser.cookies.has('docpipe_eid_browser')).toBe(false);
    expect(await signaturesOf(id)).toEqual([]);
    expect(await loginRows(id)).toBe(0);
    expect(await statusOf(id)).toEqual(['pending']);
  });

  it(`keeps at most ${MAX_PENDING_LOGINS} logins under way per recipient, and the newest signs`, async () => {
    const { id, tokens } = await v3Case([{ name: 'Anna Hansen', email: 'anna@example.com' }]);
    const token = tokens[0]!;
    const started: { browser: Browser; atBroker: string }[] = [];
    for (let i = 0; i < MAX_PENDING_LOGINS + 3; i += 1) {
      const browser = new Browser();
      const start = await browser.get(
        `/sign/${token}/eid?scheme=${encodeURIComponent(SUBSTANTIAL)}`,
      );
      expect(start.status).toBe(302);
      started.push({ browser, atBroker: start.headers.get('location')! });
    }
    expect(await loginRows(id)).toBe(MAX_PENDING_LOGINS);
    // The oldest is gone: its callback opens nothing.
    const oldest = started[0]!;
    const late = await oldest.browser.get(
      (await op.login(oldest.atBroker, { account: 'mitid-anna' })).href,
    );
    await expectNotFoundPage(late);
    const newest = started.at(-1)!;
    const signed = await newest.browser.get(
      (await op.login(newest.atBroker, { account: 'mitid-anna' })).href,
    );
    expect(signed.headers.get('location')).toBe('/sign/done?eid=signed&lang=en');
    expect(await signaturesOf(id)).toHaveLength(1);
  });

  it('keeps the signing tokens, the broker’s codes and the logins’ states out of the log', () => {
    const callbacks = logLines.filter((l) => l.includes(`"url":"${CALLBACK_PATH}?code=[redacted]`));
    expect(callbacks.length).toBeGreaterThan(5);
    expect(logLines.some((l) => l.includes('"url":"/sign/[token]/eid?scheme='))).toBe(true);
    expect(secrets.size).toBeGreaterThan(20);
    const leaked = logLines.filter((l) => [...secrets].some((secret) => l.includes(secret)));
    expect(leaked).toEqual([]);
  });
});

/** The case rows of acme: a refused create adds none. */
async function caseCount(): Promise<number> {
  const rows = await t.db
    .selectFrom('cases')
    .select('id')
    .where('company_id', '=', 'acme')
    .execute();
  return rows.length;
}

/** A typed signature through the signing page's API, with the page's CSRF token. */
async function signTyped(token: string, name: string) {
  const loaded = await fetch(new URL(`/sign/${token}/api`, publicUrl));
  const { csrfToken } = (await loaded.json()) as { csrfToken: string };
  const res = await fetch(new URL(`/sign/${token}/api/sign`, publicUrl), {
    method: 'POST',
    headers: { 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'typed', name }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('needsCpr: only an eID whose CPR number is the stored one signs', () => {
  const anna = { name: 'Anna Hansen', email: 'anna@example.com', signing: true };
  const v2Body = (recipient: object, signingSchemas: string[] = [SUBSTANTIAL]) => ({
    title: 'Lease',
    signingSchemas,
    recipients: [{ ...anna, ...recipient }],
    documents: [{ name: 'lease.pdf', file: pdf, fileIsBlob: true }],
  });

  it('refuses at creation, naming the field, a case that cannot check the CPR number, and writes nothing', async () => {
    const before = await caseCount();
    const v3 = await api('POST', '/v3/api/cases', {
      title: 'Lease',
      senderEmail: 'owner@acme.example',
      settings: { signingSchemas: [SUBSTANTIAL] },
      recipients: [{ name: 'Anna Hansen', email: 'anna@example.com', needsCpr: true }],
      documents: [{ name: 'lease.pdf', content: pdf }],
    });
    expect(v3.status).toBe(400);
    expect(v3.json).toMatchObject({
      error: 'validation-failed',
      details: [{ field: 'recipients[0].needsCpr', message: expect.stringMatching(/CPR number/) }],
    });

    const descriptions = async (body: object) => {
      const res = await api('POST', '/api/v2/acme/case/create', body);
      expect(res.status, JSON.stringify(res.json)).toBe(400);
      return (res.json.errors as { description: string }[]).map((e) => e.description);
    };
    expect(await descriptions(v2Body({ needsCpr: true }))).toEqual([
      expect.stringMatching(/^recipients\[0\]\.needsCpr: needs the recipient's CPR number/),
    ]);
    // Only draw, the case's or the recipient's own: nothing would compare the number.
    expect(await descriptions(v2Body({ needsCpr: true, cpr: ANNA_CPR }, ['draw']))).toEqual([
      expect.stringMatching(/^recipients\[0\]\.needsCpr: needs one of .*mitid:substantial/),
    ]);
    expect(
      await descriptions(v2Body({ needsCpr: true, cpr: ANNA_CPR, signingSchema: 'draw' })),
    ).toEqual([expect.stringMatching(/^recipients\[0\]\.needsCpr: .*it has draw$/)]);
    expect(await caseCount()).toBe(before);
  });

  it('signs with nothing but a matching eID when the case holds no CPR number (made before creation refused that)', async () => {
    const made = await api('POST', '/v3/api/cases', {
      title: 'Lease',
      senderEmail: 'owner@acme.example',
      settings: { signingSchemas: ['draw', SUBSTANTIAL] },
      recipients: [{ name: 'Anna Hansen', email: 'anna@example.com' }],
      documents: [{ name: 'lease.pdf', content: pdf }],
    });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    const kase = made.json.case as { id: string; recipients: { signingUrl: string }[] };
    const token = tokenOf(kase.recipients[0]!.signingUrl);
    await t.db
      .updateTable('recipients')
      .set({ details: JSON.stringify({ needsCpr: true }) })
      .where('case_id', '=', kase.id)
      .execute();

    const typed = await signTyped(token, 'Anna Hansen');
    expect(typed.status).toBe(400);
    expect(typed.json).toMatchObject({
      error: 'validation-failed',
      details: [{ field: 'method', message: expect.stringMatching(/^must be an eID/) }],
    });
    // The page offers the eID alone.
    const loaded = await fetch(new URL(`/sign/${token}/api`, publicUrl));
    const view = (await loaded.json()) as { recipient: { methods: string[]; needsCpr: boolean } };
    expect(view.recipient).toMatchObject({ methods: [SUBSTANTIAL], needsCpr: true });

    // An eID with a CPR claim has nothing to match, and one without has no claim.
    for (const account of ['mitid-anna', 'mitid-cy']) {
      const { answer } = await eidLogin(token, { account });
      expect(answer.headers.get('location'), account).toBe(`/sign/${token}?eid=mismatch`);
    }
    expect(await signaturesOf(kase.id)).toEqual([]);
    expect(await statusOf(kase.id)).toEqual(['pending']);
    expect(await eventsOf(kase.id)).toEqual(['case.created']);
  });

  it('signs nothing with an eID that gives no CPR number, where the case holds one', async () => {
    const { id, token } = await v2CprCase(ANNA_CPR);
    const { answer } = await eidLogin(token, { account: 'mitid-cy' });
    expect(answer.headers.get('location')).toBe(`/sign/${token}?eid=mismatch`);
    expect(await signaturesOf(id)).toEqual([]);
    expect(await statusOf(id)).toEqual(['pending']);
  });
});
