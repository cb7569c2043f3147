import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_CONNECTION_LIMITS } from '../../src/app/config/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { registerFrameworkAnswers } from '../../src/surfaces/http/common/framework-errors.js';
import { LINGER_BYTES } from '../../src/surfaces/http/common/lingering-close.js';
import { fileRoutes } from '../../src/surfaces/http/files/file-routes.js';
import {
  bodyOf,
  drip,
  openRaw,
  requestHead as head,
  sendUntilClosed,
  statusLine,
  trackServerSockets,
} from '../helpers/raw-http.js';
import { PDF_FILE, corpusFile, multipartBody } from './http-files-setup.js';

/**
 * What a hostile or merely impatient client meets at the connection (issue 21), over real
 * sockets: `100 Continue` only once the body is about to be read, an early refusal that the
 * caller still sending receives whole (a lingering close), and a timeout answered in the shape of
 * the route it interrupted.
 */

const MB = 1024 * 1024;
const SMALL_LIMIT = 64 * 1024;
const ECHO_LIMIT = MB;
const UPLOAD_BODY_LIMIT = 2 * MB;
const REQUEST_TIMEOUT_MS = 2000;
const HEADERS_TIMEOUT_MS = 1500;
const KEY = 'Bearer good';

let app: HttpApp;
let port: number;
let dir: string;
let serverSide: (client: Socket) => Promise<Socket>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'docpipe-http-continue-'));
  app = createHttpApp({
    bodyLimit: SMALL_LIMIT,
    connections: {
      ...DEFAULT_HTTP_CONNECTION_LIMITS,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
    },
  });
  registerFrameworkAnswers(app);
  await app.register(async (scope: HttpApp) => {
    // A stand-in for the authentication hook: a 401 from onRequest, before the body is read.
    scope.addHook('onRequest', async (request, reply) => {
      if (request.headers.authorization !== KEY) return reply.code(401).send({ message: 'no key' });
      request.apiKey = { id: 'k1', company: 'acme', name: 'test' };
    });
    for (const prefix of ['/api/v2', '/v3/api'])
      scope.post(`${prefix}/echo`, { bodyLimit: ECHO_LIMIT }, (request) => ({
        length: JSON.stringify(request.body).length,
      }));
    await scope.register(fileRoutes, {
      storage: new LocalStorage(dir),
      preparer: new InlinePreparer(),
      // Not used by the upload route.
      signedUrls: { reuseOrIssue: () => Promise.reject(new Error('unused')) },
      publicUrl: 'http://docs.example.test',
      signingSecret: 'a-test-signing-secret-of-32-chars!',
      signedUrlTtlSeconds: 900,
      maxUploadBytes: MB,
      bodyLimitBytes: UPLOAD_BODY_LIMIT,
    });
  });
  serverSide = trackServerSockets(app.server);
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
});

afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const open = () => openRaw(port);

/** A POST's head, as written: the request line, Host and `headers`. */
const postHead = (path: string, ...headers: string[]) =>
  head([`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...headers]);
const JSON_TYPE = 'Content-Type: application/json';

describe('Expect: 100-continue', () => {
  const FIVE_GB = 5 * 1024 * MB;
  const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

  /** Sends a head that expects 100 Continue, and no body: all the server sent until it closed. */
  async function withoutBody(path: string, ...headers: string[]): Promise<string> {
    const probe = await open();
    probe.socket.write(postHead(path, ...headers, 'Expect: 100-continue'));
    await probe.closed;
    return probe.received();
  }

  /**
   * Sends a head that expects 100 Continue, and `body` once 100 Continue (and nothing else) came:
   * the answer after it.
   */
  async function afterContinue(
    path: string,
    body: string | Buffer,
    ...headers: string[]
  ): Promise<string> {
    const probe = await open();
    probe.socket.write(postHead(path, ...headers, 'Expect: 100-continue', 'Connection: close'));
    expect(await probe.until(/\r\n\r\n/)).toBe(true);
    expect(probe.received()).toBe(CONTINUE);
    probe.socket.write(body);
    await probe.closed;
    return probe.received().slice(CONTINUE.length);
  }

  it('answers 413 without 100 Continue to a Content-Length past the route limit', async () => {
    const answer = await withoutBody(
      '/api/v2/echo',
      `Authorization: ${KEY}`,
      JSON_TYPE,
      `Content-Length: ${FIVE_GB}`,
    );
    expect(statusLine(answer)).toBe('HTTP/1.1 413 Payload Too Large');
    expect(answer).not.toContain('100 Continue');
  });

  it('answers 401 without 100 Continue to a request without a key', async () => {
    const answer = await withoutBody('/api/v2/echo', JSON_TYPE, `Content-Length: ${FIVE_GB}`);
    expect(statusLine(answer)).toBe('HTTP/1.1 401 Unauthorized');
    expect(answer).not.toContain('100 Continue');
  });

  it('sends 100 Continue to a body within the limit, then reads it', async () => {
    const body = JSON.stringify({ a: 'x'.repeat(1000) });
    const answer = await afterContinue(
      '/v3/api/echo',
      body,
      `Authorization: ${KEY}`,
      JSON_TYPE,
      `Content-Length: ${body.length}`,
    );
    expect(statusLine(answer)).toBe('HTTP/1.1 200 OK');
    expect(bodyOf(answer)).toEqual({ length: body.length });
  });

  it('on the multipart upload: 413 without 100 past its body limit, 415 without 100 for another type', async () => {
    for (const [type, length, status] of [
      ['multipart/form-data; boundary=x', UPLOAD_BODY_LIMIT + 1, 'HTTP/1.1 413 Payload Too Large'],
      ['text/plain', 10, 'HTTP/1.1 415 Unsupported Media Type'],
    ] as const) {
      const answer = await withoutBody(
        '/v3/company/acme/file/upload',
        `Authorization: ${KEY}`,
        `Content-Type: ${type}`,
        `Content-Length: ${length}`,
      );
      expect(statusLine(answer)).toBe(status);
      expect(answer).not.toContain('100 Continue');
    }
  });

  it('on the multipart upload: 100 Continue within the limit, then the upload is stored', async () => {
    const form = await multipartBody({ file: { bytes: corpusFile(PDF_FILE), filename: 'a.pdf' } });
    const answer = await afterContinue(
      '/v3/company/acme/file/upload',
      form.payload,
      `Authorization: ${KEY}`,
      `Content-Type: ${form.headers['content-type']}`,
      `Content-Length: ${form.payload.length}`,
    );
    expect(statusLine(answer)).toBe('HTTP/1.1 200 OK');
    expect(bodyOf(answer)).toMatchObject({ type: 'pdf' });
  });
});

describe('an early refusal closes with a lingering close', () => {
  /**
   * Posts `bytes` with Node's http.request, a chunk at each 'drain' as a streaming upload does;
   * answers the status, or the error's code. A write the kernel refuses (the server reset the
   * connection) fails at once, before Node reads an answer already there: that lost the answer.
   */
  function post(path: string, bytes: number, headers: Record<string, string>): Promise<string> {
    return new Promise((resolve) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': bytes, ...headers },
          agent: false,
        },
        (res) => {
          res.resume();
          res.once('end', () => resolve(String(res.statusCode)));
          res.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
        },
      );
      req.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      let sent = 0;
      const pump = (): void => {
        while (sent < bytes && !req.destroyed) {
          sent += chunk.length;
          const more = sent < bytes ? req.write(chunk) : (req.end(chunk), false);
          if (!more) return;
        }
      };
      req.on('drain', pump);
      pump();
    });
  }

  it("gives Node's http.request its 401 while it sends 8 MB, 20 times in 20", async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 20; i++) outcomes.push(await post('/api/v2/echo', 8 * MB, {}));
    expect(outcomes).toEqual(Array<string>(20).fill('401'));
  });

  it("gives Node's http.request its 413 while it sends 8 MB, 20 times in 20", async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 20; i++)
      outcomes.push(await post('/api/v2/echo', 8 * MB, { authorization: KEY }));
    expect(outcomes).toEqual(Array<string>(20).fill('413'));
  });

  it('lets a caller that goes on sending a little after its answer close cleanly, not reset', async () => {
    const probe = await open();
    const errors: string[] = [];
    probe.socket.on('error', (err: NodeJS.ErrnoException) => errors.push(err.code ?? err.message));
    probe.socket.write(postHead('/api/v2/echo', JSON_TYPE, `Content-Length: ${8 * MB}`));
    expect(await probe.until(/\r\n\r\n/)).toBe(true);
    expect(statusLine(probe.received())).toBe('HTTP/1.1 401 Unauthorized');
    // What a caller had on its way when the answer came: well within LINGER_BYTES.
    await sendUntilClosed(probe.socket, Buffer.alloc(16 * 1024, 0x20), { cap: LINGER_BYTES / 2 });
    probe.socket.end();
    await probe.closed;
    expect(errors).toEqual([]);
  });

  it('reads at most LINGER_BYTES more after the answer, and closes on its own', async () => {
    const probe = await open();
    probe.socket.write(postHead('/api/v2/echo', JSON_TYPE, `Content-Length: ${64 * MB}`));
    const server = await serverSide(probe.socket);
    expect(await probe.until(/\r\n\r\n/)).toBe(true);
    expect(statusLine(probe.received())).toBe('HTTP/1.1 401 Unauthorized');
    const answeredAt = server.bytesRead;
    // Keep sending, as a client that reads its answer late does; never close our side.
    const sending = sendUntilClosed(probe.socket, Buffer.alloc(64 * 1024, 0x20), {
      cap: Infinity,
    });
    await Promise.all([probe.closed, sending]);
    // The kernel's buffers are the server's to read too: a chunk or two past the bound.
    expect(server.bytesRead - answeredAt).toBeLessThanOrEqual(LINGER_BYTES + 256 * 1024);
  });

  it('closes a caller that goes on sending slowly after LINGER_MS', async () => {
    const probe = await open();
    probe.socket.write(postHead('/api/v2/echo', JSON_TYPE, `Content-Length: ${MB}`));
    expect(await probe.until(/\r\n\r\n/)).toBe(true);
    // One byte every 50 ms never reaches the byte cap and never ends: only the linger's time cap
    // (LINGER_MS) closes this connection; how soon is not asserted.
    drip(probe.socket, 50);
    await probe.closed;
    expect(statusLine(probe.received())).toBe('HTTP/1.1 401 Unauthorized');
  });
});

describe('a request timeout on a route', () => {
  async function slowBody(path: string): Promise<string> {
    const probe = await open();
    probe.socket.write(postHead(path, `Authorization: ${KEY}`, JSON_TYPE, 'Content-Length: 1000'));
    drip(probe.socket, 200, ' ');
    // The drip never ends: only the server's request timeout closes it (408).
    await probe.closed;
    expect(statusLine(probe.received())).toBe('HTTP/1.1 408 Request Timeout');
    return probe.received();
  }
  const description = 'request: was not sent whole in time; send the request at once, not slowly';

  it("is answered in the shape of the route whose body was slow: v2's, v3's", async () => {
    const [v2, v3] = await Promise.all([slowBody('/api/v2/echo'), slowBody('/v3/api/echo')]);
    expect(bodyOf(v2)).toEqual({
      errors: [{ code: 408, message: 'Request Timeout', description }],
    });
    expect(bodyOf(v3)).toEqual({
      error: 'validation-failed',
      details: [
        {
          field: 'request',
          message: 'was not sent whole in time; send the request at once, not slowly',
        },
      ],
    });
  });

  it('is {message} when no request line was read (slow headers)', async () => {
    const probe = await open();
    probe.socket.write('POST /api/v2/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    drip(probe.socket, 200);
    await probe.closed;
    expect(statusLine(probe.received())).toBe('HTTP/1.1 408 Request Timeout');
    expect(bodyOf(probe.received())).toEqual({ message: description });
  });
});
