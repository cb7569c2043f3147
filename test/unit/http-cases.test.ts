import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import type {
  CaseInput,
  CaseListFilters,
  CasePageRequest,
  CaseView,
  CreatedCase,
} from '../../src/service/cases/index.js';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { casesRoutes, parseCreatedAfter } from '../../src/surfaces/http/cases/index.js';

/**
 * The v3 case routes' own logic with a scripted case service: the list's parameters (createdAfter
 * parsed, limit's range, unknown ones refused), what the service is asked, the answers' shapes
 * (nothing spec 2.2 removed gets through the serializer) and the statuses of its failures. The
 * real service on PostgreSQL is in test/integration/http-cases.test.ts.
 */

const lists: { company: string; filters: CaseListFilters; page: CasePageRequest }[] = [];
const bodies: CaseInput[] = [];
let createAnswer: () => Promise<CreatedCase>;
let getAnswer: (id: string) => Promise<CaseView>;

let app: HttpApp;
beforeAll(async () => {
  app = createHttpApp({ bodyLimit: 1024 * 1024 });
  app.addHook('onRequest', (request, _reply, done) => {
    request.apiKey = { id: 'k1', company: 'acme', name: 'test' };
    done();
  });
  await app.register(casesRoutes, {
    publicUrl: 'https://docpipe.test',
    library: {
      get: (id) =>
        id === 'lease'
          ? Promise.resolve({ id, name: 'Lease', versions: ['1', '2'], currentVersion: '2' })
          : Promise.reject(
              new DocpipeError('document-not-found', [
                { field: 'id', message: `no library document "${id}"` },
              ]),
            ),
    },
    cases: {
      createCase: (_company, _creator, body) => {
        bodies.push(body);
        return createAnswer();
      },
      getCase: (_company, id) => getAnswer(id),
      listCases: (company, filters, page) => {
        lists.push({ company, filters, page });
        return Promise.resolve({ cases: [], nextCursor: 'next' });
      },
      sendCase: (company, id) => {
        if (id === 'draft-1')
          return Promise.resolve({
            case: {
              id,
              state: 'open' as const,
              activeGroup: 1,
              delivery: {
                attempted: true,
                email: { ok: true, attempted: true, location: `<${company}@mail>` },
                eboks: { ok: true, attempted: false, reason: 'e-Boks delivery is not configured' },
                sms: { ok: false, attempted: true, error: 'not sent' },
                webhook: { ok: true, attempted: true },
              },
            },
          });
        if (id === 'open-1')
          return Promise.reject(
            new DocpipeError('validation-failed', [
              { field: 'state', message: 'the case is open: only a draft is sent' },
            ]),
          );
        return Promise.reject(
          new DocpipeError('case-not-found', [{ field: 'id', message: 'no such case' }]),
        );
      },
    },
  });
});
afterAll(() => app.close());

async function list(query: string) {
  const before = lists.length;
  const res = await app.inject({ method: 'GET', url: `/v3/api/cases${query}` });
  return { res, call: lists.length > before ? lists.at(-1) : undefined };
}

describe('GET /v3/api/cases', () => {
  it('asks the service for the key’s company with the filters, a page of 100 by default', async () => {
    const { res, call } = await list(
      '?state=open&folder=Contracts&referenceId=r1&createdAfter=2026-05-01&cursor=abc',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ cases: [], nextCursor: 'next' });
    expect(call).toEqual({
      company: 'acme',
      filters: {
        state: 'open',
        folder: 'Contracts',
        referenceId: 'r1',
        createdAfter: new Date('2026-05-01T00:00:00Z'),
      },
      page: { cursor: 'abc', limit: 100 },
    });
    expect((await list('?limit=7')).call?.page).toEqual({ limit: 7 });
  });

  it.each([
    ['2026-05-01T12:30:00Z', '2026-05-01T12:30:00.000Z'],
    ['2026-05-01T14:30+02:00', '2026-05-01T12:30:00.000Z'],
    ['2026-05-01T14:30:15.5+0200', '2026-05-01T12:30:15.500Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
  ])('reads createdAfter %s as %s', async (value, moment) => {
    const { call } = await list(`?createdAfter=${encodeURIComponent(value)}`);
    expect(call?.filters.createdAfter?.toISOString()).toBe(moment);
  });

  it.each([
    ['yesterday', 'must be an ISO 8601 date'],
    ['2026-02-30', 'names no day of the calendar'],
    ['2026-05-01T25:00:00Z', 'names no moment of the calendar'],
    ['2026-05-01T12:00:00', 'needs its offset'],
    ['1714550400', 'must be an ISO 8601 date'],
  ])('refuses createdAfter %s at createdAfter, asking nothing', async (value, says) => {
    const { res, call } = await list(`?createdAfter=${encodeURIComponent(value)}`);
    expect(res.statusCode).toBe(400);
    expect(call).toBeUndefined();
    const body = res.json<{ error: string; details: { field: string; message: string }[] }>();
    expect(body.error).toBe('validation-failed');
    expect(body.details).toHaveLength(1);
    expect(body.details[0]!.field).toBe('createdAfter');
    expect(body.details[0]!.message).toContain(says);
  });

  it('refuses an unknown parameter, a bad state and limit, and a bad createdAfter, all at once', async () => {
    const { res, call } = await list('?title=x&state=sent&limit=0&createdAfter=soon');
    expect(res.statusCode).toBe(400);
    expect(call).toBeUndefined();
    expect(res.json()).toEqual({
      error: 'validation-failed',
      details: [
        { field: 'title', message: 'unknown field' },
        {
          field: 'state',
          message: 'must be one of "draft", "open", "signed", "denied", "expired"',
        },
        {
          field: 'createdAfter',
          message:
            'must be an ISO 8601 date (2026-05-01) or date-time (2026-05-01T12:00:00Z) (got "soon")',
        },
        { field: 'limit', message: 'must be from 1 to 1000 (got 0)' },
      ],
    });
    const letters = await list('?limit=ten');
    expect(letters.res.json()).toEqual({
      error: 'validation-failed',
      details: [{ field: 'limit', message: 'must match pattern "^[0-9]{1,4}$"' }],
    });
  });
});

describe('POST /v3/api/cases and GET /v3/api/cases/{id}', () => {
  it('answers 201 with Location and exactly spec 2.2’s case: no token, service key or CPR', async () => {
    const answer = {
      id: 'c 1',
      serviceKey: 'sk',
      recipients: [
        {
          id: 'r1',
          uid: 'u1',
          signingUrl: 'https://docpipe.test/sign/x',
          status: 'pending',
          signingToken: 'secret',
          cpr: '0101011234',
        },
      ],
      documents: [{ url: 'https://docpipe.test/files/a', key: 'cases/a.pdf' }],
      activeGroup: 1,
      delivery: {
        attempted: false,
        email: { ok: true, attempted: false, reason: 'no channel' },
        eboks: { ok: true, attempted: false, reason: 'no channel' },
        sms: { ok: true, attempted: false, reason: 'no channel' },
        webhook: { ok: true, attempted: false, reason: 'no channel' },
      },
      notices: [{ code: 'default-signing-schemas', message: 'm', using: ['draw'] }],
      logs: [],
    };
    createAnswer = () =>
      Promise.resolve({ case: answer, notices: answer.notices } as unknown as CreatedCase);
    const res = await app.inject({ method: 'POST', url: '/v3/api/cases', payload: { title: 'T' } });
    expect(res.statusCode).toBe(201);
    expect(res.headers.location).toBe('/v3/api/cases/c%201');
    expect(res.json()).toEqual({
      case: {
        id: 'c 1',
        recipients: [
          { id: 'r1', uid: 'u1', signingUrl: 'https://docpipe.test/sign/x', status: 'pending' },
        ],
        documents: [{ url: 'https://docpipe.test/files/a' }],
        activeGroup: 1,
        delivery: answer.delivery,
        notices: answer.notices,
      },
    });
    expect(res.body).not.toMatch(/secret|signingToken|serviceKey|0101011234|cpr/);
  });

  it('answers a documentId the library lacks as 400 on create, and a case not found as 404', async () => {
    const missing = new DocpipeError('document-not-found', [
      { field: 'documents[0]', message: 'no library document "x"' },
    ]);
    createAnswer = () => Promise.reject(missing);
    const created = await app.inject({
      method: 'POST',
      url: '/v3/api/cases',
      payload: { title: 'T' },
    });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toEqual({
      error: 'document-not-found',
      details: [{ field: 'documents[0]', message: 'no library document "x"' }],
    });
    getAnswer = (id) =>
      Promise.reject(
        new DocpipeError('case-not-found', [{ field: 'id', message: `no case ${id}` }]),
      );
    const got = await app.inject({ method: 'GET', url: '/v3/api/cases/nope' });
    expect(got.statusCode).toBe(404);
    expect(got.json()).toMatchObject({ error: 'case-not-found' });
  });

  it('refuses a query parameter on GET /v3/api/cases/{id}', async () => {
    const res = await app.inject({ method: 'GET', url: '/v3/api/cases/c1?expand=all' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'validation-failed',
      details: [{ field: 'expand', message: 'unknown field' }],
    });
  });
});

describe('POST /v3/api/documents/{id}/cases', () => {
  const answer = {
    case: {
      id: 'c2',
      recipients: [],
      documents: [{ url: 'https://docpipe.test/files/x' }],
      activeGroup: null,
      delivery: {
        attempted: false,
        email: { ok: true, attempted: false, reason: 'no channel' },
        eboks: { ok: true, attempted: false, reason: 'no channel' },
        sms: { ok: true, attempted: false, reason: 'no channel' },
        webhook: { ok: true, attempted: false, reason: 'no channel' },
      },
    },
    notices: [],
  } satisfies CreatedCase;

  it('creates the case from the path’s document, filled with the case’s tags', async () => {
    createAnswer = () => Promise.resolve(answer);
    const tags = [{ tag: 'tenant', value: 'Ann', type: 'text' }];
    const res = await app.inject({
      method: 'POST',
      url: '/v3/api/documents/lease/cases',
      payload: { title: 'Lease', versionId: '1', tags },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers.location).toBe('/v3/api/cases/c2');
    expect(res.json()).toEqual({ case: answer.case });
    expect(bodies.at(-1)).toEqual({
      title: 'Lease',
      tags,
      documents: [{ name: 'Lease', documentId: 'lease', versionId: '1' }],
    });
  });

  it('answers a document the library lacks 404, and refuses documents in the body', async () => {
    const before = bodies.length;
    const absent = await app.inject({
      method: 'POST',
      url: '/v3/api/documents/nope/cases',
      payload: { title: 'T' },
    });
    expect(absent.statusCode).toBe(404);
    expect(absent.json()).toEqual({
      error: 'document-not-found',
      details: [{ field: 'id', message: 'no library document "nope"' }],
    });
    const extra = await app.inject({
      method: 'POST',
      url: '/v3/api/documents/lease/cases',
      payload: { title: 'T', documents: [], name: 'x' },
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toEqual({
      error: 'validation-failed',
      details: [
        { field: 'documents', message: 'unknown field' },
        { field: 'name', message: 'unknown field' },
      ],
    });
    expect(bodies.length).toBe(before);
  });

  it('names the request’s own members in the service’s failures, not documents[0]', async () => {
    createAnswer = () =>
      Promise.reject(
        new DocpipeError('validation-failed', [
          { field: 'documents[0].tags.tenant', message: 'needs a value' },
          { field: 'recipients[0].phone', message: 'is required for an sms recipient' },
        ]),
      );
    const res = await app.inject({
      method: 'POST',
      url: '/v3/api/documents/lease/cases',
      payload: { title: 'T' },
    });
    expect(res.json()).toEqual({
      error: 'validation-failed',
      details: [
        { field: 'tags.tenant', message: 'needs a value' },
        { field: 'recipients[0].phone', message: 'is required for an sms recipient' },
      ],
    });
    createAnswer = () =>
      Promise.reject(
        new DocpipeError('document-version-not-found', [
          { field: 'documents[0].versionId', message: 'no version "9"' },
        ]),
      );
    const version = await app.inject({
      method: 'POST',
      url: '/v3/api/documents/lease/cases',
      payload: { title: 'T', versionId: '9' },
    });
    expect(version.statusCode).toBe(400);
    expect(version.json()).toEqual({
      error: 'document-version-not-found',
      details: [{ field: 'versionId', message: 'no version "9"' }],
    });
  });
});

describe('parseCreatedAfter', () => {
  it('takes what ISO 8601 writes with an offset, and says why it refuses the rest', () => {
    expect(parseCreatedAfter('2026-12-31')).toEqual(new Date('2026-12-31T00:00:00Z'));
    expect(parseCreatedAfter('2026-12-31t23:59z')).toEqual(new Date('2026-12-31T23:59:00Z'));
    expect(parseCreatedAfter('2026-13-01')).toEqual({
      problem: 'names no day of the calendar (got "2026-13-01")',
    });
    expect(parseCreatedAfter('2026-05-01 12:00Z')).toMatchObject({
      problem: expect.stringContaining('must be an ISO 8601 date') as unknown,
    });
  });
});

describe('POST /v3/api/cases/{id}/send', () => {
  it('takes Content-Type: application/json with no body, as many clients send it', async () => {
    for (const payload of ['', '  \n'])
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/v3/api/cases/draft-1/send',
            headers: { 'content-type': 'application/json' },
            payload,
          })
        ).statusCode,
      ).toBe(200);
    // A route that takes a body still refuses an empty one.
    const create = await app.inject({
      method: 'POST',
      url: '/v3/api/cases',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(create.statusCode).toBe(400);
    expect(create.json()).toMatchObject({ error: 'validation-failed' });
  });

  it('answers the draft now open with its delivery, for the key’s company', async () => {
    const res = await app.inject({ method: 'POST', url: '/v3/api/cases/draft-1/send' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      case: {
        id: 'draft-1',
        state: 'open',
        activeGroup: 1,
        delivery: {
          attempted: true,
          email: { ok: true, attempted: true, location: '<acme@mail>' },
          eboks: { ok: true, attempted: false, reason: 'e-Boks delivery is not configured' },
          sms: { ok: false, attempted: true, error: 'not sent' },
          webhook: { ok: true, attempted: true },
        },
      },
    });
  });

  it('answers the service’s refusals with their slugs and statuses', async () => {
    const open = await app.inject({ method: 'POST', url: '/v3/api/cases/open-1/send' });
    expect(open.statusCode).toBe(400);
    expect(open.json()).toMatchObject({
      error: 'validation-failed',
      details: [{ field: 'state' }],
    });
    const missing = await app.inject({ method: 'POST', url: '/v3/api/cases/nope/send' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'case-not-found' });
  });
});
