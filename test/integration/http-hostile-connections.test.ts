import { once } from 'node:events';
import type { Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import { DocpipeMetrics } from '../../src/base/metrics/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { DocpipeClient } from '../../src/jobs/queue/index.js';
import { createRedis } from '../../src/platform/redis/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { KeyStore } from '../../src/service/keys/index.js';
import { addKeyOwner } from '../helpers/key-owner.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import type { HttpApp } from '../../src/surfaces/http/common/create-app.js';
import {
  MAX_BODY_JSON_DEPTH,
  MAX_BODY_JSON_VALUES,
} from '../../src/surfaces/http/common/json-body.js';
import { MAX_REPORTED_PROBLEMS } from '../../src/surfaces/http/common/validation-details.js';
import { buildHttpServer } from '../../src/surfaces/http/server.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import {
  drip,
  headersOf,
  openRaw,
  requestHead,
  sendUntilClosed,
  statusLine,
  trackServerSockets,
} from '../helpers/raw-http.js';

/**
 * What hostile clients did to the HTTP service (issue 21), over real sockets against the server
 * as `docpipe serve` composes it, with short limits: a slow body or slow headers are closed
 * within their timeout, connections past the cap are dropped, an early answer stops the reading
 * of a body still being sent, and a deeply nested JSON body is refused before it is parsed.
 */

const REQUEST_TIMEOUT_MS = 3000;
const HEADERS_TIMEOUT_MS = 2000;
const MAX_CONNECTIONS = 6;
const PREFIX = 'hostile-connections';

let dir: string;
let redis: RedisOnly;
let connection: Redis;
let client: DocpipeClient;
let app: HttpApp;
let port: number;
let key: string;
let t: TestDatabase;
let serverSide: (client: Socket) => Promise<Socket>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hostile-connections-'));
  [redis, t] = await Promise.all([startRedisOnly(), testDatabase()]);
  connection = createRedis(redis.url, 'producer');
  await connection.connect();
  const config = loadConfig({
    DOCPIPE_SIGNING_SECRET: 'a-test-signing-secret-of-32-chars',
    DOCPIPE_QUEUE_PREFIX: PREFIX,
    DOCPIPE_TEMPLATES_DIR: join(projectRoot(), 'templates'),
    DOCPIPE_HTTP_REQUEST_TIMEOUT: `${REQUEST_TIMEOUT_MS / 1000}s`,
    DOCPIPE_HTTP_HEADERS_TIMEOUT: `${HEADERS_TIMEOUT_MS / 1000}s`,
    DOCPIPE_HTTP_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
  });
  const keys = new KeyStore({ db: t.db, databaseUrl: t.url });
  client = await DocpipeClient.connect({
    redisUrl: redis.url,
    prefix: PREFIX,
    storage: new LocalStorage(join(dir, 'client')),
    noWorkerMs: 100,
  });
  const storage = new LocalStorage(join(dir, 'storage'));
  app = await buildHttpServer({
    config,
    publicUrl: 'http://127.0.0.1:9',
    redis: connection,
    redisUrl: redis.url,
    db: t.db,
    keys,
    client,
    storage,
    library: new FolderLibrary(config.templatesDir),
    preparer: new InlinePreparer(),
    metrics: new DocpipeMetrics({ processMetrics: false }),
    checks: {},
    queues: [],
  });
  serverSide = trackServerSockets(app.server);
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
  const owner = await addKeyOwner(t.db, 'acme');
  key = (await keys.create({ company: 'acme', user: owner.email, name: 'hostile' })).key;
});

afterAll(async () => {
  await app?.close();
  await client?.close();
  connection?.disconnect();
  await redis?.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const open = () => openRaw(port);

/**
 * Sends a JSON POST's head, then a chunked body as fast as the connection takes it, up to 512
 * MiB, until the server closes: answers what came back, whether the server closed first, and
 * how many bytes the server read.
 */
async function flood(path: string, ...headers: string[]) {
  const probe = await open();
  probe.socket.write(
    requestHead([
      `POST ${path} HTTP/1.1`,
      'Host: 127.0.0.1',
      ...headers,
      'Content-Type: application/json',
      'Transfer-Encoding: chunked',
    ]),
  );
  const sending = sendUntilClosed(probe.socket, Buffer.alloc(64 * 1024, 0x61), {
    cap: 512 * 1024 * 1024,
    chunked: true,
  });
  const server = await serverSide(probe.socket);
  await probe.closed;
  const { closedFirst } = await sending;
  return { answer: probe.received(), closedFirst, serverRead: server.bytesRead };
}

async function noConnectionsLeft(): Promise<void> {
  const count = () =>
    new Promise<number>((resolve, reject) =>
      app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
    );
  while ((await count()) > 0) await new Promise((r) => setTimeout(r, 20));
}

describe('slow clients', () => {
  it('closes a connection whose body comes one byte at a time within the request timeout', async () => {
    const probe = await open();
    probe.socket.write(
      requestHead([
        'POST /api/v2/document/convert HTTP/1.1',
        'Host: 127.0.0.1',
        `Authorization: Bearer ${key}`,
        'Content-Type: application/json',
        'Content-Length: 100000',
      ]),
    );
    drip(probe.socket, 300);
    const ms = await probe.closed;
    expect(ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    // The drip never ends: only the server closes it, and its 408 says the request timeout did.
    // How soon after the timeout is a measurement for a quiet machine, not asserted here.
    expect(statusLine(probe.received())).toBe('HTTP/1.1 408 Request Timeout');
  });

  it('closes a connection whose headers come one byte at a time within the header timeout', async () => {
    const probe = await open();
    probe.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    drip(probe.socket, 300);
    const ms = await probe.closed;
    expect(ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    // The header line never ends: only the server's header timeout closes it (408).
    expect(statusLine(probe.received())).toBe('HTTP/1.1 408 Request Timeout');
  });
});

describe('the connection cap', () => {
  it(`drops connection ${MAX_CONNECTIONS + 1} as it arrives, and serves the others`, async () => {
    await noConnectionsLeft();
    const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => open()));
    await Promise.all(held.map((probe) => serverSide(probe.socket)));
    const dropped = once(app.server, 'drop');
    const extra = await open();
    await dropped;
    await extra.closed;
    expect(extra.received()).toBe('');
    // The held ones were not the ones dropped: each still answers.
    for (const probe of held) {
      probe.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      await probe.closed;
      expect(statusLine(probe.received())).toBe('HTTP/1.1 200 OK');
    }
  });
});

describe('an answer given before the body was read', () => {
  it('closes the connection after a 401, while the client is still sending', async () => {
    await noConnectionsLeft();
    const { answer, closedFirst, serverRead } = await flood('/api/v2/document/convert');
    expect(statusLine(answer)).toBe('HTTP/1.1 401 Unauthorized');
    expect(headersOf(answer).connection).toBe('close');
    expect(closedFirst).toBe(true);
    // What the server took in after its answer: what was on its way, not the rest of the body.
    expect(serverRead).toBeLessThan(16 * 1024 * 1024);
  });

  it("closes the connection after a 413 for a body past a route's limit", async () => {
    const { answer, closedFirst, serverRead } = await flood(
      '/v3/company/acme/file/view-presigned-url',
      `Authorization: Bearer ${key}`,
    );
    expect(statusLine(answer)).toBe('HTTP/1.1 413 Payload Too Large');
    expect(headersOf(answer).connection).toBe('close');
    expect(closedFirst).toBe(true);
    expect(serverRead).toBeLessThan(16 * 1024 * 1024);
  });

  it('keeps the connection open after an answer to a request whose body was read', async () => {
    const probe = await open();
    const request = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    probe.socket.write(request + request);
    expect(await probe.until(/HTTP\/1\.1 200[^]*HTTP\/1\.1 200/)).toBe(true);
    expect(probe.received()).not.toMatch(/connection: close/i);
    expect(probe.socket.destroyed).toBe(false);
    probe.socket.destroy();
  });
});

describe('deeply nested JSON', () => {
  it('is refused in the v2 shape before it is parsed, while /healthz answers', async () => {
    const levels = 1_000_000;
    const body = `{"documents":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}`;
    const url = `http://127.0.0.1:${port}`;
    const deep = fetch(`${url}/api/v2/document/convert`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    const refused = await deep;
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      errors: [
        {
          code: 400,
          message: 'Bad Request',
          description: `body: nests arrays or objects more than ${MAX_BODY_JSON_DEPTH} levels deep; send the values as the endpoint's schema describes them`,
        },
      ],
    });
  });

  it("is refused in the file endpoints' shape", async () => {
    const body = `${'['.repeat(MAX_BODY_JSON_DEPTH + 1)}${']'.repeat(MAX_BODY_JSON_DEPTH + 1)}`;
    const refused = await fetch(
      `http://127.0.0.1:${port}/v3/company/acme/file/view-presigned-url`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
      },
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      message: `the request is invalid: body: nests arrays or objects more than ${MAX_BODY_JSON_DEPTH} levels deep; send the values as the endpoint's schema describes them`,
    });
  });
});

describe('wide JSON', () => {
  const convert = (body: string) =>
    fetch(`http://127.0.0.1:${port}/api/v2/document/convert`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });
  const zeros = (n: number) =>
    `{"documents":[{"file":"x","name":"x"}],"tags":[${Array<string>(n).fill('0').join(',')}]}`;

  it('past the number of values, is refused before it is parsed', async () => {
    const refused = await convert(zeros(MAX_BODY_JSON_VALUES + 1));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      errors: [
        {
          code: 400,
          message: 'Bad Request',
          description: `body: holds more than ${MAX_BODY_JSON_VALUES} members and items in all; send the values as the endpoint's schema describes them, or fewer of them per request`,
        },
      ],
    });
  });

  it('within the number of values, lists the first problems and says how many more', async () => {
    const bad = MAX_BODY_JSON_VALUES - 1000;
    const refused = await convert(zeros(bad));
    expect(refused.status).toBe(400);
    const { errors } = (await refused.json()) as { errors: { description: string }[] };
    expect(errors).toHaveLength(MAX_REPORTED_PROBLEMS);
    expect(errors[0]!.description).toMatch(/^tags\[0\]: /);
    expect(errors.at(-1)!.description).toBe(
      `body: has ${bad - (MAX_REPORTED_PROBLEMS - 1)} more problems like these, not listed; fix those above and send it again`,
    );
  });
});
