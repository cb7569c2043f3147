import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { registerOpenApi } from '../../src/surfaces/http/common/openapi.js';
import { CallerGoneError } from '../../src/surfaces/http/convert/convert-deadline.js';
import {
  convertRoutes,
  pdfName,
  type ConvertRoutesOptions,
} from '../../src/surfaces/http/convert/convert-routes.js';
import {
  type DocumentInput,
  type DocumentJobResult,
  type RequestOptions,
} from '../../src/jobs/queue/index.js';
import { QueueUnavailableError } from '../../src/platform/redis/index.js';
import {
  LocalStorage,
  parseStoredDocumentUrl,
  storedDocumentKey,
  storedDocumentUrl,
} from '../../src/render/storage/index.js';
import { testDir } from '../helpers/test-dir.js';
import { waitUntil } from '../helpers/wait.js';

/**
 * The convert route's own logic with a scripted queue client: what reaches the queue, what it
 * answers for every outcome the client can have. The real queue and LibreOffice are in
 * test/integration/http-convert.test.ts.
 */

const PUBLIC = 'https://docpipe.test';
const COMPANY = 'acme';
const URL_PATH = '/api/v2/document/convert';

interface Call {
  documents: DocumentInput[];
  request: RequestOptions & { requestId?: string };
}

type Script = (call: Call) => Promise<DocumentJobResult[]>;

const rendered = (field: string, key: string): DocumentJobResult => ({
  field,
  kind: 'rendered',
  result: {
    key,
    type: 'pdf',
    bytes: 10,
    sha256: '0'.repeat(64),
    pages: 1,
    input: 'docx',
    fonts: [],
    notices: [],
    cached: false,
    timings: {},
  },
});

const ok: Script = (call) =>
  Promise.resolve(call.documents.map((_, i) => rendered(`documents[${i}]`, `renders/doc${i}.pdf`)));

async function appWith(
  script: Script,
  extra: Partial<ConvertRoutesOptions> = {},
  bodyLimit = 1024 * 1024,
): Promise<{ app: HttpApp; calls: Call[]; storage: LocalStorage }> {
  const storage = new LocalStorage(join(testDir('docpipe-http-convert-'), 'storage'));
  const calls: Call[] = [];
  const app = createHttpApp({ bodyLimit });
  app.addHook('onRequest', (request, _reply, done) => {
    request.apiKey = { id: 'k1', company: COMPANY, name: 'test' };
    done();
  });
  await app.register(convertRoutes, {
    client: {
      renderDocumentSet: (documents, request = {}) => {
        const call = { documents, request };
        calls.push(call);
        return script(call);
      },
      // A set of one document: the route asks for it alone, with the same answer.
      render: async (document, request = {}) => {
        const call = { documents: [document], request };
        calls.push(call);
        return (await script(call))[0]!;
      },
    },
    storage,
    resolveDocumentUrl: (url, company) => {
      const ref = parseStoredDocumentUrl(url, PUBLIC);
      return Promise.resolve(ref && ref.company === company ? { key: ref.key } : undefined);
    },
    signedUrlFor: (key, name) => `${PUBLIC}/files/${key}?name=${encodeURIComponent(name)}`,
    ...extra,
  });
  return { app, calls, storage };
}

const b64 = (text: string) => Buffer.from(text).toString('base64');

async function post(app: HttpApp, payload: unknown, headers: Record<string, string> = {}) {
  const res = await app.inject({
    method: 'POST',
    url: URL_PATH,
    payload: payload as object,
    headers,
  });
  return {
    status: res.statusCode,
    body: res.json<Record<string, unknown>>(),
    headers: res.headers,
  };
}

const descriptions = (body: Record<string, unknown>) =>
  (body.errors as { code: number; message: string; description: string }[]).map(
    (e) => e.description,
  );

describe('POST /api/v2/document/convert, request checks', () => {
  it('lists every structural problem at once, each with its field path, queuing nothing', async () => {
    const { app, calls } = await appWith(ok);
    const res = await post(app, {
      documents: [{ file: b64('x') }, { name: 'b.docx' }],
      tags: [{ tag: 'a', type: 'text', extra: 1 }],
    });
    expect(res.status).toBe(400);
    expect(descriptions(res.body).sort()).toEqual([
      'documents[0].name: is required',
      'documents[1].file: is required',
      'tags[0].extra: unknown field',
      'tags[0].value: is required',
    ]);
    expect((res.body.errors as { code: number; message: string }[])[0]).toMatchObject({
      code: 400,
      message: 'Bad Request',
    });
    expect(calls).toHaveLength(0);
  });

  it('requires a non-empty documents list', async () => {
    const { app } = await appWith(ok);
    expect(descriptions((await post(app, {})).body)).toEqual(['documents: is required']);
    const empty = await post(app, { documents: [] });
    expect(empty.status).toBe(400);
    expect(descriptions(empty.body)).toEqual(['documents: must NOT have fewer than 1 items']);
  });

  it('refuses more documents than maxDocuments', async () => {
    const { app } = await appWith(ok, { maxDocuments: 2 });
    const doc = { file: b64('x'), name: 'a.docx' };
    const res = await post(app, { documents: [doc, doc, doc] });
    expect(res.status).toBe(400);
    expect(descriptions(res.body)).toEqual(['documents: must NOT have more than 2 items']);
  });

  it('ignores unknown members of the body and of each document, as v2 always did', async () => {
    const { app, calls } = await appWith(ok);
    const res = await post(app, {
      documents: [{ file: b64('bytes'), name: 'a.docx', fileIsBlob: true }],
      companyId: 'ignored',
    });
    expect(res.status).toBe(200);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.documents).toEqual([{ name: 'a.docx', content: Buffer.from('bytes') }]);
  });

  it('refuses content that is not base64, naming documents[i].file', async () => {
    const { app, calls } = await appWith(ok);
    const res = await post(app, {
      documents: [
        { file: b64('fine'), name: 'a.docx' },
        { file: 'not base64!', name: 'b.docx' },
        { file: 'abc', name: 'c.docx' },
      ],
    });
    expect(res.status).toBe(400);
    const found = descriptions(res.body);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^documents\[1\]\.file: is neither base64 content nor a URL/);
    expect(found[1]).toMatch(/^documents\[2\]\.file: is neither base64 content nor a URL/);
    expect(calls).toHaveLength(0);
  });

  it('accepts base64 wrapped in lines, as MIME encoders write it', async () => {
    const { app, calls } = await appWith(ok);
    const text = 'a'.repeat(100);
    const wrapped = b64(text).replace(/(.{76})/g, '$1\r\n');
    expect(wrapped).toContain('\r\n');
    const res = await post(app, { documents: [{ file: wrapped, name: 'a.docx' }] });
    expect(res.status).toBe(200);
    expect(Buffer.from(calls[0]!.documents[0]!.content!).toString()).toBe(text);
  });

  it('refuses every URL docpipe did not issue for this company, fetching none', async () => {
    const { app, calls, storage } = await appWith(ok);
    const sha = 'a'.repeat(64);
    const otherKey = storedDocumentKey('other-company', sha, 'docx');
    await storage.put(otherKey, Buffer.from('theirs'), 'application/octet-stream');
    const res = await post(app, {
      documents: [
        { file: 'https://example.com/contract.docx', name: 'a.docx' },
        { file: storedDocumentUrl(PUBLIC, otherKey), name: 'b.docx' },
        { file: 'file:///etc/passwd', name: 'c.docx' },
      ],
    });
    expect(res.status).toBe(400);
    const found = descriptions(res.body);
    expect(found.map((d) => d.slice(0, d.indexOf(':')))).toEqual([
      'documents[0].file',
      'documents[1].file',
      'documents[2].file',
    ]);
    for (const d of found) expect(d).toContain('docpipe never fetches a host a caller names');
    expect(calls).toHaveLength(0);
  });

  it('sends a URL docpipe issued as its storage key, and says when its document is gone', async () => {
    const { app, calls, storage } = await appWith(ok);
    const key = storedDocumentKey(COMPANY, 'b'.repeat(64), 'docx');
    await storage.put(key, Buffer.from('stored bytes'), 'application/octet-stream');
    const goneKey = storedDocumentKey(COMPANY, 'c'.repeat(64), 'pdf');
    const gone = await post(app, {
      documents: [
        { file: storedDocumentUrl(PUBLIC, key), name: 'a.docx' },
        { file: storedDocumentUrl(PUBLIC, goneKey), name: 'b.pdf' },
      ],
    });
    expect(gone.status).toBe(400);
    expect(descriptions(gone.body)).toEqual([
      'documents[1].file: names a stored document that is no longer there: upload it again',
    ]);
    const res = await post(app, {
      documents: [{ file: storedDocumentUrl(PUBLIC, key), name: 'a.docx' }],
    });
    expect(res.status).toBe(200);
    expect(calls).toHaveLength(1);
    // By reference: the worker reads the upload, so its bytes are neither sent nor copied.
    expect(calls[0]!.documents).toEqual([{ name: 'a.docx', storageKey: key }]);
  });
});

describe('POST /api/v2/document/convert, answers', () => {
  it('answers each PDF as a signed URL named after its document, with the tags on every document', async () => {
    const { app, calls } = await appWith(ok);
    const tags = [{ tag: 'start_date', value: '2025-01-01', type: 'date', format: null }];
    const res = await post(app, {
      documents: [
        { file: b64('one'), name: 'lease.docx' },
        { file: b64('two'), name: 'Annex' },
      ],
      tags,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: { code: 200, message: '2 document(s) converted' },
      documents: [
        { file: `${PUBLIC}/files/renders/doc0.pdf?name=lease.pdf`, name: 'lease.pdf' },
        { file: `${PUBLIC}/files/renders/doc1.pdf?name=Annex.pdf`, name: 'Annex.pdf' },
      ],
    });
    expect(calls[0]!.documents.map((d) => d.tags)).toEqual([tags, tags]);
  });

  it('carries the request id into the queue request', async () => {
    const { app, calls } = await appWith(ok);
    await post(
      app,
      { documents: [{ file: b64('x'), name: 'a.docx' }] },
      { 'x-request-id': 'req-42' },
    );
    expect(calls[0]!.request.requestId).toBe('req-42');
    expect(calls[0]!.request.signal).toBeInstanceOf(AbortSignal);
  });

  it('answers a typed failure with its status and every detail, each naming document and tag', async () => {
    const { app } = await appWith(() =>
      Promise.reject(
        new DocpipeError('validation-failed', [
          { field: 'documents[0].tags.start_date', message: 'the template needs a value' },
          { field: 'documents[1].tags.start_date', message: 'the template needs a value' },
        ]),
      ),
    );
    const doc = { file: b64('x'), name: 'a.docx' };
    const res = await post(app, { documents: [doc, doc] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          code: 400,
          message: 'Bad Request',
          description: 'documents[0].tags.start_date: the template needs a value',
        },
        {
          code: 400,
          message: 'Bad Request',
          description: 'documents[1].tags.start_date: the template needs a value',
        },
      ],
    });
  });

  it("gives a value failure's path once: its message already names the TagInput", async () => {
    const { app } = await appWith(() =>
      Promise.reject(
        new DocpipeError('validation-failed', [
          {
            field: 'documents[0].tags[0].value',
            message: 'documents[0].tags[0] (start_date): "2025-13-01" is not a date (YYYY-MM-DD)',
          },
          { field: 'documents[0].tags.end_date', message: 'end_date needs a value' },
        ]),
      ),
    );
    const res = await post(app, { documents: [{ file: b64('x'), name: 'a.docx' }] });
    expect(descriptions(res.body)).toEqual([
      'documents[0].tags[0] (start_date): "2025-13-01" is not a date (YYYY-MM-DD)',
      'documents[0].tags.end_date: end_date needs a value',
    ]);
  });

  it('answers a missing queue 503 with Retry-After, without naming Redis', async () => {
    const { app } = await appWith(
      () =>
        Promise.reject(
          QueueUnavailableError.noWorker('redis://:secret@10.0.0.5:6379', 10_000, false),
        ),
      { retryAfterSeconds: 7 },
    );
    const res = await post(app, { documents: [{ file: b64('x'), name: 'a.docx' }] });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.body).toEqual({
      errors: [
        {
          code: 503,
          message: 'Service Unavailable',
          description:
            'no docpipe worker is converting documents right now; send the request again later',
        },
      ],
    });
    expect(JSON.stringify(res.body)).not.toContain('10.0.0.5');
  });

  it('gives up after timeoutMs with 503 and Retry-After, aborting the queue request', async () => {
    let seen: AbortSignal | undefined;
    const { app } = await appWith(
      ({ request }) =>
        new Promise((_, reject) => {
          seen = request.signal;
          request.signal!.addEventListener('abort', () => reject(request.signal!.reason as Error));
        }),
      { timeoutMs: 50 },
    );
    const res = await post(app, { documents: [{ file: b64('x'), name: 'a.docx' }] });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('30');
    expect(descriptions(res.body)).toEqual([
      'no answer within 0.05 s: the queue is busier than its workers can take; nothing was kept, send the request again later',
    ]);
    expect(seen?.aborted).toBe(true);
  });

  it('aborts the queue request when the caller hangs up, so its waiting jobs are withdrawn', async () => {
    let seen: AbortSignal | undefined;
    const { app } = await appWith(
      ({ request }) =>
        new Promise((_, reject) => {
          seen = request.signal;
          request.signal!.addEventListener('abort', () => reject(request.signal!.reason as Error));
        }),
    );
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    onTestFinished(() => app.close());
    const caller = new AbortController();
    const sent = fetch(`${base}${URL_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ documents: [{ file: b64('x'), name: 'a.docx' }] }),
      signal: caller.signal,
    });
    await waitUntil(() => seen !== undefined, 5000, 'the request reaching the queue');
    caller.abort();
    await expect(sent).rejects.toThrow();
    await waitUntil(() => seen!.aborted, 5000, 'the queue request aborted');
    expect(seen!.reason).toBeInstanceOf(CallerGoneError);
  });

  it('answers an internal error 500 in the v2 shape, with the request id and no stack', async () => {
    const { app } = await appWith(() => Promise.reject(new Error('disk on fire at /srv/x')));
    const res = await post(
      app,
      { documents: [{ file: b64('x'), name: 'a.docx' }] },
      { 'x-request-id': 'req-500' },
    );
    expect(res.status).toBe(500);
    expect(descriptions(res.body)).toEqual([
      'docpipe failed on its side; try again later, and if it persists give the operator request id req-500',
    ]);
    expect(JSON.stringify(res.body)).not.toContain('disk on fire');
  });

  it('answers Fastify refusals (bad JSON, over the body limit) in the v2 shape', async () => {
    const { app } = await appWith(ok, {}, 2000);
    const bad = await app.inject({
      method: 'POST',
      url: URL_PATH,
      payload: '{"documents": [',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ errors: { code: number }[] }>().errors).toHaveLength(1);
    expect(bad.json<{ errors: { code: number }[] }>().errors[0]!.code).toBe(400);
    const big = await post(app, { documents: [{ file: b64('x'.repeat(3000)), name: 'a.docx' }] });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({
      errors: [
        {
          code: 413,
          message: 'Payload Too Large',
          description:
            "body: is larger than this endpoint's limit of 2000 bytes; send smaller documents, or upload large ones first and send their URLs",
        },
      ],
    });
  });
});

describe('convert route options and names', () => {
  it('describes its body and every answer in the OpenAPI document', async () => {
    const app = createHttpApp({ bodyLimit: 1024 });
    await registerOpenApi(app, PUBLIC);
    await app.register(convertRoutes, {
      client: {
        renderDocumentSet: () => Promise.resolve([]),
        render: () => Promise.reject(new Error('unused')),
      },
      storage: new LocalStorage(testDir('docpipe-http-openapi-')),
      resolveDocumentUrl: () => Promise.resolve(undefined),
      signedUrlFor: () => '',
    });
    await app.ready();
    const doc = app.swagger() as unknown as {
      paths: Record<
        string,
        Record<string, { tags: string[]; requestBody: unknown; responses: object }>
      >;
    };
    const op = doc.paths['/api/v2/document/convert']!.post!;
    expect(op.tags).toEqual(['v2 documents']);
    expect(op.requestBody).toMatchObject({ required: true });
    expect(Object.keys(op.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '413',
      '429',
      '500',
      '503',
    ]);
  });

  it('refuses options that are not positive integers, naming each', async () => {
    await expect(appWith(ok, { timeoutMs: 0, maxDocuments: 1.5 })).rejects.toThrow(
      'convert route options: timeoutMs must be a positive integer (got 0); maxDocuments must be a positive integer (got 1.5)',
    );
  });

  it('names the PDF after the document', () => {
    expect(pdfName('lease.docx')).toBe('lease.pdf');
    expect(pdfName('Scan.PDF')).toBe('Scan.pdf');
    expect(pdfName('Annex')).toBe('Annex.pdf');
  });
});
