import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyUseRecorder } from '../../src/service/keys/index.js';
import { verifySignature } from '../../src/service/webhooks/index.js';
import {
  startPagesStack,
  type PagesServer,
  type PagesStack,
  type TestMember,
} from '../helpers/pages-stack.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * The dashboard's API keys and webhooks pages over a real socket, with a real PostgreSQL and
 * Redis: a key shown once and working over v3, revoked to key-revoked; webhooks refused as the
 * CLI refuses them, a test event delivered to a receiver started here and its run's page.
 * `server` refuses private destinations (the default); `loopback` allows them, as the webhook
 * tests do (DOCPIPE_WEBHOOK_ALLOW_PRIVATE), so that the receiver on 127.0.0.1 can be reached.
 */
let stack: PagesStack;
let server: PagesServer;
let loopback: PagesServer;
let receiver: WebhookReceiver;
let admin: TestMember;
let member: TestMember;
let other: TestMember;

beforeAll(async () => {
  stack = await startPagesStack();
  [server, loopback, receiver] = await Promise.all([
    stack.server(),
    stack.server({ DOCPIPE_WEBHOOK_ALLOW_PRIVATE: 'true' }),
    startWebhookReceiver({ default: { status: 200, body: 'ok from the receiver' } }),
  ]);
  admin = await stack.member({ company: 'acme', email: 'ann@acme.example', admin: true });
  member = await stack.member({ company: 'acme', email: 'bo@acme.example' });
  other = await stack.member({ company: 'globex', email: 'gil@globex.example', admin: true });
});
afterAll(async () => {
  await receiver?.close();
  await stack?.close();
});

/** A browser of one member: its cookies, the CSRF token of the last page, GETs and form POSTs. */
function browserOf(who: TestMember, at: () => PagesServer = () => server) {
  let csrfCookie = '';
  let token = '';
  const cookie = () =>
    [`${who.cookie.name}=${who.cookie.value}`, csrfCookie].filter(Boolean).join('; ');
  const remember = (res: Response, html: string) => {
    const set = res.headers.getSetCookie().find((c) => c.startsWith('docpipe_csrf='));
    if (set) csrfCookie = set.split(';')[0]!;
    token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? token;
  };
  return {
    async get(path: string): Promise<{ status: number; html: string; res: Response }> {
      const res = await fetch(`${at().url}${path}`, {
        headers: { cookie: cookie(), 'accept-language': 'en' },
        redirect: 'manual',
      });
      const html = await res.text();
      remember(res, html);
      return { status: res.status, html, res };
    },
    async post(
      path: string,
      form: Record<string, string | string[]> = {},
      headers: Record<string, string> = {},
    ): Promise<{ status: number; html: string; res: Response }> {
      if (token === '') await this.get('/dashboard/keys');
      const body = new URLSearchParams();
      for (const [k, v] of Object.entries(form))
        for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
      body.append('_csrf', token);
      const res = await fetch(`${at().url}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie: cookie(),
          origin: at().url,
          'accept-language': 'en',
          'content-type': 'application/x-www-form-urlencoded',
          ...headers,
        },
        body,
      });
      const html = await res.text();
      remember(res, html);
      return { status: res.status, html, res };
    },
  };
}

const v3 = (key: string) =>
  fetch(`${server.url}/v3/api/cases`, { headers: { authorization: `Bearer ${key}` } });

/** The text of the element with this id (one line, no tags). */
function textOf(html: string, id: string): string | undefined {
  const m = new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</`).exec(html);
  return m?.[1]?.trim();
}

/** The page's main content: what differs between two answers apart from their own path. */
const mainOf = (html: string) => /<main[\s\S]*<\/main>/.exec(html)?.[0];

const decode = (text: string) =>
  text.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&');

describe('the API keys page', () => {
  it('creates a key shown once, lists it without its secret, and the key works over v3', async () => {
    const ann = browserOf(admin);
    const page = await ann.get('/dashboard/keys');
    expect(page.status).toBe(200);
    expect(textOf(page.html, 'company-id')).toBe('acme');
    const created = await ann.post('/dashboard/keys', { name: 'Invoice server', expires: '30' });
    expect(created.status).toBe(200);
    expect(created.res.headers.get('cache-control')).toBe('no-store');
    const key = textOf(created.html, 'new-key')!;
    expect(key).toMatch(/^dp_live_[0-9a-f]{16}_[0-9a-f]{64}$/);
    expect(created.html).toContain('class="secret"');
    expect(created.html).toContain('<copy-button for="new-key"');
    expect(created.html).toContain(`${server.url}/v3/api/cases`);
    expect(created.html).toContain(`${server.url}/v3/company/acme/file/upload`);
    expect(created.html).toContain('It is not shown again');

    const id = key.split('_')[2]!;
    const list = await ann.get('/dashboard/keys');
    expect(list.html).toContain('Invoice server');
    expect(list.html).toContain(`dp_live_${id}_…`);
    expect(list.html).not.toContain(key.slice(-64));
    expect(list.html).toContain('ann');

    expect((await v3(key)).status).toBe(200);
    const stored = (await stack.keys.list({ company: 'acme' })).find((k) => k.id === id)!;
    expect(stored.name).toBe('Invoice server');
    expect(stored.expiresAt!.getTime() - stored.createdAt.getTime()).toBe(30 * 24 * 3600_000);
  });

  it('revokes after a confirmation step, and the key answers 401 key-revoked', async () => {
    const ann = browserOf(admin);
    const created = await ann.post('/dashboard/keys', { name: 'To revoke', expires: 'never' });
    const key = textOf(created.html, 'new-key')!;
    const id = key.split('_')[2]!;
    const confirm = await ann.get(`/dashboard/keys/${id}/revoke`);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain('Revoke key To revoke?');
    // Nothing is revoked by looking at the question.
    expect((await stack.keys.verify(key)).ok).toBe(true);
    const revoked = await ann.post(`/dashboard/keys/${id}/revoke`);
    expect(revoked.status).toBe(303);
    expect(revoked.res.headers.get('location')).toBe(`/dashboard/keys?revoked=${id}`);
    const res = await v3(key);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe('key-revoked');
    const list = await ann.get(`/dashboard/keys?revoked=${id}`);
    expect(list.html).toContain('The key To revoke is revoked.');
    expect(list.html).toMatch(/Revoked \d/);
  });

  it('names every problem of the form next to its field', async () => {
    const ann = browserOf(admin);
    const refused = await ann.post('/dashboard/keys', { name: '  ', expires: '7' });
    expect(refused.status).toBe(400);
    expect(textOf(refused.html, 'field-name-error')).toBe('Give the key a name.');
    expect(textOf(refused.html, 'field-expires-error')).toBe('Choose when the key expires.');
  });

  it('lists keys made by the CLI, with their user, and one without a user as CLI', async () => {
    const made = await stack.keys.create({ company: 'acme', user: 'bo@acme.example', name: 'cli' });
    await stack.t.db
      .insertInto('api_keys')
      .values({
        id: 'abcdef0123456789',
        company_id: 'acme',
        user_id: null,
        name: 'from redis',
        hash: Buffer.alloc(32, 1),
        copied_from_redis_at: new Date(),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    const list = await browserOf(admin).get('/dashboard/keys');
    const row = (name: string) =>
      new RegExp(`<th scope="row" data-label="Name">${name}</th>([\\s\\S]*?)</tr>`).exec(
        list.html,
      )?.[1] ?? '';
    expect(row('cli')).toContain('<td data-label="Created by">bo</td>');
    expect(row('cli')).toContain(`dp_live_${made.id}_…`);
    expect(row('from redis')).toContain('CLI (no user)');
    expect(row('from redis')).toContain('dp_abcdef0123456789_…');
    // A removed member's key: no user, refused with key-has-no-user, and still revocable.
    const left = await stack.keys.create({
      company: 'acme',
      user: 'ann@acme.example',
      name: 'left',
    });
    await stack.t.db
      .updateTable('api_keys')
      .set({ user_id: null })
      .where('id', '=', left.id)
      .execute();
    const after = await browserOf(admin).get('/dashboard/keys');
    const leftRow =
      new RegExp(`<th scope="row" data-label="Name">left</th>([\\s\\S]*?)</tr>`).exec(
        after.html,
      )?.[1] ?? '';
    expect(leftRow).toContain('A removed member');
    expect(leftRow).toContain('Refused: its member was removed');
    expect(leftRow).toContain(`/dashboard/keys/${left.id}/revoke`);
  });

  it("records a key's last use at most once a minute, beside the request", async () => {
    const made = await stack.keys.create({ company: 'acme', user: 'ann@acme.example' });
    let now = Date.parse('2026-12-01T10:00:00Z');
    const recorder = new KeyUseRecorder(stack.t.db, { now: () => now });
    const lastUsed = async () =>
      (
        await stack.t.db
          .selectFrom('api_keys')
          .select('last_used_at')
          .where('id', '=', made.id)
          .executeTakeFirstOrThrow()
      ).last_used_at;
    recorder.used(made.id);
    await recorder.settled();
    expect((await lastUsed())?.toISOString()).toBe('2026-12-01T10:00:00.000Z');
    now += 30_000;
    recorder.used(made.id);
    await recorder.settled();
    expect((await lastUsed())?.toISOString()).toBe('2026-12-01T10:00:00.000Z');
    now += 31_000;
    recorder.used(made.id);
    await recorder.settled();
    expect((await lastUsed())?.toISOString()).toBe('2026-12-01T10:01:01.000Z');
    const listed = (await stack.keys.list({ company: 'acme' })).find((k) => k.id === made.id);
    expect(listed?.lastUsedAt?.toISOString()).toBe('2026-12-01T10:01:01.000Z');
  });

  it('answers a member who is not an admin with 403, on keys and webhooks alike', async () => {
    const bo = browserOf(member);
    for (const path of ['/dashboard/keys', '/dashboard/webhooks']) {
      const page = await bo.get(path);
      expect(page.status).toBe(403);
      expect(page.html).toContain('Only admins can open this page');
    }
    expect((await bo.post('/dashboard/keys', { name: 'x' })).status).toBe(403);
    expect((await stack.keys.list({ company: 'acme' })).some((k) => k.name === 'x')).toBe(false);
  });

  it("answers another company's key with the not-found page, and leaves it working", async () => {
    const theirs = await stack.keys.create({ company: 'acme', user: 'ann@acme.example' });
    const gil = browserOf(other);
    const confirm = await gil.get(`/dashboard/keys/${theirs.id}/revoke`);
    expect(confirm.status).toBe(404);
    expect(confirm.html).toContain('Page not found');
    const absent = await gil.get('/dashboard/keys/0000000000000000/revoke');
    expect(absent.status).toBe(404);
    expect(mainOf(absent.html)).toBe(mainOf(confirm.html));
    expect((await gil.post(`/dashboard/keys/${theirs.id}/revoke`)).status).toBe(404);
    expect((await stack.keys.verify(theirs.key)).ok).toBe(true);
  });
});

describe('the webhooks pages', () => {
  it('refuses a private URL with the destination guard’s reason next to URL, with every other problem', async () => {
    const ann = browserOf(admin);
    const refused = await ann.post('/dashboard/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      method: 'DELETE',
      headers: 'Host: evil.example\nX-Docpipe-Event: fake',
    });
    expect(refused.status).toBe(400);
    const url = decode(textOf(refused.html, 'field-url-error') ?? '');
    // In the page's words, once refused, and with the operator's setting for who runs docpipe.
    expect(url).toContain('127.0.0.1 is a private address (127.0.0.1)');
    expect(url).not.toMatch(/refused/i);
    expect(url).toContain('DOCPIPE_WEBHOOK_ALLOW_PRIVATE=true');
    expect(decode(textOf(refused.html, 'field-method-error') ?? '')).toContain(
      'must be POST, PUT or PATCH',
    );
    const headers = decode(textOf(refused.html, 'field-headers-error') ?? '');
    expect(headers).toContain('Host is set by docpipe');
    expect(headers).toContain("X-Docpipe-Event is docpipe's own");
    expect(textOf(refused.html, 'field-triggers-error')).toBe('Choose at least one trigger.');
    // The form comes back as it was typed.
    expect(refused.html).toContain('value="http://127.0.0.1:9/hook"');
    expect(await stack.t.db.selectFrom('webhooks').selectAll().execute()).toEqual([]);
  });

  it('adds a webhook, shows its secret once, sends a test event to a receiver and lists the run', async () => {
    const ann = browserOf(admin, () => loopback);
    const added = await ann.post('/dashboard/webhooks', {
      url: `${receiver.url}/hook?token=1`,
      method: 'POST',
      active: 'on',
      headers: 'X-Shared: s3cret',
      triggers: ['case.created', 'case.signed'],
    });
    expect(added.status).toBe(200);
    const secret = textOf(added.html, 'webhook-secret')!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const id = /href="\/dashboard\/webhooks\/([0-9a-f-]{36})"/.exec(added.html)![1]!;
    const list = await ann.get('/dashboard/webhooks');
    expect(list.html).toContain(`${receiver.url}/hook?token=1`);
    expect(list.html).not.toContain(secret);

    const before = receiver.requests.length;
    const sent = await ann.post(`/dashboard/webhooks/${id}/test`);
    expect(sent.status).toBe(303);
    const location = sent.res.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^/dashboard/webhooks/${id}\\?tested=[0-9a-f-]{36}$`));
    const got = (await receiver.waitFor(before + 1))[before]!;
    expect(got.url).toBe('/hook?token=1');
    expect(got.headers['x-docpipe-event']).toBe('webhook.test');
    expect(got.headers['x-shared']).toBe('s3cret');
    expect(
      verifySignature(
        secret,
        String(got.headers['x-docpipe-timestamp']),
        got.body,
        String(got.headers['x-docpipe-signature']),
      ),
    ).toBe(true);
    expect(JSON.parse(got.body)).toMatchObject({
      trigger: 'webhook.test',
      test: true,
      webhook: { _id: id },
    });

    const page = await ann.get(location);
    expect(page.html).toContain('The test event was delivered: 200 in');
    expect(page.html).toContain('Recent runs');
    const run = location.split('tested=')[1]!;
    expect(page.html).toContain(`href="/dashboard/webhooks/${id}/runs/${run}"`);
    expect(page.html).toContain('Delivered (200)');

    const runPage = await ann.get(`/dashboard/webhooks/${id}/runs/${run}`);
    expect(runPage.status).toBe(200);
    const text = decode(runPage.html);
    expect(text).toContain('X-Docpipe-Event: webhook.test');
    expect(text).toContain(`X-Docpipe-Delivery: ${run}`);
    expect(text).toContain(`X-Docpipe-Signature: ${String(got.headers['x-docpipe-signature'])}`);
    expect(text).toContain(`X-Docpipe-Timestamp: ${String(got.headers['x-docpipe-timestamp'])}`);
    expect(text).toContain('X-Shared: s3cret');
    expect(text).toContain('"trigger": "webhook.test"');
    expect(text).toContain('ok from the receiver');

    // A replay sends the same body again, through the service's replay.
    const replayed = await ann.post(`/dashboard/webhooks/${id}/runs/${run}/replay`);
    expect(replayed.status).toBe(303);
    const again = (await receiver.waitFor(before + 2))[before + 1]!;
    expect(again.body).toBe(got.body);
    expect(again.headers['x-docpipe-delivery']).toBe(run);
    const afterReplay = await ann.get(replayed.res.headers.get('location')!);
    expect(afterReplay.html).toContain('The run was replayed: delivered (200).');
    expect(afterReplay.html).toContain('Try 2');
  });

  it('edits a webhook by the same rules, rotates its secret, and removes it after asking', async () => {
    const ann = browserOf(admin, () => loopback);
    const added = await ann.post('/dashboard/webhooks', {
      url: `${receiver.url}/edit`,
      active: 'on',
      triggers: '*',
    });
    const first = textOf(added.html, 'webhook-secret')!;
    const id = /href="\/dashboard\/webhooks\/([0-9a-f-]{36})"/.exec(added.html)![1]!;
    const refused = await ann.post(`/dashboard/webhooks/${id}`, {
      url: 'ftp://example.com/x',
      method: 'PUT',
      triggers: 'case.nothing',
    });
    expect(refused.status).toBe(400);
    expect(textOf(refused.html, 'field-url-error')).toContain('must be http or https');
    expect(decode(textOf(refused.html, 'field-triggers-error') ?? '')).toContain(
      '"case.nothing" is no trigger',
    );
    const empty = await ann.post(`/dashboard/webhooks/${id}`, { url: ' ', triggers: '*' });
    expect(textOf(empty.html, 'field-url-error')).toBe(
      'Give the URL where your system takes the events.',
    );
    const saved = await ann.post(`/dashboard/webhooks/${id}`, {
      url: `${receiver.url}/edited`,
      method: 'PUT',
      triggers: ['case.denied'],
      headers: 'X-One: 1',
    });
    expect(saved.status).toBe(303);
    const row = await stack.t.db
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      url: `${receiver.url}/edited`,
      method: 'PUT',
      active: false,
      triggers: ['case.denied'],
      headers: { 'X-One': '1' },
      secret: first,
    });
    expect((await ann.get(saved.res.headers.get('location')!)).html).toContain(
      'The webhook is saved.',
    );

    expect((await ann.get(`/dashboard/webhooks/${id}/rotate`)).html).toContain('a new secret?');
    const rotated = await ann.post(`/dashboard/webhooks/${id}/rotate`);
    const second = textOf(rotated.html, 'webhook-secret')!;
    expect(second).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);

    expect((await ann.get(`/dashboard/webhooks/${id}/remove`)).html).toContain(
      'Remove the webhook to',
    );
    const removed = await ann.post(`/dashboard/webhooks/${id}/remove`);
    expect(removed.status).toBe(303);
    expect(removed.res.headers.get('location')).toBe('/dashboard/webhooks?removed=1');
    expect(
      await stack.t.db.selectFrom('webhooks').select('id').where('id', '=', id).execute(),
    ).toEqual([]);
  });

  it("answers another company's webhook and run with the not-found page", async () => {
    const ann = browserOf(admin, () => loopback);
    const added = await ann.post('/dashboard/webhooks', {
      url: `${receiver.url}/theirs`,
      triggers: '*',
      active: 'on',
    });
    const id = /href="\/dashboard\/webhooks\/([0-9a-f-]{36})"/.exec(added.html)![1]!;
    const sent = await ann.post(`/dashboard/webhooks/${id}/test`);
    const run = sent.res.headers.get('location')!.split('tested=')[1]!;
    const gil = browserOf(other, () => loopback);
    const absent = await gil.get('/dashboard/webhooks/00000000-0000-0000-0000-000000000000');
    expect(absent.status).toBe(404);
    for (const path of [
      `/dashboard/webhooks/${id}`,
      `/dashboard/webhooks/${id}/runs/${run}`,
      `/dashboard/webhooks/${id}/remove`,
    ]) {
      const page = await gil.get(path);
      expect(page.status).toBe(404);
      expect(mainOf(page.html)).toBe(mainOf(absent.html));
    }
    for (const path of [`/dashboard/webhooks/${id}/test`, `/dashboard/webhooks/${id}/remove`])
      expect((await gil.post(path)).status).toBe(404);
    expect(
      await stack.t.db.selectFrom('webhooks').select('id').where('id', '=', id).execute(),
    ).toHaveLength(1);
  });

  it('pages 1,000 runs 25 at a time by cursor, newest first', async () => {
    const ann = browserOf(admin, () => loopback);
    const added = await ann.post('/dashboard/webhooks', {
      url: `${receiver.url}/many`,
      triggers: '*',
      active: 'on',
    });
    const id = /href="\/dashboard\/webhooks\/([0-9a-f-]{36})"/.exec(added.html)![1]!;
    const start = Date.parse('2026-11-01T00:00:00Z');
    await stack.t.db
      .insertInto('webhook_deliveries')
      .values(
        Array.from({ length: 1000 }, (_, i) => ({
          company_id: 'acme',
          webhook_id: id,
          event_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          trigger: 'case.created',
          body: `{"n":${i}}`,
          status: 'failed' as const,
          attempts: 1,
          // Two runs a second: ties on created_at are broken by id.
          created_at: new Date(start + Math.floor(i / 2) * 1000),
        })),
      )
      .execute();
    const runsOf = (html: string) =>
      [...html.matchAll(new RegExp(`/dashboard/webhooks/${id}/runs/([0-9a-f-]{36})`, 'g'))].map(
        (m) => m[1]!,
      );
    const seen = new Set<string>();
    let path = `/dashboard/webhooks/${id}`;
    let pages = 0;
    for (;;) {
      const page = await ann.get(path);
      const runs = runsOf(page.html);
      pages++;
      expect(runs.length).toBe(25);
      for (const r of runs) {
        expect(seen.has(r)).toBe(false);
        seen.add(r);
      }
      const next = /href="(\/dashboard\/webhooks\/[^"?]+\?after=[0-9a-f-]{36})#runs-title"/.exec(
        page.html,
      )?.[1];
      if (!next) break;
      path = next;
    }
    expect(pages).toBe(40);
    expect(seen.size).toBe(1000);
  });
});
