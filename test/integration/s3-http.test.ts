import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../../src/render/storage/index.js';
import { KeyStore } from '../../src/service/keys/index.js';
import { untilOutput } from '../helpers/child-output.js';
import { docpipe, docpipeEnv, StartedDocpipe } from '../helpers/docpipe-start.js';
import { lease, leaseTags } from '../helpers/lease.js';
import { pdfText } from '../helpers/pdf-text.js';
import { addKeyOwner } from '../helpers/key-owner.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';

/**
 * A real `docpipe start` on S3 storage (s3rver): uploads, pre-signed URLs from S3 itself,
 * conversions whose PDFs are downloaded through docpipe's /files/ URLs streaming from S3, and
 * the render cache answering a second machine (another data folder, another Redis) from S3.
 */

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

let s3: S3Server;
let dir: string;
let prefix: string;
let first: StartedDocpipe;
/** The bucket as docpipe sees it, to look at what it stored. */
let bucket: S3Storage;
/**
 * The records' PostgreSQL both machines use, as two machines on one bucket share one: the
 * worker's test server (test/helpers/postgres.ts). An embedded one in each data folder cost each
 * start its initdb, and each key a spawned `docpipe keys create`; this file is about S3.
 */
let records: TestDatabase;

function env(data: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return docpipeEnv(data, {
    ...s3.env,
    DOCPIPE_S3_PREFIX: prefix,
    DOCPIPE_LOG_FORMAT: 'json',
    DATABASE_URL: records.url,
    ...extra,
  });
}

function addressOf(started: StartedDocpipe): string {
  const line = started.lines().find((l) => l.msg.startsWith('docpipe started'));
  expect(line, started.log).toBeDefined();
  return line!.http as string;
}

/**
 * A key of a new user of `company` (made if need be) in the records, made straight in the tables
 * as `docpipe keys create` makes it.
 */
async function apiKey(company: string): Promise<string> {
  const owner = await addKeyOwner(records.db, company, `${randomUUID()}@${company}.example`);
  const keys = new KeyStore({ db: records.db, databaseUrl: records.url });
  return (await keys.create({ company, user: owner.email, name: 's3' })).key;
}

async function post(url: string, key: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The `cached` flag of each document job the process logged, in order. */
function cachedFlags(started: StartedDocpipe): unknown[] {
  return started
    .lines()
    .filter((l) => l.msg === 'document job done')
    .map((l) => l.cached);
}

/**
 * The `cached` flags once `count` jobs are logged: the worker logs a job after handing its result
 * on, so an answer can arrive before the line does.
 */
async function jobsLogged(started: StartedDocpipe, count: number): Promise<unknown[]> {
  await untilOutput(
    started.child,
    () => (cachedFlags(started).length >= count ? true : undefined),
    30_000,
    `${count} document jobs logged`,
    () => started.log,
  );
  return cachedFlags(started);
}

beforeAll(async () => {
  [s3, records] = await Promise.all([startS3Server('docpipe-http'), testDatabase()]);
  dir = mkdtempSync(join(tmpdir(), 'docpipe-s3-http-'));
  prefix = `run-${randomUUID()}/`;
  bucket = await S3Storage.open({
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    prefix,
  });
  first = new StartedDocpipe(env(join(dir, 'one')));
  await first.waitFor('docpipe started');
}, 120_000);

afterAll(async () => {
  await first?.killAll();
  bucket?.close();
  await s3?.stop();
  await records?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('docpipe start on S3 storage', () => {
  let uploadUrl: string;
  let pdfBytes: Buffer;

  it('keeps an upload in the bucket and answers pre-signed URLs S3 itself serves', async () => {
    const address = addressOf(first);
    const key = await apiKey('acme');
    const upload = await post(`${address}/v3/company/acme/file/upload`, key, {
      file: lease.toString('base64'),
      name: 'Lease.docx',
    });
    expect(upload.status).toBe(200);
    const uploaded = (await upload.json()) as { url: string; type: string };
    expect(uploaded.type).toBe('docx');
    uploadUrl = uploaded.url;
    const sha256 = createHash('sha256').update(lease).digest('hex');
    expect(uploadUrl).toBe(`${address}/v3/company/acme/file/${sha256}.docx/Lease.docx`);
    const storedKey = `companies/${Buffer.from('acme').toString('hex')}/uploads/${sha256}.docx`;
    expect(await bucket.stat(storedKey)).toMatchObject({ bytes: lease.byteLength, sha256 });

    const presign = () =>
      post(`${address}/v3/company/acme/file/view-presigned-url`, key, { url: uploadUrl });
    const answer = (await (await presign()).json()) as {
      key: string;
      signedUrl: string;
      type: string;
      cached: boolean;
    };
    expect(answer).toMatchObject({ key: storedKey, type: 'docx', cached: false });
    expect(answer.signedUrl.startsWith(`${s3.endpoint}/${s3.bucket}/${prefix}${storedKey}?`)).toBe(
      true,
    );
    const download = await fetch(answer.signedUrl);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe(DOCX);
    expect(download.headers.get('content-disposition')).toBe(
      `inline; filename="Lease.docx"; filename*=UTF-8''Lease.docx`,
    );
    expect(Buffer.from(await download.arrayBuffer()).equals(lease)).toBe(true);
    // Asked again while it has time left: the same URL, from the cache in Redis.
    expect(await (await presign()).json()).toEqual({ ...answer, cached: true });

    // Another company's key learns nothing of it.
    const other = await apiKey('globex');
    const refused = await post(`${address}/v3/company/globex/file/view-presigned-url`, other, {
      url: uploadUrl,
    });
    expect(refused.status).toBe(404);
    // Nothing of it on the machine's disk.
    expect(existsSync(join(dir, 'one', 'storage'))).toBe(false);
  });

  it('converts an upload, and serves the PDF from S3 through /files/, whole and by range', async () => {
    const address = addressOf(first);
    const key = await apiKey('acme');
    const converted = await post(`${address}/api/v2/document/convert`, key, {
      documents: [{ file: uploadUrl, name: 'Lease' }],
      tags: leaseTags,
    });
    expect(converted.status).toBe(200);
    const { documents } = (await converted.json()) as { documents: { file: string }[] };
    expect(documents[0]!.file.startsWith(`${address}/files/renders/`)).toBe(true);
    const whole = await fetch(documents[0]!.file);
    expect(whole.status).toBe(200);
    pdfBytes = Buffer.from(await whole.arrayBuffer());
    expect(pdfText(pdfBytes)).toContain('Lejekontrakt nr. LK-2025-0042');
    const sha256 = createHash('sha256').update(pdfBytes).digest('hex');
    expect(whole.headers.get('etag')).toBe(`"${sha256}"`);
    const renderKey = /\/files\/([^?]+)/.exec(documents[0]!.file)![1]!;
    expect(await bucket.stat(renderKey)).toMatchObject({ bytes: pdfBytes.byteLength, sha256 });

    const ranged = await fetch(documents[0]!.file, {
      headers: { range: 'bytes=100-199', 'if-range': `"${sha256}"` },
    });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-199/${pdfBytes.byteLength}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(pdfBytes.subarray(100, 200))).toBe(true);
    const unchanged = await fetch(documents[0]!.file, {
      headers: { 'if-none-match': `"${sha256}"` },
    });
    expect(unchanged.status).toBe(304);
    expect(cachedFlags(first)).toEqual([false]);
  });

  it('takes S3’s pre-signed URL as a convert source, answered from the render cache', async () => {
    const address = addressOf(first);
    const key = await apiKey('acme');
    const presigned = (await (
      await post(`${address}/v3/company/acme/file/view-presigned-url`, key, { url: uploadUrl })
    ).json()) as { signedUrl: string };
    const converted = await post(`${address}/api/v2/document/convert`, key, {
      documents: [{ file: presigned.signedUrl, name: 'Lease' }],
      tags: leaseTags,
    });
    expect(converted.status).toBe(200);
    // A pre-signed URL changed by its holder is no source.
    const tampered = await post(`${address}/api/v2/document/convert`, key, {
      documents: [
        { file: presigned.signedUrl.replace('X-Amz-Expires=', 'X-Amz-Expires=9'), name: 'Lease' },
      ],
      tags: leaseTags,
    });
    expect(tampered.status).toBe(400);
    expect(await jobsLogged(first, 2)).toEqual([false, true]);
    expect(first.log).not.toContain('NodeVersionSupportWarning');
  });

  it('answers a second machine’s repeated request from the render cache in S3', async () => {
    first.ctrlC();
    expect(await first.exited).toBe(0);
    const second = new StartedDocpipe(env(join(dir, 'two')));
    try {
      await second.waitFor('docpipe started');
      const address = addressOf(second);
      const key = await apiKey('acme');
      const converted = await post(`${address}/api/v2/document/convert`, key, {
        documents: [{ file: lease.toString('base64'), name: 'Lease' }],
        tags: leaseTags,
      });
      expect(converted.status).toBe(200);
      const { documents } = (await converted.json()) as { documents: { file: string }[] };
      const pdf = await fetch(documents[0]!.file);
      expect(Buffer.from(await pdf.arrayBuffer()).equals(pdfBytes)).toBe(true);
      expect(await jobsLogged(second, 1)).toEqual([true]);
      expect(existsSync(join(dir, 'two', 'storage'))).toBe(false);
    } finally {
      await second.killAll();
    }
  });

  it('names a missing bucket and exits 3 without a stack trace', () => {
    const r = docpipe(env(join(dir, 'three'), { DOCPIPE_S3_BUCKET: 'no-such-bucket' }), 'start');
    expect(r.status).toBe(3);
    expect(r.stderr).toContain(
      `docpipe: the S3 bucket "no-such-bucket" does not exist at ${s3.endpoint}: create it`,
    );
    expect(r.stderr).not.toContain('    at ');
    // The AWS SDK's warning about Node 20 is not docpipe's to show its users.
    expect(r.stderr).not.toContain('NodeVersionSupportWarning');
    // Found before anything was started: no embedded Redis left behind.
    expect(existsSync(join(dir, 'three', 'redis'))).toBe(false);
  });
});
