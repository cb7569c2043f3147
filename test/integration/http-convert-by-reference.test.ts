import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import {
  LocalStorage,
  parseStorageKey,
  parseStoredDocumentUrl,
  storedDocumentKey,
  verifySignedUrl,
} from '../../src/render/storage/index.js';
import {
  CONVERT_PUBLIC_URL as PUBLIC_URL,
  CONVERT_SECRET as SECRET,
  convertServer,
} from '../helpers/convert-server.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import { convertedPdf } from '../helpers/scripted-converter.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * Convert by reference: a document uploaded to docpipe and then converted by its URL goes to the
 * worker as its storage key. Its bytes are not sent through Redis and not stored a second time;
 * the one new object is the PDF. The upload and convert routes as the server registers them, a
 * real Redis and worker, the preparation in the worker's thread and a scripted converter in
 * place of LibreOffice.
 */

/** The company of convertServer's stand-in key. */
const COMPANY = 'acme';
const MB = 1024 * 1024;

let redis: RedisOnly;
let pdf: Buffer;

beforeAll(async () => {
  redis = await startRedisOnly();
  pdf = await convertedPdf();
});
afterAll(() => redis.close());

async function everyKey(storage: LocalStorage): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of storage.list('')) keys.push(object.key);
  return keys.sort();
}

async function stack() {
  const storage = new LocalStorage(join(testDir('docpipe-convert-by-reference-'), 'storage'));
  const { app, lane, client, converter } = await convertServer(redis, {
    storage,
    pdf,
    concurrency: 2,
  });
  const documents = new Queue('documents', { connection: lane.connection, prefix: lane.prefix });
  onTestFinished(() => documents.close());
  return { app, storage, converter, documents, client };
}

describe('POST /api/v2/document/convert of an uploaded file', () => {
  it('sends a 5 MB upload to the worker by its key: the only new object is the PDF', async () => {
    const { app, storage, converter, documents } = await stack();
    // Random bytes do not deflate: the package stays as large as its filler part.
    const docx = buildDocx({
      body: para('Hello {name}'),
      extra: [{ name: 'word/media/filler.bin', data: randomBytes(5 * MB) }],
    });
    expect(docx.byteLength).toBeGreaterThan(5 * MB);
    const uploaded = await app.inject({
      method: 'POST',
      url: `/v3/company/${COMPANY}/file/upload`,
      payload: { file: docx.toString('base64'), name: 'Large.docx' },
    });
    expect(uploaded.statusCode).toBe(200);
    const url = uploaded.json<{ url: string }>().url;
    const uploadKey = parseStoredDocumentUrl(url, PUBLIC_URL)!.key;
    const before = await everyKey(storage);
    expect(before).toEqual([uploadKey, `${uploadKey}.meta.json`]);

    const converted = await app.inject({
      method: 'POST',
      url: '/api/v2/document/convert',
      payload: {
        documents: [{ file: url, name: 'Large.docx' }],
        tags: [{ tag: 'name', value: 'Ada', type: 'text' }],
      },
    });
    expect(converted.statusCode).toBe(200);
    const answered = converted.json<{ documents: { file: string; name: string }[] }>().documents;
    const signed = verifySignedUrl(answered[0]!.file, SECRET);
    if (!signed.ok) throw new Error(`not a signed URL: ${answered[0]!.file}`);
    expect(parseStorageKey(signed.key)?.kind).toBe('render');
    const after = await everyKey(storage);
    expect(after.filter((key) => !before.includes(key))).toEqual([signed.key]);
    expect(after.filter((key) => before.includes(key))).toEqual(before);
    // The job carried the key, not the bytes, and the worker read the upload itself.
    const jobs = await documents.getJobs(['completed']);
    expect(jobs.map((j) => (j.data as { source: unknown }).source)).toEqual([
      { storageKey: uploadKey },
    ]);
    expect(converter.requests).toHaveLength(1);
  });

  it('takes only a key of a document docpipe stored as a source by reference', async () => {
    const { client, storage } = await stack();
    await storage.put('readiness/probe', pdf, 'application/pdf');
    const refused = await client
      .render({ name: 'Probe', storageKey: 'readiness/probe' })
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(DocpipeError);
    expect((refused as DocpipeError).toFailure()).toEqual({
      error: 'validation-failed',
      details: [
        {
          field: 'documents[0].storageKey',
          message: 'not the key of a document docpipe stored (an upload, a render or a job input)',
        },
      ],
    });
    const upload = storedDocumentKey(
      COMPANY,
      createHash('sha256').update(pdf).digest('hex'),
      'pdf',
    );
    await storage.put(upload, pdf, 'application/pdf');
    const result = await client.render({ name: 'Stored', storageKey: upload });
    expect(result).toMatchObject({ field: 'documents[0]', kind: 'rendered' });
  });
});
