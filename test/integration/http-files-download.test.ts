import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStoredDocumentUrl, signUrl } from '../../src/render/storage/index.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import {
  PDF_FILE,
  PUBLIC_URL,
  SECRET,
  TTL_S,
  corpusFile,
  filesApp,
  multipartBody,
  pathOf,
  type FilesApp,
} from './http-files-setup.js';

let redis: RedisOnly;
beforeAll(async () => {
  redis = await startRedisOnly();
});
afterAll(async () => {
  await redis.close();
});

const pdf = corpusFile(PDF_FILE);
const hash = createHash('sha256').update(pdf).digest('hex');

/** Uploads the PDF as `name` and answers the path of its signed download URL. */
async function signedPath(files: FilesApp, name = 'Kontrakt "æøå"/1.pdf'): Promise<string> {
  const upload = await files.app.inject({
    method: 'POST',
    url: '/v3/company/acme/file/upload',
    payload: { file: pdf.toString('base64'), name },
  });
  expect(upload.statusCode).toBe(200);
  const presigned = await files.app.inject({
    method: 'POST',
    url: '/v3/company/acme/file/view-presigned-url',
    payload: { url: upload.json<{ url: string }>().url },
  });
  expect(presigned.statusCode).toBe(200);
  return pathOf(presigned.json<{ signedUrl: string }>().signedUrl);
}

describe('GET /files/<key>?expires&signature', () => {
  it('streams the document with its type, name, content hash and caching rules', async () => {
    const files = await filesApp(await redis.lane());
    const res = await files.app.inject({ method: 'GET', url: await signedPath(files) });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(pdf)).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-length': String(pdf.length),
      'content-disposition':
        'inline; filename="Kontrakt ______1.pdf"; filename*=UTF-8\'\'Kontrakt%20_%C3%A6%C3%B8%C3%A5__1.pdf',
      etag: `"${hash}"`,
      'cache-control': `private, max-age=${TTL_S}`,
      'accept-ranges': 'bytes',
    });
  });

  it('answers HEAD with the headers and no body', async () => {
    const files = await filesApp(await redis.lane());
    const res = await files.app.inject({ method: 'HEAD', url: await signedPath(files, 'a') });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBe(0);
    expect(res.headers['content-length']).toBe(String(pdf.length));
    expect(res.headers['content-disposition']).toBe(
      'inline; filename="a.pdf"; filename*=UTF-8\'\'a.pdf',
    );
  });

  it('serves single byte ranges with 206, and 416 past the end', async () => {
    const files = await filesApp(await redis.lane());
    const url = await signedPath(files);
    const get = (headers: Record<string, string>) =>
      files.app.inject({ method: 'GET', url, headers });
    const size = pdf.length;

    const first = await get({ range: 'bytes=0-9' });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-9/${size}`);
    expect(first.headers['content-length']).toBe('10');
    expect(first.rawPayload.equals(pdf.subarray(0, 10))).toBe(true);

    const suffix = await get({ range: 'bytes=-5' });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.headers['content-range']).toBe(`bytes ${size - 5}-${size - 1}/${size}`);
    expect(suffix.rawPayload.equals(pdf.subarray(size - 5))).toBe(true);

    const open = await get({ range: `bytes=${size - 3}-` });
    expect(open.statusCode).toBe(206);
    expect(open.rawPayload.equals(pdf.subarray(size - 3))).toBe(true);

    const clipped = await get({ range: `bytes=${size - 2}-${size + 100}` });
    expect(clipped.headers['content-range']).toBe(`bytes ${size - 2}-${size - 1}/${size}`);

    const past = await get({ range: `bytes=${size}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${size}`);
    expect(past.json()).toEqual({ message: `the range is outside the document's ${size} bytes` });

    // Several ranges, another unit, a stale If-Range: the whole document, as RFC 9110 allows.
    const ignored: Record<string, string>[] = [
      { range: 'bytes=0-1,5-6' },
      { range: 'items=0-1' },
      { range: 'bytes=0-1', 'if-range': '"stale"' },
    ];
    expect(ignored).toHaveLength(3);
    for (const headers of ignored) {
      const whole = await get(headers);
      expect(whole.statusCode).toBe(200);
      expect(whole.rawPayload.equals(pdf)).toBe(true);
    }
    const current = await get({ range: 'bytes=0-1', 'if-range': `"${hash}"` });
    expect(current.statusCode).toBe(206);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const files = await filesApp(await redis.lane());
    const url = await signedPath(files);
    const res = await files.app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': `W/"x", "${hash}"` },
    });
    expect(res.statusCode).toBe(304);
    expect(res.rawPayload.length).toBe(0);
  });

  it('refuses a tampered URL with 403 saying the signature does not match', async () => {
    const files = await filesApp(await redis.lane());
    const url = await signedPath(files);
    const flipped = url.replace(
      /signature=(.)/,
      (_, c: string) => `signature=${c === 'a' ? 'b' : 'a'}`,
    );
    const otherKey = url.replace(
      hash,
      hash.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
    );
    const later = url.replace(/expires=(\d+)/, (_, e: string) => `expires=${Number(e) + 3600}`);
    for (const tampered of [flipped, otherKey, later]) {
      expect(tampered).not.toBe(url);
      const res = await files.app.inject({ method: 'GET', url: tampered });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        message:
          'the signature does not match this URL: it was changed or cut; ask for a new signed URL',
      });
    }
    const bare = await files.app.inject({ method: 'GET', url: url.split('?')[0]! });
    expect(bare.statusCode).toBe(403);
    expect(bare.json<{ message: string }>().message).toMatch(/^not a signed download URL/);
  });

  it('refuses an expired URL with 403 saying it expired', async () => {
    const files = await filesApp(await redis.lane());
    const url = await signedPath(files);
    files.advance(TTL_S * 1000 - 1000);
    expect((await files.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    files.advance(2000);
    const res = await files.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      message:
        'the signed URL has expired; ask for a new one: POST /v3/company/acme/file/view-presigned-url with the url the upload answered',
    });
  });

  it('says how to renew an expired URL of a render, of a case’s document, and of anything else', async () => {
    const files = await filesApp(await redis.lane());
    const past = new Date(files.now().getTime() - 1000);
    const expired = async (key: string) => {
      const res = await files.app.inject({
        method: 'GET',
        url: pathOf(signUrl(PUBLIC_URL, key, past, SECRET)),
      });
      expect(res.statusCode).toBe(403);
      return res.json<{ message: string }>().message;
    };
    expect(await expired(`renders/${hash.slice(0, 2)}/${hash}.pdf`)).toContain(
      'send the same convert request again',
    );
    const caseKey = `cases/${Buffer.from('acme').toString('hex')}/0b7e4a52-7a43-4f4c-9d55-4f1f3b0a2c11/sealed-0.pdf`;
    expect(await expired(caseKey)).toContain('read the case again with GET /v3/api/cases/{id}');
    expect(await expired('probe/readiness.txt')).toBe(
      'the signed URL has expired; ask whoever gave it to you for a new one',
    );
  });

  it('answers 404 for a document removed after its URL was signed', async () => {
    const files = await filesApp(await redis.lane());
    const key = `companies/${Buffer.from('acme').toString('hex')}/uploads/${hash}.pdf`;
    const url = pathOf(signUrl(PUBLIC_URL, key, new Date(files.now().getTime() + 60_000), SECRET));
    const res = await files.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toMatch(/^no stored document at this URL/);
  });
});

describe('over a real socket', () => {
  it('uploads as multipart, asks for a signed URL and downloads a range with fetch', async () => {
    const files = await filesApp(await redis.lane());
    const address = await files.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const form = await multipartBody({
        file: { bytes: pdf, filename: 'offer.pdf' },
        name: 'Offer',
      });
      const upload = await fetch(`${address}/v3/company/acme/file/upload`, {
        method: 'POST',
        headers: form.headers,
        body: new Uint8Array(form.payload),
      });
      expect(upload.status).toBe(200);
      const { url, type } = (await upload.json()) as { url: string; type: string };
      expect(type).toBe('pdf');
      expect(parseStoredDocumentUrl(url, PUBLIC_URL)?.company).toBe('acme');

      const presigned = await fetch(`${address}/v3/company/acme/file/view-presigned-url`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
      });
      expect(presigned.status).toBe(200);
      const { signedUrl } = (await presigned.json()) as { signedUrl: string };

      const ranged = await fetch(`${address}${pathOf(signedUrl)}`, {
        headers: { range: 'bytes=0-4' },
      });
      expect(ranged.status).toBe(206);
      expect(Buffer.from(await ranged.arrayBuffer()).toString('latin1')).toBe('%PDF-');
      const whole = await fetch(`${address}${pathOf(signedUrl)}`);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-disposition')).toBe(
        'inline; filename="Offer.pdf"; filename*=UTF-8\'\'Offer.pdf',
      );
      expect(Buffer.from(await whole.arrayBuffer()).equals(pdf)).toBe(true);

      const tooBig = await fetch(`${address}/v3/company/acme/file/upload`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ file: 'A'.repeat(4 * 1024 * 1024), name: 'x' }),
      });
      expect(tooBig.status).toBe(413);
      expect(((await tooBig.json()) as { message: string }).message).toMatch(/limit of \d+ bytes/);
    } finally {
      await files.app.close();
    }
  });
});
