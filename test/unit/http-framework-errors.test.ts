import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import { QueueUnavailableError } from '../../src/platform/redis/index.js';
import {
  addressBucket,
  LocalAdminAttempts,
  RedisAdminAttempts,
  type AdminAttempts,
} from '../../src/surfaces/http/common/admin-attempts.js';
import { requireAdmin } from '../../src/surfaces/http/common/admin-credential.js';
import { createHttpApp } from '../../src/surfaces/http/common/create-app.js';
import { registerFrameworkAnswers } from '../../src/surfaces/http/common/framework-errors.js';
import { refusalBody, shapeOfUrl } from '../../src/surfaces/http/common/url-surface.js';

/**
 * The framework's answers without a server socket: which shape each URL gets, the root error
 * handler's answers to what no surface catches, and the admin credential's throttle over a fake
 * count. The real-socket behaviour is test/integration/http-framework-errors.test.ts.
 */

describe('shapeOfUrl', () => {
  it.each([
    ['/api/v2/document/convert', 'v2'],
    ['/api/v2/acme/cases/get?status=signed', 'v2'],
    ['/v3/api/documents/lease', 'v3'],
    ['/v3/api/cases', 'v3'],
    ['/v3/public/partner/x', 'v3'],
    ['/v3', 'v3'],
    ['/v3/company/acme/file/upload', 'message'],
    ['/v3/company/acme/file', 'message'],
    ['/v3/company/acme/files', 'v3'],
    ['/files/renders/ab/x.pdf?expires=1&signature=2', 'message'],
    ['/admin/queues', 'message'],
    ['/healthz', 'message'],
    ['/', 'message'],
    ['/api/v2', 'message'],
    ['/v3x/api', 'message'],
    ['/x?/v3/api', 'message'],
  ] as const)('%s answers in the %s shape', (url, shape) => {
    expect(shapeOfUrl(url)).toBe(shape);
  });

  it('renders one refusal in each shape, every detail kept', () => {
    const refusal = {
      status: 400,
      slug: 'validation-failed',
      details: [
        { field: 'path', message: 'is wrong' },
        { field: 'x', message: 'unknown field' },
      ],
    };
    expect(refusalBody('v3', refusal)).toEqual({
      error: 'validation-failed',
      details: refusal.details,
    });
    expect(refusalBody('v2', refusal)).toEqual({
      errors: [
        { code: 400, message: 'Bad Request', description: 'path: is wrong' },
        { code: 400, message: 'Bad Request', description: 'x: unknown field' },
      ],
    });
    expect(refusalBody('message', refusal)).toEqual({
      message: 'path: is wrong; x: unknown field',
    });
    const bare = { status: 500, slug: 'internal-error', details: [], summary: 'it broke' };
    expect(refusalBody('v3', bare)).toEqual({ error: 'internal-error', details: [] });
    expect(refusalBody('v2', bare)).toEqual({
      errors: [{ code: 500, message: 'Internal server error', description: 'it broke' }],
    });
    expect(refusalBody('message', bare)).toEqual({ message: 'it broke' });
  });
});

describe('the root error handler', () => {
  async function app() {
    const a = createHttpApp({ bodyLimit: 1024 });
    registerFrameworkAnswers(a);
    // Route groups without an error handler of their own, as the queue dashboard is.
    for (const prefix of ['/v3/api', '/api/v2', '/admin']) {
      a.get(`${prefix}/bug`, () => {
        throw new Error('a secret detail of the bug');
      });
      a.get(`${prefix}/outage`, () => {
        throw QueueUnavailableError.unreachable('redis://secret-host:6379');
      });
      a.get(`${prefix}/typed`, () => {
        throw new DocpipeError('document-not-found', [{ field: 'id', message: 'no such id' }]);
      });
    }
    await a.ready();
    return a;
  }

  it('answers anything unexpected 500 in the shape, with the request id and without its text', async () => {
    const a = await app();
    const v3 = await a.inject({ url: '/v3/api/bug', headers: { 'x-request-id': 'req-1' } });
    expect([v3.statusCode, v3.json(), v3.headers['x-request-id']]).toEqual([
      500,
      { error: 'internal-error', details: [] },
      'req-1',
    ]);
    const v2 = await a.inject({ url: '/api/v2/bug', headers: { 'x-request-id': 'req-2' } });
    expect(v2.statusCode).toBe(500);
    expect(v2.json()).toEqual({
      errors: [
        {
          code: 500,
          message: 'Internal server error',
          description:
            'docpipe failed on its side; try again later, and if it persists give the operator request id req-2',
        },
      ],
    });
    const admin = await a.inject({ url: '/admin/bug' });
    expect(admin.statusCode).toBe(500);
    expect(admin.body).not.toContain('secret');
    expect(admin.json()).toEqual({ message: expect.stringMatching(/^docpipe failed on its side/) });
  });

  it('answers an outage with its status and Retry-After, without the Redis URL', async () => {
    const a = await app();
    for (const [url, body] of [
      ['/v3/api/outage', { error: 'queue-unavailable', details: [] }],
      [
        '/api/v2/outage',
        {
          errors: [
            {
              code: 503,
              message: 'Service Unavailable',
              description: "docpipe's queue does not answer; send the request again later",
            },
          ],
        },
      ],
      [
        '/admin/outage',
        { message: "docpipe's queue does not answer; send the request again later" },
      ],
    ] as const) {
      const res = await a.inject({ url });
      expect([res.statusCode, res.headers['retry-after'], res.json()]).toEqual([503, '30', body]);
    }
  });

  it('answers a typed failure with its slug and status', async () => {
    const a = await app();
    const v3 = await a.inject({ url: '/v3/api/typed' });
    expect([v3.statusCode, v3.json()]).toEqual([
      404,
      { error: 'document-not-found', details: [{ field: 'id', message: 'no such id' }] },
    ]);
    const admin = await a.inject({ url: '/admin/typed' });
    expect([admin.statusCode, admin.json()]).toEqual([404, { message: 'id: no such id' }]);
  });
});

describe('addressBucket', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:10.1.2.3', '10.1.2.3'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['not an address', 'not an address'],
  ])('counts %s as %s', (address, bucket) => {
    expect(addressBucket(address)).toBe(bucket);
  });
});

/** An in-memory count with the Redis one's rules, for the hook's own decisions. */
class CountedAttempts implements AdminAttempts {
  readonly counts = new Map<string, number>();
  constructor(readonly perMinute: number) {}
  waitFor(address: string) {
    return Promise.resolve((this.counts.get(address) ?? 0) >= this.perMinute ? 42 : undefined);
  }
  failed(address: string) {
    const n = (this.counts.get(address) ?? 0) + 1;
    this.counts.set(address, n);
    return Promise.resolve(n > this.perMinute ? 42 : undefined);
  }
}

describe('requireAdmin with a count of wrong tries', () => {
  const PASSWORD = 'a-long-admin-password';
  const basic = (password: string) => ({
    authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`,
  });

  it('answers 401 within the allowance, then 429 with Retry-After to that address only', async () => {
    const attempts = new CountedAttempts(2);
    const a = createHttpApp({ bodyLimit: 1024 });
    a.get('/admin', { onRequest: requireAdmin(PASSWORD, attempts) }, () => ({ ok: true }));
    const from = (remoteAddress: string, password: string) =>
      a.inject({ url: '/admin', remoteAddress, headers: basic(password) });
    expect((await from('10.0.0.1', PASSWORD)).statusCode).toBe(200);
    expect((await from('10.0.0.1', 'wrong')).statusCode).toBe(401);
    expect((await from('10.0.0.1', 'wrong')).statusCode).toBe(401);
    const over = await from('10.0.0.1', 'wrong');
    expect([over.statusCode, over.headers['retry-after'], over.json()]).toEqual([
      429,
      '42',
      {
        message:
          'more than 2 wrong admin credentials a minute came from this address; try again in 42 s (Retry-After)',
      },
    ]);
    // Past the allowance the right password waits too; another address does not.
    expect((await from('10.0.0.1', PASSWORD)).statusCode).toBe(429);
    expect((await from('10.0.0.2', PASSWORD)).statusCode).toBe(200);
    // A right password is not a wrong try.
    expect(attempts.counts.get('10.0.0.2')).toBeUndefined();
  });
});

describe('LocalAdminAttempts, the count while Redis does not answer', () => {
  it('allows perMinute wrong tries per address, then waits out the minute', async () => {
    let now = 1_000_000;
    const local = new LocalAdminAttempts(2, () => now);
    expect(await local.failed('10.0.0.1')).toBeUndefined();
    expect(await local.failed('10.0.0.1')).toBeUndefined();
    expect(await local.failed('10.0.0.1')).toBe(60);
    expect(await local.waitFor('10.0.0.2')).toBeUndefined();
    now += 45_000;
    expect(await local.waitFor('10.0.0.1')).toBe(15);
    now += 15_000;
    expect(await local.waitFor('10.0.0.1')).toBeUndefined();
  });

  it('takes over from Redis when Redis fails, and says so once', async () => {
    const told: unknown[] = [];
    const redis = { eval: () => Promise.reject(new Error('connect ECONNREFUSED')) };
    const attempts = new RedisAdminAttempts({
      redis: redis as unknown as Redis,
      prefix: 'p',
      perMinute: 1,
      onRedisError: (err) => told.push(err),
    });
    expect(await attempts.failed('10.0.0.1')).toBeUndefined();
    expect(await attempts.failed('10.0.0.1')).toBeGreaterThan(0);
    expect(await attempts.waitFor('10.0.0.1')).toBeGreaterThan(0);
    expect(told).toHaveLength(1);
  });
});
