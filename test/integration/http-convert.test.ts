import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { convertRoutes } from '../../src/surfaces/http/convert/convert-routes.js';
import { DocpipeClient, type DocpipeClient as Client } from '../../src/jobs/queue/index.js';
import {
  parseStoredDocumentUrl,
  signUrl,
  storedDocumentKey,
  storedDocumentUrl,
  verifySignedUrl,
  type Storage,
} from '../../src/render/storage/index.js';
import { corpusDir } from '../helpers/corpus.js';
import { pdfText } from '../helpers/pdf-text.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';
import { lease, leaseTags } from '../helpers/lease.js';

/**
 * The convert endpoint on the real queue: a private Redis, worker lanes, the prepare threads and a warm
 * LibreOffice. One real conversion (the lease); every other answer is a cache hit or a failure
 * found before LibreOffice, so the file stays light on the shared cores.
 */

const PUBLIC = 'https://docpipe.test';
const SECRET = 'test-signing-secret-0123456789';
const COMPANY = 'acme';

let stack: QueueStack;
beforeAll(async () => {
  stack = await startQueueStack();
});
afterAll(() => stack.close());

/** The resolver the server wires: upload URLs of the key's company, and docpipe's signed URLs. */
function resolveDocumentUrl(url: string, company: string) {
  const upload = parseStoredDocumentUrl(url, PUBLIC);
  if (upload) return Promise.resolve(upload.company === company ? { key: upload.key } : undefined);
  const signed = url.startsWith(`${PUBLIC}/files/`) ? verifySignedUrl(url, SECRET) : undefined;
  return Promise.resolve(signed?.ok ? { key: signed.key } : undefined);
}

async function appFor(client: Client, storage: Storage): Promise<HttpApp> {
  const app = createHttpApp({ bodyLimit: 10 * 1024 * 1024 });
  app.addHook('onRequest', (request, _reply, done) => {
    request.apiKey = { id: 'k1', company: COMPANY, name: 'test' };
    done();
  });
  await app.register(convertRoutes, {
    client,
    storage,
    resolveDocumentUrl,
    signedUrlFor: (key) => signUrl(PUBLIC, key, new Date(Date.now() + 900_000), SECRET),
    retryAfterSeconds: 5,
  });
  onTestFinished(() => app.close());
  return app;
}

interface Answer {
  status?: { code: number; message: string };
  documents?: { file: string; name: string }[];
  errors?: { code: number; message: string; description: string }[];
}

/** The stored PDF a signed URL of the answer points at, as the download route would serve it. */
async function download(url: string): Promise<{ key: string; pdf: Buffer }> {
  const checked = verifySignedUrl(url, SECRET);
  if (!checked.ok) throw new Error(`not a valid signed URL (${checked.reason}): ${url}`);
  const pdf = await stack.storage.get(checked.key);
  if (!pdf) throw new Error(`nothing stored at ${checked.key}`);
  return { key: checked.key, pdf };
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('POST /api/v2/document/convert on the real queue', () => {
  it('converts the lease with its tags over a socket, then answers the same PDF for its upload and signed URLs', async () => {
    const lane = await stack.lane();
    const app = await appFor(lane.client, stack.storage);
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${base}/api/v2/document/convert`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'req-lease' },
      body: JSON.stringify({
        documents: [{ file: b64(lease), name: 'lease.docx' }],
        tags: leaseTags,
      }),
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as Answer;
    expect(answer.status).toEqual({ code: 200, message: '1 document(s) converted' });
    expect(answer.documents).toHaveLength(1);
    expect(answer.documents![0]!.name).toBe('lease.pdf');
    expect(answer.documents![0]!.file.startsWith(`${PUBLIC}/files/`)).toBe(true);
    const first = await download(answer.documents![0]!.file);
    expect(first.pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(first.pdf);
    expect(text).toContain('LK-2025-0042');
    expect(text).toContain('Mette Sørensen');

    // The template uploaded (its stored-document URL) and signed: both read from storage, both
    // the same render (same bytes, tags and name), answered from the cache. Unknown members are
    // ignored, as v2 did.
    const key = storedDocumentKey(
      COMPANY,
      createHash('sha256').update(lease).digest('hex'),
      'docx',
    );
    await stack.storage.put(key, lease, 'application/octet-stream');
    const again = await app.inject({
      method: 'POST',
      url: '/api/v2/document/convert',
      payload: {
        documents: [
          { file: storedDocumentUrl(PUBLIC, key), name: 'lease.docx', fileIsBlob: false },
          { file: signUrl(PUBLIC, key, new Date(Date.now() + 60_000), SECRET), name: 'lease.docx' },
        ],
        tags: leaseTags,
        companyId: 'ignored',
      },
    });
    expect(again.statusCode).toBe(200);
    const answered = again.json<Answer>().documents!;
    expect(answered.map((d) => d.name)).toEqual(['lease.pdf', 'lease.pdf']);
    for (const d of answered) expect((await download(d.file)).key).toBe(first.key);
  });

  it('lists every failing document at once: missing tags by document and tag, an unsupported file with its sniff reason', async () => {
    const lane = await stack.lane();
    const app = await appFor(lane.client, stack.storage);
    const missing = ['tenant_name', 'start_date'];
    expect(leaseTags.filter((t) => missing.includes(t.tag))).toHaveLength(2);
    const xlsx = readFileSync(join(corpusDir(), 'other/file-type__fixture.xlsx'));
    const res = await app.inject({
      method: 'POST',
      url: '/api/v2/document/convert',
      payload: {
        documents: [
          { file: b64(lease), name: 'a.docx' },
          { file: b64(lease), name: 'b.docx' },
          { file: b64(xlsx), name: 'sheet.docx' },
        ],
        tags: leaseTags.filter((t) => !missing.includes(t.tag)),
      },
    });
    expect(res.statusCode).toBe(400);
    const errors = res.json<Answer>().errors!;
    for (const e of errors) expect(e).toMatchObject({ code: 400, message: 'Bad Request' });
    const fields = errors.map((e) => e.description.slice(0, e.description.indexOf(':')));
    expect(fields).toEqual([
      'documents[0].tags.tenant_name',
      'documents[0].tags.start_date',
      'documents[1].tags.tenant_name',
      'documents[1].tags.start_date',
      'documents[2]',
    ]);
    expect(errors[4]!.description).toMatch(/spreadsheet|xlsx/i);
  });

  it('refuses a foreign URL and bad base64 before queuing anything', async () => {
    const lane = await stack.lane();
    const app = await appFor(lane.client, stack.storage);
    const res = await app.inject({
      method: 'POST',
      url: '/api/v2/document/convert',
      payload: {
        documents: [
          { file: b64(lease), name: 'fine.docx' },
          { file: 'http://169.254.169.254/latest/meta-data', name: 'b.docx' },
          { file: '%%%', name: 'c.docx' },
        ],
      },
    });
    expect(res.statusCode).toBe(400);
    const errors = res.json<Answer>().errors!;
    expect(errors.map((e) => e.description.slice(0, e.description.indexOf(':')))).toEqual([
      'documents[1].file',
      'documents[2].file',
    ]);
    expect(errors[0]!.description).toContain('docpipe never fetches a host a caller names');
    const counts = await lane.documents.getJobCounts();
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(0);
  });

  it("answers 429 with Retry-After when the key's company has its cap of waiting jobs, queuing nothing", async () => {
    const lane = await stack.lane({ client: { companyMaxQueued: 1 } });
    const app = await appFor(lane.client, stack.storage);
    const res = await app.inject({
      method: 'POST',
      url: '/api/v2/document/convert',
      payload: {
        documents: [
          { file: b64(lease), name: 'a.docx' },
          { file: b64(lease), name: 'b.docx' },
        ],
        tags: leaseTags,
      },
    });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('10');
    expect(res.json<Answer>()).toEqual({
      errors: [
        {
          code: 429,
          message: 'Too Many Requests',
          description:
            "your company may have at most 1 documents waiting to be converted; it has 0, and this request's 2 would pass that, so none of them was queued. Send it again in 10 s, or in smaller requests.",
        },
      ],
    });
    expect(await lane.documents.count()).toBe(0);
  });

  it('answers 503 with Retry-After when no worker takes jobs', async () => {
    const client = await DocpipeClient.connect({
      redisUrl: stack.url,
      prefix: `test-${randomUUID()}`,
      noWorkerMs: 300,
      healthIntervalMs: 100,
    });
    onTestFinished(() => client.close());
    const app = await appFor(client, stack.storage);
    const res = await app.inject({
      method: 'POST',
      url: '/api/v2/document/convert',
      payload: { documents: [{ file: b64(lease), name: 'a.docx' }] },
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json<Answer>()).toEqual({
      errors: [
        {
          code: 503,
          message: 'Service Unavailable',
          description:
            'no docpipe worker is converting documents right now; send the request again later',
        },
      ],
    });
  });
});
