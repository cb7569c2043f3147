import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  jobInputKey,
  LocalStorage,
  renderKey,
  S3Storage,
  signUrl,
  storedDocumentKey,
  storedDocumentUrl,
  type Storage,
} from '../../src/render/storage/index.js';
import { caseDocumentUrl } from '../../src/service/cases/case-document-url.js';
import { caseDocumentKey } from '../../src/service/cases/case-storage.js';

/**
 * Which case document URLs are docpipe's, and whose (case-document-url.ts): decided from the URL
 * alone, nothing fetched. The composed server's path through the pipeline:
 * test/integration/case-documents-by-url.test.ts.
 */

const PUBLIC = 'https://docpipe.example/base';
const SECRET = 'a-test-signing-secret-of-32-chars';
const NOW = new Date('2026-12-02T10:00:00Z');
const LATER = new Date(NOW.getTime() + 15 * 60_000);
const EARLIER = new Date(NOW.getTime() - 60_000);
const SHA = 'a'.repeat(64);
const CASE = '0b9e3c34-5d4e-4a43-9d1e-2f3d7e1c0a11';

const dir = mkdtempSync(join(tmpdir(), 'case-document-url-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const local = new LocalStorage(dir);

const resolve = (url: string, storage: Storage = local, secret: string | null = SECRET) =>
  caseDocumentUrl(url, 'documents[0]', {
    company: 'acme',
    publicUrl: PUBLIC,
    ...(secret !== null ? { signingSecret: secret } : {}),
    storage,
    now: NOW,
  });
const signed = (key: string, expires: Date) => signUrl(PUBLIC, key, expires, SECRET, 'x.pdf');

const NOT_FOUND = {
  kind: 'refused',
  failure: { error: 'document-not-found', details: [{ field: 'documents[0].url' }] },
};
const invalid = (message: RegExp) => ({
  kind: 'refused',
  failure: {
    error: 'validation-failed',
    details: [{ field: 'documents[0].url', message: expect.stringMatching(message) }],
  },
});

describe('an upload URL', () => {
  it("is the company's own upload, read by its key", async () => {
    const key = storedDocumentKey('acme', SHA, 'docx');
    expect(await resolve(storedDocumentUrl(PUBLIC, key, 'lease.docx'))).toEqual({
      kind: 'stored',
      key,
      read: 'key',
    });
  });

  it("is not found when it is another company's", async () => {
    const url = storedDocumentUrl(PUBLIC, storedDocumentKey('globex', SHA, 'pdf'), 'a.pdf');
    expect(await resolve(url)).toMatchObject(NOT_FOUND);
  });
});

describe('a signed download URL', () => {
  it('of a render is taken while valid, refused once expired', async () => {
    const key = renderKey(SHA);
    expect(await resolve(signed(key, LATER))).toEqual({ kind: 'stored', key, read: 'key' });
    expect(await resolve(signed(key, EARLIER))).toMatchObject(invalid(/expired.*upload/));
  });

  it("of the company's own case document is read as bytes, expired or not", async () => {
    const key = caseDocumentKey('acme', CASE, 0);
    for (const expires of [LATER, EARLIER])
      expect(await resolve(signed(key, expires))).toEqual({ kind: 'stored', key, read: 'bytes' });
  });

  it("of another company's case document or upload, or a job input, is not found", async () => {
    for (const key of [
      caseDocumentKey('globex', CASE, 0),
      storedDocumentKey('globex', SHA, 'pdf'),
      jobInputKey(SHA),
    ])
      expect(await resolve(signed(key, LATER)), key).toMatchObject(NOT_FOUND);
  });

  it('that was changed after signing, or that cannot be checked, is refused', async () => {
    const url = signed(renderKey(SHA), LATER).replace(
      /signature=[0-9a-f]+/,
      `signature=${'0'.repeat(64)}`,
    );
    expect(await resolve(url)).toMatchObject(invalid(/signature does not match/));
    expect(await resolve(signed(renderKey(SHA), LATER), local, null)).toMatchObject(
      invalid(/cannot be checked/),
    );
  });
});

describe('other URLs', () => {
  it("are refused under docpipe's public URL when they name no document", async () => {
    expect(await resolve(`${PUBLIC}/sign/abc`)).toMatchObject(invalid(/names no document/));
  });

  it('are kept by reference on another host, another port or outside the base path', async () => {
    for (const url of [
      'https://files.example.com/lease.pdf',
      'https://docpipe.example:8443/base/files/x',
      'https://docpipe.example/other/lease.pdf',
    ])
      expect(await resolve(url), url).toEqual({ kind: 'foreign' });
  });
});

describe('on S3 storage, a URL S3 pre-signed for docpipe', () => {
  let s3: S3Storage;
  beforeAll(async () => {
    // Pre-signing is local: nothing listens at the endpoint, and nothing is asked of it.
    s3 = await S3Storage.open({
      bucket: 'docs',
      endpoint: 'http://127.0.0.1:9',
      forcePathStyle: true,
      region: 'us-east-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test-secret' },
    });
  });
  // Signed at a moment of the test's choosing: NOW is the clock the URLs are checked against.
  const presigned = (key: string, expires: Date) =>
    s3.presignGet(key, expires, {}, new Date(expires.getTime() - 10 * 60_000));

  it("is the company's upload, expired or not", async () => {
    const key = storedDocumentKey('acme', SHA, 'pdf');
    for (const expires of [LATER, EARLIER])
      expect(await resolve(await presigned(key, expires), s3)).toEqual({
        kind: 'stored',
        key,
        read: 'key',
      });
  });

  it("is not found when it is another company's, and a render's is refused once expired", async () => {
    const theirs = await presigned(storedDocumentKey('globex', SHA, 'pdf'), LATER);
    expect(await resolve(theirs, s3)).toMatchObject(NOT_FOUND);
    expect(await resolve(await presigned(renderKey(SHA), EARLIER), s3)).toMatchObject(
      invalid(/expired/),
    );
  });

  it('is foreign when another store signed it', async () => {
    const url = (await presigned(storedDocumentKey('acme', SHA, 'pdf'), LATER)).replace(
      /X-Amz-Signature=[0-9a-f]+/,
      `X-Amz-Signature=${'0'.repeat(64)}`,
    );
    expect(await resolve(url, s3)).toEqual({ kind: 'foreign' });
  });
});
