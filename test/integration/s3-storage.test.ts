import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openStorage } from '../../src/app/parts/index.js';
import { loadConfig } from '../../src/app/config/index.js';
import { storageWritable } from '../../src/surfaces/http/operations/readiness-checks.js';
import {
  LocalStorage,
  S3Storage,
  StorageUnavailableError,
  readObjectStream,
  type Storage,
  type StoredObject,
} from '../../src/render/storage/index.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';
import { testDir } from '../helpers/test-dir.js';

let s3: S3Server;

beforeAll(async () => {
  s3 = await startS3Server('docpipe-contract');
});
afterAll(async () => {
  await s3?.stop();
});

/** Listings ask for this many keys a page, so that a few objects already take several pages. */
const PAGE = 2;

function s3Storage(options: { prefix?: string; bucket?: string; listPageSize?: number } = {}) {
  return S3Storage.open({
    bucket: options.bucket ?? s3.bucket,
    endpoint: s3.endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    // Each test its own folder of the one bucket, as each local test has its own folder.
    prefix: options.prefix ?? `test-${randomUUID()}/`,
    listPageSize: options.listPageSize ?? PAGE,
  });
}

const backends: { name: string; open: () => Promise<Storage> }[] = [
  { name: 'local', open: () => Promise.resolve(new LocalStorage(testDir('docpipe-contract-'))) },
  { name: 's3', open: () => s3Storage() },
];

async function all(listing: AsyncIterable<StoredObject>): Promise<StoredObject[]> {
  const objects: StoredObject[] = [];
  for await (const object of listing) objects.push(object);
  return objects.sort((a, b) => a.key.localeCompare(b.key));
}

/** Both stores count modification times in whole seconds at worst (S3's LastModified). */
const TICK_MS = 1100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(backends)('storage contract: $name', ({ open }) => {
  it('puts, gets back the same bytes and stats the object as written', async () => {
    const storage = await open();
    const before = Date.now();
    const put = await storage.put(
      'renders/ab/x.pdf',
      Buffer.from('%PDF-1.7 data'),
      'application/pdf',
    );
    expect(put).toMatchObject({ key: 'renders/ab/x.pdf', bytes: 13, type: 'application/pdf' });
    expect((await storage.get('renders/ab/x.pdf'))?.toString()).toBe('%PDF-1.7 data');
    const stat = await storage.stat('renders/ab/x.pdf');
    expect(stat).toMatchObject({ key: 'renders/ab/x.pdf', bytes: 13, type: 'application/pdf' });
    // Within the second the write happened (S3 keeps whole seconds).
    expect(stat!.modified.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(stat!.modified.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('answers undefined for what is not there, and deleting or touching it is no error', async () => {
    const storage = await open();
    expect(await storage.get('renders/00/none.pdf')).toBeUndefined();
    expect(await storage.stat('renders/00/none.pdf')).toBeUndefined();
    await storage.delete('renders/00/none.pdf');
    await storage.touch('renders/00/none.pdf');
    expect(await storage.stat('renders/00/none.pdf')).toBeUndefined();
    expect(await readObjectStream(storage, 'renders/00/none.pdf')).toBeUndefined();
  });

  it('replaces an object written again, and deletes it', async () => {
    const storage = await open();
    await storage.put('uploads/a.bin', Buffer.from('first'), 'application/octet-stream');
    await storage.put('uploads/a.bin', Buffer.from('second!'), 'application/octet-stream');
    expect((await storage.get('uploads/a.bin'))?.toString()).toBe('second!');
    expect((await storage.stat('uploads/a.bin'))?.bytes).toBe(7);
    await storage.delete('uploads/a.bin');
    expect(await storage.get('uploads/a.bin')).toBeUndefined();
    expect(await all(storage.list('uploads/'))).toEqual([]);
  });

  it('copies an object inside the store with its bytes and type, and answers false for a missing one', async () => {
    const storage = await open();
    await storage.put('renders/ef/z.pdf', Buffer.from('%PDF-1.7 copied'), 'application/pdf');
    expect(await storage.copy('renders/ef/z.pdf', 'companies/aa/cases/c1/0.pdf')).toBe(true);
    expect((await storage.get('companies/aa/cases/c1/0.pdf'))?.toString()).toBe('%PDF-1.7 copied');
    expect(await storage.stat('companies/aa/cases/c1/0.pdf')).toMatchObject({
      bytes: 15,
      type: 'application/pdf',
    });
    // The source stays; the copy is its own (deleting one keeps the other).
    await storage.delete('renders/ef/z.pdf');
    expect((await storage.get('companies/aa/cases/c1/0.pdf'))?.toString()).toBe('%PDF-1.7 copied');
    // Over an existing object: replaced whole.
    await storage.put('uploads/b.bin', Buffer.from('old'), 'application/octet-stream');
    await storage.put('uploads/c.bin', Buffer.from('newer'), 'application/octet-stream');
    expect(await storage.copy('uploads/c.bin', 'uploads/b.bin')).toBe(true);
    expect((await storage.get('uploads/b.bin'))?.toString()).toBe('newer');
    expect(await storage.copy('renders/00/none.pdf', 'uploads/d.bin')).toBe(false);
    expect(await storage.stat('uploads/d.bin')).toBeUndefined();
    expect((await all(storage.list('uploads/'))).map((o) => o.key)).toEqual([
      'uploads/b.bin',
      'uploads/c.bin',
    ]);
  });

  it('touch makes an object as young as now, keeping its bytes and type', async () => {
    const storage = await open();
    await storage.put('renders/cd/y.pdf', Buffer.from('%PDF-1.7 kept'), 'application/pdf');
    const written = (await storage.stat('renders/cd/y.pdf'))!.modified;
    await sleep(TICK_MS);
    await storage.touch('renders/cd/y.pdf');
    const touched = await storage.stat('renders/cd/y.pdf');
    expect(touched!.modified.getTime()).toBeGreaterThan(written.getTime());
    expect(touched).toMatchObject({ bytes: 13, type: 'application/pdf' });
    expect((await storage.get('renders/cd/y.pdf'))?.toString()).toBe('%PDF-1.7 kept');
  });

  it('lists exactly the objects under a prefix, over several pages, with size and age', async () => {
    const storage = await open();
    const keys = ['renders/aa/1.pdf', 'renders/aa/2.pdf', 'renders/ab/3.pdf', 'renders/x.pdf'];
    for (const [i, key] of keys.entries())
      await storage.put(key, Buffer.alloc(i + 1, 1), 'application/pdf');
    await storage.put('companies/ff/uploads/z.docx', Buffer.alloc(9), 'application/octet-stream');
    await storage.put('top.json', Buffer.from('{}'), 'application/json');

    const renders = await all(storage.list('renders/'));
    expect(renders.map((o) => [o.key, o.bytes, o.type])).toEqual([
      ['renders/aa/1.pdf', 1, 'application/pdf'],
      ['renders/aa/2.pdf', 2, 'application/pdf'],
      ['renders/ab/3.pdf', 3, 'application/pdf'],
      ['renders/x.pdf', 4, 'application/pdf'],
    ]);
    for (const o of renders) expect(o.modified.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await all(storage.list(''))).map((o) => o.key)).toEqual([
      'companies/ff/uploads/z.docx',
      ...keys,
      'top.json',
    ]);
    // A prefix is a prefix of keys, not only a folder.
    expect((await all(storage.list('renders/a'))).map((o) => o.key)).toEqual(keys.slice(0, 3));
    expect((await all(storage.list('renders/aa/'))).map((o) => o.key)).toEqual(keys.slice(0, 2));
    expect(await all(storage.list('nothing/'))).toEqual([]);
  });

  it('refuses keys that are not docpipe keys', async () => {
    const storage = await open();
    await expect(storage.put('../x.pdf', Buffer.from('x'), 'application/pdf')).rejects.toThrow(
      'invalid storage key',
    );
    await expect(storage.get('a/../../b')).rejects.toThrow('invalid storage key');
    await expect(all(storage.list('../'))).rejects.toThrow('invalid storage key');
  });

  it('streams an object whole and by byte range', async () => {
    const storage = await open();
    const data = randomBytes(300_000);
    await storage.put('renders/ef/big.pdf', data, 'application/pdf');
    const whole = await readObjectStream(storage, 'renders/ef/big.pdf');
    expect((await buffer(whole!)).equals(data)).toBe(true);
    const middle = await readObjectStream(storage, 'renders/ef/big.pdf', {
      start: 100_000,
      end: 200_001,
    });
    expect((await buffer(middle!)).equals(data.subarray(100_000, 200_002))).toBe(true);
    const last = await readObjectStream(storage, 'renders/ef/big.pdf', {
      start: 299_999,
      end: 299_999,
    });
    expect((await buffer(last!)).equals(data.subarray(299_999))).toBe(true);
  });

  it('passes the HTTP readiness check (a write, a read and a delete)', async () => {
    const storage = await open();
    await expect(storageWritable(storage)()).resolves.toBeUndefined();
    expect(await all(storage.list(''))).toEqual([]);
  });
});

describe('S3 storage', () => {
  it('keeps each installation in its DOCPIPE_S3_PREFIX, which its callers never see', async () => {
    const run = randomUUID();
    const one = await s3Storage({ prefix: `${run}/one/` });
    const two = await s3Storage({ prefix: `${run}/two/` });
    const bucket = await s3Storage({ prefix: '' });
    await one.put('renders/aa/1.pdf', Buffer.from('one'), 'application/pdf');
    await two.put('renders/aa/1.pdf', Buffer.from('two'), 'application/pdf');
    expect((await one.get('renders/aa/1.pdf'))?.toString()).toBe('one');
    expect((await two.get('renders/aa/1.pdf'))?.toString()).toBe('two');
    expect((await all(one.list(''))).map((o) => o.key)).toEqual(['renders/aa/1.pdf']);
    expect((await all(bucket.list(`${run}/`))).map((o) => o.key)).toEqual([
      `${run}/one/renders/aa/1.pdf`,
      `${run}/two/renders/aa/1.pdf`,
    ]);
    await one.delete('renders/aa/1.pdf');
    expect((await two.get('renders/aa/1.pdf'))?.toString()).toBe('two');
    expect(one.locationOf('renders/aa/1.pdf')).toBe(
      `s3://${s3.bucket}/${run}/one/renders/aa/1.pdf`,
    );
  });

  it('lists past S3’s 1000 keys a page', async () => {
    const storage = await s3Storage({ listPageSize: 1000 });
    const keys = Array.from(
      { length: 1001 },
      (_, i) => `renders/${String(i).padStart(4, '0')}.pdf`,
    );
    for (let i = 0; i < keys.length; i += 50)
      await Promise.all(
        keys.slice(i, i + 50).map((k) => storage.put(k, Buffer.from(k), 'application/pdf')),
      );
    expect((await all(storage.list('renders/'))).map((o) => o.key)).toEqual(keys);
  });

  it('stats an object with the SHA-256 of its bytes, kept beside it', async () => {
    const storage = await s3Storage();
    const data = randomBytes(1000);
    const put = await storage.put('renders/aa/h.pdf', data, 'application/pdf');
    const sha256 = createHash('sha256').update(data).digest('hex');
    expect(put.sha256).toBe(sha256);
    expect((await storage.stat('renders/aa/h.pdf'))?.sha256).toBe(sha256);
    // A touch replaces the metadata: it must give it back as it was.
    await storage.touch('renders/aa/h.pdf');
    expect((await storage.stat('renders/aa/h.pdf'))?.sha256).toBe(sha256);
  });

  describe('pre-signed downloads', () => {
    async function uploaded() {
      const storage = await s3Storage();
      await storage.put(
        'companies/61/uploads/doc.pdf',
        Buffer.from('%PDF-1.7 signed'),
        'application/pdf',
      );
      await storage.put(
        'companies/62/uploads/other.pdf',
        Buffer.from('%PDF-1.7 other'),
        'application/pdf',
      );
      return storage;
    }

    it('serves the bytes from S3 itself, with the type and name asked for', async () => {
      const storage = await uploaded();
      const url = await storage.presignGet(
        'companies/61/uploads/doc.pdf',
        new Date(Date.now() + 60_000),
        { contentType: 'application/pdf', contentDisposition: 'inline; filename="Lease.pdf"' },
      );
      expect(url.startsWith(`${s3.endpoint}/${s3.bucket}/`)).toBe(true);
      const answer = await fetch(url);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/pdf');
      expect(answer.headers.get('content-disposition')).toBe('inline; filename="Lease.pdf"');
      expect(await answer.text()).toBe('%PDF-1.7 signed');
      expect(await storage.verifyPresignedGet(url)).toBe('companies/61/uploads/doc.pdf');
    });

    it('stops working at its expiry', async () => {
      const storage = await uploaded();
      const url = await storage.presignGet(
        'companies/61/uploads/doc.pdf',
        new Date(Date.now() + 1000),
      );
      expect((await fetch(url)).status).toBe(200);
      await sleep(2100);
      const late = await fetch(url);
      expect(late.status).toBe(403);
      expect(await late.text()).toContain('Request has expired');
      expect(await storage.verifyPresignedGet(url)).toBeUndefined();
    });

    it('refuses a URL changed in its key, its lifetime or its answer headers', async () => {
      const storage = await uploaded();
      const url = await storage.presignGet(
        'companies/61/uploads/doc.pdf',
        new Date(Date.now() + 60_000),
        { contentDisposition: 'inline; filename="Lease.pdf"' },
      );
      const otherKey = url.replace(
        '/companies/61/uploads/doc.pdf',
        '/companies/62/uploads/other.pdf',
      );
      const longer = url.replace('X-Amz-Expires=60', 'X-Amz-Expires=600');
      const renamed = url.replace('Lease.pdf', 'Evil.pdf');
      for (const tampered of [otherKey, longer, renamed]) {
        expect(tampered).not.toBe(url);
        const answer = await fetch(tampered);
        expect(answer.status).toBe(403);
        expect(await answer.text()).toContain('SignatureDoesNotMatch');
        expect(await storage.verifyPresignedGet(tampered)).toBeUndefined();
      }
      expect((await fetch(url)).status).toBe(200);
    });

    it('is not one of another prefix, bucket or host', async () => {
      const storage = await uploaded();
      const other = await s3Storage();
      await other.put('companies/61/uploads/doc.pdf', Buffer.from('x'), 'application/pdf');
      const url = await other.presignGet(
        'companies/61/uploads/doc.pdf',
        new Date(Date.now() + 60_000),
      );
      expect(await storage.verifyPresignedGet(url)).toBeUndefined();
      expect(await other.verifyPresignedGet(url)).toBe('companies/61/uploads/doc.pdf');
      expect(await other.verifyPresignedGet(url.replace('127.0.0.1', 'localhost'))).toBeUndefined();
      expect(await other.verifyPresignedGet('not a url')).toBeUndefined();
    });
  });

  describe('opened from the configuration (openStorage)', () => {
    function config(env: Record<string, string>) {
      return loadConfig({ DOCPIPE_DATA_DIR: testDir('docpipe-s3-config-'), ...s3.env, ...env });
    }

    // The SDK finds region and credentials the AWS way: in this process's environment.
    beforeEach(() => {
      for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_REGION'])
        vi.stubEnv(name, s3.env[name]);
      // No profile of this machine's user may answer for the test.
      vi.stubEnv('AWS_CONFIG_FILE', join(testDir('docpipe-aws-'), 'config'));
      vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', join(testDir('docpipe-aws-'), 'credentials'));
      vi.stubEnv('AWS_PROFILE', undefined);
    });
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    it('opens the configured bucket, with credentials the AWS way', async () => {
      const storage = await openStorage(config({ DOCPIPE_S3_PREFIX: `t-${randomUUID()}` }));
      expect(storage).toBeInstanceOf(S3Storage);
      await storage.put('renders/aa/c.pdf', Buffer.from('configured'), 'application/pdf');
      expect((await storage.get('renders/aa/c.pdf'))?.toString()).toBe('configured');
    });

    it('names a missing bucket at start-up', async () => {
      const err = (await openStorage(config({ DOCPIPE_S3_BUCKET: 'no-such-bucket' })).catch(
        (e: unknown) => e,
      )) as StorageUnavailableError;
      expect(err).toBeInstanceOf(StorageUnavailableError);
      expect(err.reason).toBe('bucket-missing');
      expect(err.message).toBe(
        `the S3 bucket "no-such-bucket" does not exist at ${s3.endpoint}: create it (docpipe never creates buckets), or set DOCPIPE_S3_BUCKET to one that exists`,
      );
    });

    it('says when the store refuses the credentials', async () => {
      vi.stubEnv('AWS_ACCESS_KEY_ID', 'NOT-A-KEY');
      const err = (await openStorage(config({})).catch(
        (e: unknown) => e,
      )) as StorageUnavailableError;
      expect(err).toBeInstanceOf(StorageUnavailableError);
      expect(err.reason).toBe('credentials-refused');
      expect(err.message).toBe(
        `S3 at ${s3.endpoint} refused docpipe's credentials for bucket "${s3.bucket}" (HTTP 403): give docpipe credentials allowed to read, write, list and delete in that bucket, the AWS way (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or the machine's role)`,
      );
    });

    it('says when there are no credentials, or no region', async () => {
      vi.stubEnv('AWS_ACCESS_KEY_ID', undefined);
      vi.stubEnv('AWS_SECRET_ACCESS_KEY', undefined);
      // No instance metadata service to wait for on a test machine.
      vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
      const none = (await openStorage(config({})).catch(
        (e: unknown) => e,
      )) as StorageUnavailableError;
      expect(none).toBeInstanceOf(StorageUnavailableError);
      expect(none.reason).toBe('credentials-refused');
      expect(none.message).toMatch(
        /^no AWS credentials found for the S3 bucket "docpipe-contract"/,
      );
      vi.stubEnv('AWS_ACCESS_KEY_ID', s3.env.AWS_ACCESS_KEY_ID);
      vi.stubEnv('AWS_SECRET_ACCESS_KEY', s3.env.AWS_SECRET_ACCESS_KEY);
      vi.stubEnv('AWS_REGION', undefined);
      const noRegion = (await openStorage(config({})).catch(
        (e: unknown) => e,
      )) as StorageUnavailableError;
      expect(noRegion).toBeInstanceOf(StorageUnavailableError);
      expect(noRegion.reason).toBe('misconfigured');
      expect(noRegion.message).toContain('set AWS_REGION');
    });

    it('says when nothing answers at the endpoint', async () => {
      // A port that was free a moment ago: s3rver's own, once it is stopped, is not at hand here.
      const closed = 'http://127.0.0.1:9';
      const err = (await openStorage(config({ DOCPIPE_S3_ENDPOINT: closed })).catch(
        (e: unknown) => e,
      )) as StorageUnavailableError;
      expect(err).toBeInstanceOf(StorageUnavailableError);
      expect(err.reason).toBe('unreachable');
      expect(err.message).toBe(
        `cannot reach S3 at ${closed} for bucket "${s3.bucket}" (ECONNREFUSED): check DOCPIPE_S3_ENDPOINT and that the store is running, then try again`,
      );
    });

    it('fails the readiness check with the reason only when the bucket goes away', async () => {
      const storage = await s3Storage({ bucket: 'gone-bucket' });
      // /readyz answers anyone: the reason, never the bucket or the endpoint.
      const err = (await storageWritable(storage)().catch((e: unknown) => e)) as Error;
      expect(err.message).toBe('storage refused a write (bucket-missing)');
    });
  });
});
