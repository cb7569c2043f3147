import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../../src/render/storage/index.js';
import {
  FolderRepository,
  MessageTemplateRepository,
  PresetRepository,
} from '../../src/service/companies/index.js';
import {
  startPagesStack,
  type PagesServer,
  type PagesStack,
  type TestMember,
} from '../helpers/pages-stack.js';
import { draftCase } from '../helpers/draft-case.js';
import { FormRepository } from '../../src/service/forms/index.js';
import { createWebflow } from '../../src/service/webflows/index.js';

/**
 * Company isolation on every dashboard route, read from the server's route table: a member (an
 * admin) of company B never sees or changes company A's keys, webhooks, runs, members, folders,
 * presets, templates or settings. Every route that names a thing by id is called by B with A's
 * id and with an id nobody has: both answers are the same not-found page, and afterwards A's
 * rows are exactly as before. Every page B can open without an id holds none of A's names. The
 * first test fails on a dashboard route whose id this file does not know how to make.
 */

let stack: PagesStack;
let server: PagesServer;
let a: TestMember;
let b: TestMember;
/** A's things by the path segment before their id, and the markers A's names carry. */
let ids: Record<string, string>;
const MARK = 'acme-private-marker';

/** The tables a company owns, as A's rows read now, for "changed nothing". */
async function snapshot(): Promise<string> {
  const db = stack.t.db;
  const rows = await Promise.all([
    db.selectFrom('companies').selectAll().where('id', '=', 'acme').execute(),
    db.selectFrom('users').selectAll().where('company_id', '=', 'acme').orderBy('id').execute(),
    db.selectFrom('api_keys').selectAll().where('company_id', '=', 'acme').orderBy('id').execute(),
    db.selectFrom('webhooks').selectAll().where('company_id', '=', 'acme').orderBy('id').execute(),
    db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('company_id', '=', 'acme')
      .orderBy('id')
      .execute(),
    db.selectFrom('folders').selectAll().where('company_id', '=', 'acme').orderBy('id').execute(),
    db.selectFrom('presets').selectAll().where('company_id', '=', 'acme').orderBy('id').execute(),
    db.selectFrom('forms').selectAll().where('company_id', '=', 'acme').orderBy('id').execute(),
    db.selectFrom('webflows').selectAll().where('company_id', '=', 'acme').orderBy('id').execute(),
    db
      .selectFrom('message_templates')
      .selectAll()
      .where('company_id', '=', 'acme')
      .orderBy('id')
      .execute(),
  ]);
  return JSON.stringify(rows);
}

beforeAll(async () => {
  stack = await startPagesStack();
  server = await stack.server();
  a = await stack.member({ company: 'acme', email: `owner@${MARK}.example`, admin: true });
  b = await stack.member({ company: 'globex', email: 'owner@globex.example', admin: true });
  const other = await stack.member({
    company: 'acme',
    email: `second@${MARK}.example`,
    admin: true,
  });
  const db = stack.t.db;
  const key = await stack.keys.create({ company: 'acme', user: a.email, name: `${MARK} key` });
  const webhook = await db
    .insertInto('webhooks')
    .values({
      company_id: 'acme',
      url: `https://${MARK}.example/hook`,
      headers: '{}',
      triggers: JSON.stringify(['case.created']),
      secret: 'a-secret-of-acme',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const run = await db
    .insertInto('webhook_deliveries')
    .values({
      company_id: 'acme',
      webhook_id: webhook.id,
      event_id: '00000000-0000-4000-8000-000000000001',
      trigger: 'case.created',
      body: JSON.stringify({ marker: MARK }),
      status: 'failed',
      attempts: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const folder = await new FolderRepository(db).add('acme', `${MARK} folder`);
  const preset = await new PresetRepository(db).add('acme', {
    id: 'acme-preset',
    name: `${MARK} preset`,
    settings: { expiresInDays: 7 },
  });
  const template = await new MessageTemplateRepository(db).add('acme', {
    id: 'acme-template',
    name: `${MARK} template`,
    subject: `${MARK} subject`,
    body: 'Please sign.',
  });
  const places = await draftCase(stack, 'acme', {
    title: `${MARK} draft`,
    recipients: [{ name: `${MARK} signer`, email: 'signer@example.com' }],
  });
  // A web-flow-enabled form of A's and a flow from it (issue 36's dashboard pages).
  await new FormRepository(db).replace(
    {
      company: 'acme',
      id: 'acme-survey',
      title: `${MARK} survey`,
      folder: null,
      active: true,
      webflow: true,
      settings: {},
      tags: [{ _id: 'tenant', name: `${MARK} question`, tag: 'tenant', value: null, type: 'text' }],
      recipients: [],
      documents: [],
    },
    new Date(),
  );
  const flow = await createWebflow(
    {
      db,
      signingSecret: 'isolation-secret',
      storage: new LocalStorage(join(stack.redis.dir, 'storage')),
    },
    {
      company: 'acme',
      keyUserId: a.userId,
      idempotencyKey: 'isolation-flow',
      body: {
        formId: 'acme-survey',
        title: `${MARK} flow`,
        recipients: [{ name: `${MARK} person`, email: 'person@example.com' }],
      },
    },
  );
  ids = {
    forms: 'acme-survey',
    flows: flow.webflow.id,
    keys: key.id,
    webhooks: webhook.id,
    runs: run.id,
    members: other.userId,
    folders: folder.id,
    presets: preset.id,
    templates: template.id,
    // The places editor's (issue 34): a draft of A's, its first document and page.
    cases: places.id,
    documents: '0',
    pages: '1',
  };
});
afterAll(() => stack?.close());

/**
 * Every dashboard route as `METHOD /path` (HEAD and OPTIONS left out: GET stands for them), from
 * Fastify's route tree (printRoutes draws each path as its segments, one level of indent each).
 */
function dashboardRoutes(): { method: string; path: string }[] {
  const table = server.app.printRoutes({ commonPrefix: false });
  const segments: string[] = [];
  const out: { method: string; path: string }[] = [];
  for (const line of table.split('\n')) {
    const at = line.indexOf('── ');
    if (at < 0) continue;
    const depth = Math.round(at / 4);
    const m = /^(\S+)(?: \(([A-Z, ]+)\))?/.exec(line.slice(at + 3));
    if (!m) continue;
    segments.length = depth;
    segments[depth] = m[1]!;
    const path = segments.join('');
    if (!m[2] || !path.startsWith('/dashboard')) continue;
    for (const method of m[2].split(', '))
      if (method !== 'HEAD' && method !== 'OPTIONS') out.push({ method, path });
  }
  return out;
}

/** The path with each `:param` replaced by A's thing of that kind (or `absent`'s stand-in). */
function filled(path: string, absent: boolean): string {
  const parts = path.split('/');
  return parts
    .map((part, i) => {
      if (!part.startsWith(':')) return part;
      const kind = part === ':run' ? 'runs' : parts[i - 1]!;
      const id = ids[kind];
      if (id === undefined) throw new Error(`${path}: no id of A's for ${part} after "${kind}"`);
      return absent ? (id.includes('-') ? '00000000-0000-4000-8000-00000000dead' : `x${id}`) : id;
    })
    .join('/');
}

async function call(
  member: TestMember,
  method: string,
  path: string,
): Promise<{ status: number; text: string }> {
  const cookie = `${member.cookie.name}=${member.cookie.value}`;
  // A form's CSRF token from B's own page: the refusal must be the company's, not the CSRF's.
  const page = await fetch(`${server.url}/dashboard`, { headers: { cookie } });
  const csrfCookie = page.headers.getSetCookie().find((c) => c.startsWith('docpipe_csrf='));
  const html = await page.text();
  const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const cookies = [cookie, ...(csrfCookie ? [csrfCookie.split(';')[0]!] : [])].join('; ');
  const res = await fetch(`${server.url}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      cookie: cookies,
      origin: server.url,
      ...(method === 'GET' ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
    },
    ...(method === 'GET'
      ? {}
      : {
          body: `_csrf=${encodeURIComponent(token)}&name=x&url=https%3A%2F%2Fx.example&subject=x&body=x&admin=true`,
        }),
  });
  // The page's own tokens differ from answer to answer, and its language switch names the path
  // it came from; the rest must not differ.
  const text = (await res.text()).replaceAll(path, 'PATH').replace(/[A-Za-z0-9_-]{43}/g, 'TOKEN');
  return { status: res.status, text };
}

describe('dashboard isolation', () => {
  it('knows how to name a thing of A on every dashboard route with an id', () => {
    const routes = dashboardRoutes();
    expect(routes.length).toBeGreaterThan(15);
    const withIds = routes.filter((r) => r.path.includes(':'));
    expect(withIds.length).toBeGreaterThan(5);
    for (const r of withIds) expect(() => filled(r.path, false), r.path).not.toThrow();
  });

  it("answers B's every request for A's things as for something absent, and changes nothing of A's", async () => {
    const before = await snapshot();
    const routes = dashboardRoutes().filter((r) => r.path.includes(':'));
    for (const r of routes) {
      const theirs = await call(b, r.method, filled(r.path, false));
      const nobodys = await call(b, r.method, filled(r.path, true));
      expect(theirs.status, `${r.method} ${r.path}`).toBe(404);
      expect(theirs, `${r.method} ${r.path}`).toEqual(nobodys);
      expect(theirs.text).not.toContain(MARK);
    }
    expect(await snapshot()).toBe(before);
    // The control: A reaches its own webhook's page through the same route.
    const own = await call(a, 'GET', `/dashboard/webhooks/${ids.webhooks}`);
    expect(own.status).toBe(200);
    expect(own.text).toContain(MARK);
  });

  it("shows B none of A's names on any page without an id", async () => {
    const pages = [
      ...new Set(
        dashboardRoutes()
          .filter((r) => r.method === 'GET' && !r.path.includes(':') && !r.path.includes('*'))
          .map((r) => r.path),
      ),
    ];
    expect(pages).toEqual(
      expect.arrayContaining([
        '/dashboard',
        '/dashboard/keys',
        '/dashboard/webhooks',
        '/dashboard/members',
        '/dashboard/settings',
      ]),
    );
    for (const path of pages) {
      const answer = await call(b, 'GET', path);
      // B has no logo: its logo's route answers 404 (A's is never what B gets).
      if (path.endsWith('/logo')) expect(answer.status, path).toBe(404);
      else expect(answer.status, path).toBeLessThan(400);
      expect(answer.text, path).not.toContain(MARK);
    }
    // The control: A's own pages do show them.
    expect((await call(a, 'GET', '/dashboard/keys')).text).toContain(MARK);
    expect((await call(a, 'GET', '/dashboard/members')).text).toContain(MARK);
  });
});
