import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKeyOwner } from '../helpers/key-owner.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import { bodyOf, exchange, parseAnswer, statusLine, type RawAnswer } from '../helpers/raw-http.js';
import { composedServer } from '../helpers/composed-server.js';

/**
 * What the framework answers before or around any route, on the server `docpipe serve` composes,
 * over real sockets (a raw request line, so that nothing re-encodes the URL or merges headers):
 * every refusal in the shape of the URL's surface (v3 `{error, details}`, v2's error list,
 * `{message}` on the file endpoints, downloads and the operator's routes), a repeated
 * `Authorization` refused before authentication, and wrong admin passwords throttled per address.
 */

const PASSWORD = 'a-long-admin-password';
const ADMIN_ATTEMPTS = 10;

let redis: RedisOnly;
let t: TestDatabase;
/** The user of company acme whom the keys belong to. */
let owner: string;
beforeAll(async () => {
  [redis, t] = await Promise.all([startRedisOnly(), testDatabase()]);
  owner = (await addKeyOwner(t.db, 'acme')).email;
});
afterAll(async () => {
  await redis.close();
  await t.close();
});

/** The composed server on a lane of its own, listening on 127.0.0.1. */
async function listening(env: Record<string, string> = {}) {
  const { app, keys } = await composedServer(redis, t, {
    env: {
      ...env,
      DOCPIPE_ADMIN_PASSWORD: PASSWORD,
      DOCPIPE_ADMIN_ATTEMPTS_PER_MINUTE: String(ADMIN_ATTEMPTS),
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  const acme = (await keys.create({ company: 'acme', user: owner, name: 'test' })).key;
  return { port, acme };
}

/**
 * Sends `head` (a request line and header lines, as written) and `body` over a socket of its own,
 * and reads the answer to the end: the server closes the connection after it (`Connection:
 * close`).
 */
async function raw(port: number, head: string[], body = ''): Promise<RawAnswer> {
  const length = body === '' ? [] : [`Content-Length: ${Buffer.byteLength(body)}`];
  return parseAnswer(
    await exchange(
      port,
      [...head, 'Host: 127.0.0.1', 'Connection: close', ...length, '', body].join('\r\n'),
    ),
  );
}

const get = (port: number, path: string, ...headers: string[]) =>
  raw(port, [`GET ${path} HTTP/1.1`, ...headers]);

const LONG_ID = 'a'.repeat(10_000);

describe('refusals before any route, in the shape of the URL surface', () => {
  it('answers a 10,000-character path value 400, on v3, the file endpoints and v2', async () => {
    const { port, acme } = await listening();
    const auth = `Authorization: Bearer ${acme}`;
    const v3 = await get(port, `/v3/api/documents/${LONG_ID}`, auth);
    expect(v3.status).toBe(400);
    expect(v3.body).toEqual({
      error: 'validation-failed',
      details: [
        {
          field: 'path',
          message:
            'a value in the path is longer than 200 characters, longer than any id docpipe gives; send the id as it was given',
        },
      ],
    });
    const files = await raw(port, [`POST /v3/company/${LONG_ID}/file/upload HTTP/1.1`, auth]);
    expect(files.status).toBe(400);
    expect(files.body).toEqual({
      message:
        'path: a value in the path is longer than 200 characters, longer than any id docpipe gives; send the id as it was given',
    });
    // No v2 route has a path value: a long path is a path no route serves, in v2's shape.
    const v2 = await raw(port, [`POST /api/v2/document/${LONG_ID} HTTP/1.1`, auth]);
    expect(v2.status).toBe(404);
    expect(v2.body).toEqual({
      errors: [
        {
          code: 404,
          message: 'Not Found',
          description: `path: no route answers POST /api/v2/document/${'a'.repeat(63)}...; /openapi.json lists every route`,
        },
      ],
    });
  });

  it('answers a URL that is not UTF-8 percent-encoding 400, on v3, v2, the file endpoints and downloads', async () => {
    const { port } = await listening();
    const message =
      'is not a valid URL: every % must begin a percent-encoded UTF-8 character (%C3%A9 for é); send the URL as it was given';
    const v3 = await get(port, '/v3/api/documents/%ff%fe');
    expect([v3.status, v3.body]).toEqual([
      400,
      { error: 'validation-failed', details: [{ field: 'path', message }] },
    ]);
    const v2 = await raw(port, ['POST /api/v2/document/conv%ffert HTTP/1.1']);
    expect([v2.status, v2.body]).toEqual([
      400,
      { errors: [{ code: 400, message: 'Bad Request', description: `path: ${message}` }] },
    ]);
    const files = await raw(port, ['POST /v3/company/acme/file/%ff%fe HTTP/1.1']);
    expect([files.status, files.body]).toEqual([400, { message: `path: ${message}` }]);
    const download = await get(port, '/files/%ff%fe');
    expect([download.status, download.body]).toEqual([400, { message: `path: ${message}` }]);
  });

  it('answers a method and path no route serves 404, in each shape', async () => {
    const { port } = await listening();
    const missing = (method: string, path: string) =>
      `path: no route answers ${method} ${path}; /openapi.json lists every route`;
    const v3 = await get(port, '/v3/api/nothing-here?x=1');
    expect([v3.status, v3.body]).toEqual([
      404,
      {
        error: 'route-not-found',
        details: [{ field: 'path', message: missing('GET', '/v3/api/nothing-here').slice(6) }],
      },
    ]);
    const method = await raw(port, ['DELETE /v3/api/documents/lease HTTP/1.1']);
    expect(method.status).toBe(404);
    expect(method.body).toMatchObject({ error: 'route-not-found' });
    const v2 = await raw(port, ['PUT /api/v2/document/convert HTTP/1.1']);
    expect([v2.status, v2.body]).toEqual([
      404,
      {
        errors: [
          {
            code: 404,
            message: 'Not Found',
            description: missing('PUT', '/api/v2/document/convert'),
          },
        ],
      },
    ]);
    const files = await get(port, '/v3/company/acme/file/upload');
    expect([files.status, files.body]).toEqual([
      404,
      { message: missing('GET', '/v3/company/acme/file/upload') },
    ]);
    const root = await get(port, '/wp-login.php');
    expect([root.status, root.body]).toEqual([404, { message: missing('GET', '/wp-login.php') }]);
  });

  it('answers a body it cannot read on a path no route serves in the shape, not Fastify’s', async () => {
    const { port } = await listening();
    const json = ['Content-Type: application/json'];
    const v3 = await raw(port, ['POST /v3/api/nothing-here HTTP/1.1', ...json], '{"a":');
    expect(v3.status).toBe(400);
    expect(v3.body).toMatchObject({
      error: 'validation-failed',
      details: [{ field: 'request' }],
    });
    const v2 = await raw(port, ['POST /api/v2/nothing-here HTTP/1.1', ...json], '{"a":');
    expect(v2.status).toBe(400);
    expect(v2.body).toMatchObject({ errors: [{ code: 400, message: 'Bad Request' }] });
  });

  it('refuses a bad query string in the route’s own shape', async () => {
    const { port, acme } = await listening();
    const v3 = await get(port, '/v3/api/documents?x=%ff%fe', `Authorization: Bearer ${acme}`);
    expect(v3.status).toBe(400);
    expect(v3.body).toMatchObject({ error: 'validation-failed', details: [{ field: 'x' }] });
  });
});

describe('requests Node cannot read, in the shape their request line names', () => {
  it('answers an unknown method, headers past 16 KiB and a broken header line', async () => {
    const { port } = await listening();
    const method = await raw(port, ['FOO /v3/api/documents HTTP/1.1']);
    expect([method.status, method.body]).toEqual([
      400,
      {
        error: 'validation-failed',
        details: [{ field: 'method', message: 'is not an HTTP method docpipe knows' }],
      },
    ]);
    const big = await raw(port, [
      'POST /api/v2/document/convert HTTP/1.1',
      `X-Big: ${'a'.repeat(20_000)}`,
    ]);
    expect([big.status, big.body]).toEqual([
      431,
      {
        errors: [
          {
            code: 431,
            message: 'Request Header Fields Too Large',
            description: 'headers: are larger than 16 KiB; send fewer or shorter',
          },
        ],
      },
    ]);
    const broken = await raw(port, ['GET /files/x HTTP/1.1', 'Bad Header: x']);
    expect([broken.status, broken.body]).toEqual([
      400,
      { message: 'request: is not valid HTTP/1.1' },
    ]);
  });

  it('answers a request whose headers never end 408 in {message}', async () => {
    const { port } = await listening({
      DOCPIPE_HTTP_HEADERS_TIMEOUT: '1s',
      DOCPIPE_HTTP_REQUEST_TIMEOUT: '1s',
    });
    // No blank line: the headers are never finished, and the answer comes from Node's timer.
    const slow = await exchange(port, 'GET /v3/api/documents HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(statusLine(slow)).toBe('HTTP/1.1 408 Request Timeout');
    expect(bodyOf(slow)).toEqual({
      message: 'request: was not sent whole in time; send the request at once, not slowly',
    });
  });
});

describe('a repeated Authorization header', () => {
  it('is refused 400 in the shape of the surface, before any key is checked', async () => {
    const { port, acme } = await listening();
    // The first a working key: Node keeps it, so that without the check the request would pass.
    const twice = [`Authorization: Bearer ${acme}`, 'Authorization: Bearer someone-else'];
    const message = 'sent 2 times; send the header once, with one credential';
    const v3 = await get(port, '/v3/api/documents', ...twice);
    expect([v3.status, v3.body]).toEqual([
      400,
      { error: 'validation-failed', details: [{ field: 'Authorization', message }] },
    ]);
    const v2 = await raw(port, ['POST /api/v2/document/convert HTTP/1.1', ...twice]);
    expect([v2.status, v2.body]).toEqual([
      400,
      {
        errors: [{ code: 400, message: 'Bad Request', description: `Authorization: ${message}` }],
      },
    ]);
    const files = await raw(port, [
      'POST /v3/company/acme/file/view-presigned-url HTTP/1.1',
      ...twice,
    ]);
    expect([files.status, files.body]).toEqual([400, { message: `Authorization: ${message}` }]);
    const admin = basic(PASSWORD);
    const board = await get(port, '/admin/queues', `Authorization: ${admin}`, 'authorization: x');
    expect([board.status, board.body]).toEqual([400, { message: `Authorization: ${message}` }]);
    // One header, the same key: served.
    expect((await get(port, '/v3/api/documents', twice[0]!)).status).toBe(200);
  });
});

const basic = (password: string) => `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;

/** A request over a connection of its own from `localAddress`, so that the server sees that address. */
function fromAddress(
  port: number,
  path: string,
  password: string,
  localAddress: string,
): Promise<{ status: number; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        localAddress,
        agent: false,
        headers: { authorization: basic(password) },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'],
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('wrong admin passwords', () => {
  it(`are answered 401 ${ADMIN_ATTEMPTS} times a minute per address, then 429 with Retry-After, while another address logs in`, async () => {
    const { port } = await listening();
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        fromAddress(port, '/admin/queues', `wrong password ${i}`, '127.0.0.1'),
      ),
    );
    const count = (status: number) => answers.filter((a) => a.status === status).length;
    expect([count(401), count(429)]).toEqual([ADMIN_ATTEMPTS, 300 - ADMIN_ATTEMPTS]);
    for (const a of answers.filter((a) => a.status === 429)) {
      const seconds = Number(a.retryAfter);
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(60);
    }
    // Another address is not held by these failures: the right password works there.
    expect((await fromAddress(port, '/admin/queues', PASSWORD, '127.0.0.2')).status).toBe(200);
    // The throttled address waits, right password or not (else a guesser would learn it from
    // the one answer that is not 429), on every route of the credential.
    expect((await fromAddress(port, '/admin/queues', PASSWORD, '127.0.0.1')).status).toBe(429);
    expect((await fromAddress(port, '/metrics', PASSWORD, '127.0.0.1')).status).toBe(429);
    expect((await fromAddress(port, '/metrics', PASSWORD, '127.0.0.2')).status).toBe(200);
  });
});
