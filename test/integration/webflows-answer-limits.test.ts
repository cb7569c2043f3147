import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormRepository } from '../../src/service/forms/index.js';
import { webflowTokenFor } from '../../src/service/webflows/index.js';
import { FLOW_POSTS_PER_MINUTE } from '../../src/surfaces/http/flow/index.js';
import {
  startPagesStack,
  TEST_SECRET,
  type PagesServer,
  type PagesStack,
} from '../helpers/pages-stack.js';

/**
 * The web-flow answer page's limits (issue 36: "rate limited"), over the server as `docpipe
 * serve` builds it on a real PostgreSQL and Redis, by HTTP (fastify's inject, each request from
 * the address it names): posts a minute on one person's link, and links that open nothing a
 * minute per client address. Each test has a server of its own, so that its counts start at 0.
 */
let stack: PagesStack;
const SENDER = 'office@limits.example';
/** DOCPIPE_SIGNING_MISSES_PER_MINUTE for these servers: the flow pages count misses by it. */
const MISSES = 3;

beforeAll(async () => {
  stack = await startPagesStack();
  await stack.member({ company: 'limits', email: SENDER, name: 'Limits Office', admin: true });
  await new FormRepository(stack.t.db).replace(
    {
      company: 'limits',
      id: 'survey',
      title: 'Survey',
      folder: null,
      active: true,
      webflow: true,
      settings: {},
      tags: [{ _id: 'tenant', name: 'Tenant', tag: 'tenant', value: null, type: 'text' }],
      recipients: [],
      documents: [
        {
          name: 'Lease',
          storageKey: 'forms/limits/survey/lease.docx',
          kind: 'docx',
          sha256: '0'.repeat(64),
          bytes: 1,
          file: 'lease.docx',
        },
      ],
    },
    new Date(),
  );
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

/** A server of its own: its own Redis prefix, so its own counts. */
const newServer = () => stack.server({ DOCPIPE_SIGNING_MISSES_PER_MINUTE: String(MISSES) });

/** A flow of two people, made over the API; their links' paths, as the invitations write them. */
async function newFlow(server: PagesServer): Promise<{ id: string; paths: [string, string] }> {
  const key = (await stack.keys.create({ company: 'limits', user: SENDER, name: 'flows' })).key;
  const res = await server.app.inject({
    method: 'POST',
    url: '/v3/api/webflows',
    headers: { authorization: `Bearer ${key}`, 'idempotency-key': randomBytes(8).toString('hex') },
    payload: {
      formId: 'survey',
      senderEmail: SENDER,
      recipients: [
        { name: 'Ann', email: 'ann@tenant.example' },
        { name: 'Bo', email: 'bo@tenant.example' },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const { id, recipients } = res.json<{
    webflow: { id: string; recipients: { id: string }[] };
  }>().webflow;
  const [a, b] = recipients.map((r) => `/flow/${webflowTokenFor(TEST_SECRET, r.id).token}`);
  return { id, paths: [a!, b!] };
}

/** A browser of one address: its CSRF cookie and token, taken from a page it opened. */
interface Visitor {
  address: string;
  cookie: string;
  csrf: string;
}

async function visit(server: PagesServer, path: string, address: string): Promise<Visitor> {
  const res = await server.app.inject({ method: 'GET', url: path, remoteAddress: address });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'docpipe_csrf');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1];
  expect(cookie).toBeDefined();
  expect(csrf).toBeDefined();
  return { address, cookie: `docpipe_csrf=${cookie!.value}`, csrf: csrf! };
}

const open = (server: PagesServer, path: string, address: string) =>
  server.app.inject({ method: 'GET', url: path, remoteAddress: address });

/** The page's Save, as its form posts it: the token, and one answer. */
const save = (server: PagesServer, path: string, visitor: Visitor, answer = 'Ann') =>
  server.app.inject({
    method: 'POST',
    url: path,
    remoteAddress: visitor.address,
    headers: {
      cookie: visitor.cookie,
      origin: server.url,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams({ _csrf: visitor.csrf, action: 'save', q0: answer }).toString(),
  });

describe('the answer page’s limits', () => {
  it(`takes ${FLOW_POSTS_PER_MINUTE} posts a minute on one person’s link, then 429 with Retry-After; another person’s link posts on`, async () => {
    const server = await newServer();
    const {
      id,
      paths: [ann, bo],
    } = await newFlow(server);
    const visitor = await visit(server, ann, '10.1.0.1');
    for (let i = 1; i <= FLOW_POSTS_PER_MINUTE; i++) {
      const res = await save(server, ann, visitor, `Ann ${i}`);
      expect([i, res.statusCode]).toEqual([i, 303]);
      expect(res.headers.location).toBe(`${ann}?saved=1`);
    }
    const refused = await save(server, ann, visitor, 'one too many');
    expect(refused.statusCode).toBe(429);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    // Refused before anything is written: the last answer saved is the last allowed post's.
    const stored = await stack.t.db
      .selectFrom('webflow_answers')
      .select('value')
      .where('flow_id', '=', id)
      .where('tag', '=', 'tenant')
      .execute();
    expect(stored.map((s) => s.value)).toEqual([`Ann ${FLOW_POSTS_PER_MINUTE}`]);
    // The count is the link's, not the address's: the other person's link posts from it.
    const other = await save(server, bo, await visit(server, bo, '10.1.0.1'), 'Bo');
    expect(other.statusCode, other.body).toBe(303);
    // And the page itself still opens (a GET is not counted).
    expect((await open(server, ann, '10.1.0.1')).statusCode).toBe(200);
  });

  it(`answers ${MISSES} links that open nothing a minute per address, then 429; a right link and other addresses are not held`, async () => {
    const server = await newServer();
    const {
      paths: [ann],
    } = await newFlow(server);
    const wrong = () => `/flow/${randomBytes(32).toString('base64url')}`;
    const guesser = '10.2.0.1';
    for (let i = 1; i <= MISSES; i++)
      expect([i, (await open(server, wrong(), guesser)).statusCode]).toEqual([i, 404]);
    const refused = await open(server, wrong(), guesser);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // A post to a wrong link is a miss too: 429 as well, past the allowance.
    const visitor = await visit(server, ann, guesser);
    expect((await save(server, wrong(), visitor)).statusCode).toBe(429);
    // The person's own link still opens and saves from that address: only misses are held.
    expect((await open(server, ann, guesser)).statusCode).toBe(200);
    expect((await save(server, ann, visitor)).statusCode).toBe(303);
    // Another address has its whole allowance.
    for (let i = 1; i <= MISSES; i++)
      expect([i, (await open(server, wrong(), '10.2.0.2')).statusCode]).toEqual([i, 404]);
    expect((await open(server, wrong(), '10.2.0.2')).statusCode).toBe(429);
  });
});
