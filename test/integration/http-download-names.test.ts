import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  LocalStorage,
  S3Storage,
  parseStoredDocumentUrl,
  signUrl,
  storedDocumentKey,
  storedDocumentUrl,
  writeDocumentMeta,
  type Storage,
} from '../../src/render/storage/index.js';
import {
  CONVERT_PUBLIC_URL as PUBLIC_URL,
  CONVERT_SECRET as SECRET,
  convertServer,
} from '../helpers/convert-server.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';
import { convertedPdf } from '../helpers/scripted-converter.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * Download names that cannot lie (issue 21): a render downloads under its document's name, an
 * upload's URL keeps the name it was uploaded under whatever is uploaded later, on local storage
 * (docpipe's /files/ URLs) and on S3 (S3's own pre-signed URLs), bidi controls never reach
 * Content-Disposition, and URLs issued before names were in URLs still work. The server's upload,
 * convert and download routes on a real socket, with a real Redis and worker and a scripted
 * converter in place of LibreOffice.
 */

let redis: RedisOnly;
let pdf: Buffer;

beforeAll(async () => {
  redis = await startRedisOnly();
  pdf = await convertedPdf();
});
afterAll(() => redis.close());

interface Server {
  address: string;
  storage: Storage;
  /** A URL docpipe issued under PUBLIC_URL, fetched from the listening server. */
  get(url: string): Promise<Response>;
  post(path: string, body: unknown): Promise<Response>;
}

async function server(storage: Storage): Promise<Server> {
  const { app } = await convertServer(redis, { storage, pdf, concurrency: 1, downloads: true });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    address,
    storage,
    get: (url) => fetch(url.startsWith(PUBLIC_URL) ? address + url.slice(PUBLIC_URL.length) : url),
    post: (path, body) =>
      fetch(`${address}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
  };
}

async function upload(s: Server, bytes: Buffer, name: string): Promise<string> {
  const res = await s.post('/v3/company/acme/file/upload', {
    file: bytes.toString('base64'),
    name,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { url: string }).url;
}

async function presign(s: Server, url: string): Promise<{ signedUrl: string; cached: boolean }> {
  const res = await s.post('/v3/company/acme/file/view-presigned-url', { url });
  expect(res.status).toBe(200);
  return (await res.json()) as { signedUrl: string; cached: boolean };
}

/** The name a download saves as: `filename*`, decoded. */
async function savedAs(s: Server, url: string): Promise<string> {
  const res = await s.get(url);
  expect(res.status, await res.clone().text()).toBe(200);
  await res.arrayBuffer();
  const header = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''(.+)$/.exec(header);
  expect(star, header).not.toBeNull();
  return decodeURIComponent(star![1]!);
}

function localStorage(): LocalStorage {
  return new LocalStorage(join(testDir('docpipe-download-names-'), 'storage'));
}

const lease = () => buildDocx({ body: para('Lease for {name}') });
const tags = [{ tag: 'name', value: 'Ada', type: 'text' }];

describe("a render's download", () => {
  it('is named after the document each request named, not after its hash', async () => {
    const s = await server(localStorage());
    const url = await upload(s, lease(), 'lease-template.docx');
    const convert = async (name: string) => {
      const res = await s.post('/api/v2/document/convert', {
        documents: [{ file: url, name }],
        tags,
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { documents: { file: string; name: string }[] }).documents[0]!;
    };
    const first = await convert('Lease');
    expect(first.name).toBe('Lease.pdf');
    expect(first.file).toMatch(/\/files\/renders\/.+\?expires=\d+&name=Lease\.pdf&signature=/);
    expect(await savedAs(s, first.file)).toBe('Lease.pdf');
    const second = await convert('Lejekontrakt æøå.docx');
    expect(await savedAs(s, second.file)).toBe('Lejekontrakt æøå.pdf');
    expect(await savedAs(s, first.file)).toBe('Lease.pdf');
    // A right-to-left override in the caller's name never reaches the header.
    const spoofed = await convert('win.docx\u202Efdp.exe');
    expect(await savedAs(s, spoofed.file)).toBe('win.docxfdp.exe.pdf');
  });
});

describe("an upload's name", () => {
  /** Lease then a, the same bytes: each URL keeps its own name. */
  async function uploadTwice(s: Server): Promise<{ leaseUrl: string; leaseSigned: string }> {
    const leaseUrl = await upload(s, pdf, 'Lease');
    const leaseSigned = (await presign(s, leaseUrl)).signedUrl;
    expect(await savedAs(s, leaseSigned)).toBe('Lease.pdf');
    const aUrl = await upload(s, pdf, 'a');
    expect(aUrl).not.toBe(leaseUrl);
    // Stored once: both URLs name the same bytes.
    expect(parseStoredDocumentUrl(aUrl, PUBLIC_URL)!.key).toBe(
      parseStoredDocumentUrl(leaseUrl, PUBLIC_URL)!.key,
    );
    const aSigned = await presign(s, aUrl);
    expect(aSigned.cached).toBe(false);
    expect(await savedAs(s, aSigned.signedUrl)).toBe('a.pdf');
    // The URL issued first still downloads as what it was issued as, and so does a new one for
    // the first upload: the cache is per upload, not per bytes.
    expect(await savedAs(s, leaseSigned)).toBe('Lease.pdf');
    const again = await presign(s, leaseUrl);
    expect(again).toMatchObject({ signedUrl: leaseSigned, cached: true });
    return { leaseUrl, leaseSigned };
  }

  it('stays with the upload on local storage: the same bytes uploaded as Lease then a', async () => {
    const s = await server(localStorage());
    const { leaseSigned } = await uploadTwice(s);
    expect(leaseSigned).toMatch(/^http:\/\/docs\.example\.test\/files\/companies\/.+&name=Lease&/);
    // The name is signed: changed, the URL is refused rather than downloaded under another name.
    const renamed = await s.get(leaseSigned.replace('&name=Lease&', '&name=a&'));
    expect(renamed.status).toBe(403);
    expect(((await renamed.json()) as { message: string }).message).toMatch(
      /^the signature does not match this URL/,
    );
  });

  it('stays with the upload on S3: pre-signed URLs carry the name S3 answers with', async () => {
    const s3: S3Server = await startS3Server('docpipe-download-names');
    onTestFinished(() => s3.stop());
    const bucket = await S3Storage.open({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      forcePathStyle: true,
      region: 'us-east-1',
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      prefix: `run-${randomUUID()}/`,
    });
    onTestFinished(() => bucket.close());
    const s = await server(bucket);
    const { leaseSigned } = await uploadTwice(s);
    expect(leaseSigned.startsWith(`${s3.endpoint}/${s3.bucket}/`)).toBe(true);
    expect(new URL(leaseSigned).searchParams.get('response-content-disposition')).toBe(
      `inline; filename="Lease.pdf"; filename*=UTF-8''Lease.pdf`,
    );
  });

  it('loses its bidi controls and other invisible characters before any download', async () => {
    const s = await server(localStorage());
    const url = await upload(s, pdf, 'win.docx\u202Efdp\u200B.exe\u2066');
    expect(url).toMatch(/\/file\/[0-9a-f]{64}\.pdf\/win\.docxfdp\.exe$/);
    const signed = (await presign(s, url)).signedUrl;
    const res = await s.get(signed);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="win.docxfdp.exe.pdf"; filename*=UTF-8''win.docxfdp.exe.pdf`,
    );
  });
});

describe('a /files/ URL refused', () => {
  it('says the signature does not match a changed path, and only a bare URL lacks its parameters', async () => {
    const s = await server(localStorage());
    const signed = (await presign(s, await upload(s, pdf, 'Lease'))).signedUrl;
    // Still a path under /files/, no longer a storage key (upper case): changed after signing.
    const changedPath = signed.replace('/files/companies/', '/files/Companies/');
    const refused = await s.get(changedPath);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      message:
        'the signature does not match this URL: it was changed or cut; ask for a new signed URL',
    });
    const bare = await s.get(signed.split('?')[0]!);
    expect(bare.status).toBe(403);
    expect(((await bare.json()) as { message: string }).message).toMatch(
      /^not a signed download URL: it lacks its expires or signature parameter/,
    );
  });
});

describe('URLs issued before names were in URLs', () => {
  it('still work, with the name stored beside the bytes, which no later upload changes', async () => {
    const s = await server(localStorage());
    // As the previous version stored an upload and answered its URL.
    const key = storedDocumentKey('acme', createHash('sha256').update(pdf).digest('hex'), 'pdf');
    await s.storage.put(key, pdf, 'application/pdf');
    await writeDocumentMeta(s.storage, key, { name: 'Old Lease.pdf' });
    const oldUrl = storedDocumentUrl(PUBLIC_URL, key);
    expect(oldUrl).toMatch(/\/file\/[0-9a-f]{64}\.pdf$/);
    const oldSigned = signUrl(PUBLIC_URL, key, new Date(Date.now() + 60_000), SECRET);
    expect(oldSigned).not.toContain('name=');

    await upload(s, pdf, 'a');
    expect(await savedAs(s, oldSigned)).toBe('Old Lease.pdf');
    expect(await savedAs(s, (await presign(s, oldUrl)).signedUrl)).toBe('Old Lease.pdf');
    // Still a document source for a conversion.
    const converted = await s.post('/api/v2/document/convert', {
      documents: [{ file: oldUrl, name: 'Old Lease' }],
    });
    expect(converted.status).toBe(200);
  });
});
