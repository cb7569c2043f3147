import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createHttpApp } from '../../src/surfaces/http/common/create-app.js';
import { registerFrameworkAnswers } from '../../src/surfaces/http/common/framework-errors.js';
import { documentsErrorHandler } from '../../src/surfaces/http/documents/documents-errors.js';
import { readMultipartForm } from '../../src/surfaces/http/files/multipart-form.js';
import { uploadFormLimits } from '../../src/surfaces/http/files/uploads-body.js';

/**
 * Refusals of a request's body that used to say something untrue or too little: a body past the
 * limit without the limit, a `__proto__` member as "not valid JSON", a boundary of 5,000
 * characters as "no boundary".
 */

const LIMIT = 1024;

async function app() {
  const a = createHttpApp({ bodyLimit: LIMIT });
  registerFrameworkAnswers(a);
  // Route groups without an error handler of their own: the root's answers.
  for (const prefix of ['/v3/api', '/api/v2', '/admin'])
    a.post(`${prefix}/echo`, (request) => ({ body: request.body }));
  await a.register((scope, _options, done) => {
    scope.setErrorHandler(documentsErrorHandler);
    scope.post('/v3/api/documents/echo', (request) => ({ body: request.body }));
    done();
  });
  await a.ready();
  return a;
}

const tooLarge = `is larger than this endpoint's limit of ${LIMIT} bytes; send a smaller body`;

describe('a body past the limit', () => {
  it('is 413 naming the limit in every shape', async () => {
    const a = await app();
    const payload = { text: 'x'.repeat(2 * LIMIT) };
    const post = (url: string) => a.inject({ method: 'POST', url, payload });
    const v3 = await post('/v3/api/echo');
    expect([v3.statusCode, v3.json()]).toEqual([
      413,
      { error: 'validation-failed', details: [{ field: 'body', message: tooLarge }] },
    ]);
    const v2 = await post('/api/v2/echo');
    expect([v2.statusCode, v2.json()]).toEqual([
      413,
      { errors: [{ code: 413, message: 'Payload Too Large', description: `body: ${tooLarge}` }] },
    ]);
    const message = await post('/admin/echo');
    expect([message.statusCode, message.json()]).toEqual([413, { message: `body: ${tooLarge}` }]);
    const library = await post('/v3/api/documents/echo');
    expect([library.statusCode, library.json()]).toEqual([
      413,
      { error: 'validation-failed', details: [{ field: 'body', message: tooLarge }] },
    ]);
  });
});

describe('a JSON body with a prototype member', () => {
  const refusal = (member: string) => ({
    error: 'validation-failed',
    details: [
      {
        field: 'body',
        message: `has a member ${member}, which docpipe refuses (it could change the prototype of objects built from the body); no endpoint takes one: remove it or rename it`,
      },
    ],
  });
  const post = async (payload: string) => {
    const a = await app();
    const res = await a.inject({
      method: 'POST',
      url: '/v3/api/echo',
      payload,
      headers: { 'content-type': 'application/json' },
    });
    return [res.statusCode, res.json<unknown>()];
  };

  it('is refused naming __proto__, not as invalid JSON', async () => {
    expect(await post('{"a":[{"__proto__":{"x":1}}]}')).toEqual([400, refusal('"__proto__"')]);
  });

  it('is refused naming constructor.prototype', async () => {
    expect(await post('{"constructor":{"prototype":{"x":1}}}')).toEqual([
      400,
      refusal('"constructor" with a "prototype"'),
    ]);
  });

  it('leaves JSON that is not valid refused as before', async () => {
    const [status, body] = await post('{"a":');
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain('not valid JSON');
  });
});

describe('a multipart boundary', () => {
  const read = (contentType: string) =>
    readMultipartForm(
      { 'content-type': contentType },
      Readable.from([]),
      uploadFormLimits(1024, 4096),
    );

  it('of 5,000 characters is refused as not a valid boundary', async () => {
    await expect(read(`multipart/form-data; boundary=${'x'.repeat(5000)}`)).rejects.toMatchObject({
      status: 400,
      message:
        "the Content-Type's multipart boundary is not a valid one: it has 5000 characters, and a boundary has 1 to 70 (RFC 2046); send the boundary your form-data client made",
    });
  });

  it('that is empty is refused likewise; one that is missing is named missing', async () => {
    await expect(read('multipart/form-data; boundary=""')).rejects.toMatchObject({
      message: expect.stringContaining('it has 0 characters') as unknown,
    });
    await expect(read('multipart/form-data')).rejects.toMatchObject({
      message: expect.stringContaining('names no boundary') as unknown,
    });
  });

  it('of 70 characters is read', async () => {
    await expect(read(`multipart/form-data; boundary=${'x'.repeat(70)}`)).resolves.toEqual([]);
  });
});
