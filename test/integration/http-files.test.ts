import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseStoredDocumentUrl,
  readDocumentMeta,
  signUrl,
} from '../../src/render/storage/index.js';
import { signedUrlCacheKey } from '../../src/surfaces/http/files/signed-url-cache.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import {
  BODY_LIMIT,
  DOCX_FILE,
  MAX_UPLOAD,
  PDF_FILE,
  PUBLIC_URL,
  SECRET,
  TTL_S,
  corpusFile,
  filesApp,
  multipartBody,
  type FilesApp,
} from './http-files-setup.js';

let redis: RedisOnly;
beforeAll(async () => {
  redis = await startRedisOnly();
});
afterAll(async () => {
  await redis.close();
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function jsonUpload(
  files: FilesApp,
  body: unknown,
  company = 'acme',
  asCompany = company,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await files.app.inject({
    method: 'POST',
    url: `/v3/company/${encodeURIComponent(company)}/file/upload`,
    headers: { 'x-test-company': asCompany },
    payload: body as object,
  });
  return { status: res.statusCode, body: res.json() };
}

async function presign(
  files: FilesApp,
  body: unknown,
  company = 'acme',
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await files.app.inject({
    method: 'POST',
    url: `/v3/company/${company}/file/view-presigned-url`,
    headers: { 'x-test-company': company },
    payload: body as object,
  });
  return { status: res.statusCode, body: res.json() };
}

describe('POST /v3/company/{company}/file/upload', () => {
  it('stores a PDF sent as JSON and answers its url and type', async () => {
    const files = await filesApp(await redis.lane());
    const pdf = corpusFile(PDF_FILE);
    const res = await jsonUpload(files, { file: pdf.toString('base64'), name: 'Offer.pdf' });
    expect(res).toEqual({
      status: 200,
      body: {
        url: `${PUBLIC_URL}/v3/company/acme/file/${sha256(pdf)}.pdf/Offer.pdf`,
        type: 'pdf',
      },
    });
    const ref = parseStoredDocumentUrl(res.body.url as string, PUBLIC_URL)!;
    expect(ref).toEqual({
      company: 'acme',
      key: `companies/${Buffer.from('acme').toString('hex')}/uploads/${sha256(pdf)}.pdf`,
      name: 'Offer.pdf',
    });
    expect((await files.storage.get(ref.key))!.equals(pdf)).toBe(true);
    expect(await files.storage.stat(ref.key)).toMatchObject({ type: 'application/pdf' });
    expect(await readDocumentMeta(files.storage, ref.key)).toEqual({ name: 'Offer.pdf' });
  });

  it('stores a .docx sent as multipart, named by its file name when no name is given', async () => {
    const files = await filesApp(await redis.lane());
    const docx = corpusFile(DOCX_FILE);
    const form = await multipartBody({
      file: { bytes: docx, filename: 'Kontrakt æøå.docx' },
      type: 'application/pdf',
    });
    const res = await files.app.inject({
      method: 'POST',
      url: '/v3/company/acme/file/upload',
      ...form,
    });
    expect(res.statusCode).toBe(200);
    // The declared type is not trusted: the bytes are a .docx.
    expect(res.json()).toEqual({
      url: `${PUBLIC_URL}/v3/company/acme/file/${sha256(docx)}.docx/Kontrakt%20%C3%A6%C3%B8%C3%A5.docx`,
      type: 'docx',
    });
    const key = parseStoredDocumentUrl(res.json<{ url: string }>().url, PUBLIC_URL)!.key;
    expect(await readDocumentMeta(files.storage, key)).toEqual({ name: 'Kontrakt æøå.docx' });
  });

  it('keeps each company apart: the same bytes under two keys', async () => {
    const files = await filesApp(await redis.lane());
    const pdf = corpusFile(PDF_FILE).toString('base64');
    const a = await jsonUpload(files, { file: pdf, name: 'a.pdf' }, 'acme');
    const b = await jsonUpload(files, { file: pdf, name: 'b.pdf' }, 'Other_Co.eu-2');
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.url).toBe(
      `${PUBLIC_URL}/v3/company/Other_Co.eu-2/file/${sha256(corpusFile(PDF_FILE))}.pdf/b.pdf`,
    );
    const keyA = parseStoredDocumentUrl(a.body.url as string, PUBLIC_URL)!;
    const keyB = parseStoredDocumentUrl(b.body.url as string, PUBLIC_URL)!;
    expect(keyB.company).toBe('Other_Co.eu-2');
    expect(keyA.key).not.toBe(keyB.key);
  });

  it("refuses a company that is not the key's with the 7.1 company error", async () => {
    const files = await filesApp(await redis.lane());
    const res = await jsonUpload(
      files,
      { file: corpusFile(PDF_FILE).toString('base64'), name: 'a.pdf' },
      'other',
      'acme',
    );
    expect(res).toEqual({
      status: 400,
      body: { code: 400, message: 'Bad Request', description: 'Invalid company id' },
    });
  });

  it('refuses unknown and missing members of a JSON upload, every one in one message', async () => {
    const files = await filesApp(await redis.lane());
    const res = await jsonUpload(files, { type: 7, colour: 'red', extra: {} });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['message']);
    const message = res.body.message as string;
    expect(message.startsWith('the request is invalid: ')).toBe(true);
    expect(message.slice('the request is invalid: '.length).split('; ').sort()).toEqual([
      'colour: unknown field',
      'extra: unknown field',
      'file: is required',
      'name: is required',
      'type: must be string',
    ]);
  });

  it('refuses unknown members and a file sent as text in a multipart upload', async () => {
    const files = await filesApp(await redis.lane());
    const unknown = await multipartBody({
      file: { bytes: corpusFile(PDF_FILE), filename: 'a.pdf' },
      colour: 'red',
      owner: 'me',
    });
    const res1 = await files.app.inject({
      method: 'POST',
      url: '/v3/company/acme/file/upload',
      ...unknown,
    });
    expect(res1.statusCode).toBe(400);
    expect(res1.json()).toEqual({
      message: 'the request is invalid: colour: unknown field; owner: unknown field',
    });
    const asText = await multipartBody({ file: 'JVBERi0xLjQK', name: 'a.pdf' });
    const res2 = await files.app.inject({
      method: 'POST',
      url: '/v3/company/acme/file/upload',
      ...asText,
    });
    expect(res2.statusCode).toBe(400);
    expect(res2.json()).toEqual({
      message: 'the request is invalid: file: must be a file part, not a text field',
    });
    const missing = await multipartBody({ name: 'a.pdf' });
    const res3 = await files.app.inject({
      method: 'POST',
      url: '/v3/company/acme/file/upload',
      ...missing,
    });
    expect(res3.json()).toEqual({ message: 'the request is invalid: file: is required' });
  });

  it('refuses base64 that is not base64', async () => {
    const files = await filesApp(await redis.lane());
    const res = await jsonUpload(files, { file: 'JVBERi0x%%%', name: 'a.pdf' });
    expect(res).toEqual({
      status: 400,
      body: {
        message:
          'the request is invalid: file: must be the document in standard base64 (A-Z, a-z, 0-9, + and /, = padding)',
      },
    });
  });

  it('refuses what is not a PDF or a real .docx, saying the sniff reason', async () => {
    const files = await filesApp(await redis.lane());
    const encrypted = corpusFile('docx/poi__bug53475-password-is-pass.docx');
    const res = await jsonUpload(files, { file: encrypted.toString('base64'), name: 'x.docx' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(
      /^the file is neither a PDF nor a real \.docx: file: encrypted: .+/,
    );
    const text = await jsonUpload(files, {
      file: Buffer.from('hello').toString('base64'),
      name: 'x',
    });
    expect(text.status).toBe(400);
    expect(text.body.message).toMatch(/: file: unknown: /);
    expect(await files.storage.get('companies')).toBeUndefined();
  });

  it('answers 413 naming the limit for a JSON body past the body limit', async () => {
    const files = await filesApp(await redis.lane());
    const res = await jsonUpload(files, { file: 'A'.repeat(BODY_LIMIT), name: 'big.pdf' });
    expect(res).toEqual({
      status: 413,
      body: {
        message: `the request body is larger than this endpoint's limit of ${BODY_LIMIT} bytes; send a smaller document`,
      },
    });
  });

  it('answers 413 naming the limit for a document past the upload limit, in JSON or multipart', async () => {
    const files = await filesApp(await redis.lane());
    const big = Buffer.alloc(MAX_UPLOAD + 1, 0x41);
    big.write('%PDF-1.7\n');
    const json = await jsonUpload(files, { file: big.toString('base64'), name: 'big.pdf' });
    expect(json).toEqual({
      status: 413,
      body: {
        message: `the file is larger than the upload limit of ${MAX_UPLOAD} bytes (it has ${MAX_UPLOAD + 1}); send a smaller document`,
      },
    });
    const form = await multipartBody({ file: { bytes: big, filename: 'big.pdf' } });
    const res = await files.app.inject({
      method: 'POST',
      url: '/v3/company/acme/file/upload',
      ...form,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      message: `the file is larger than the upload limit of ${MAX_UPLOAD} bytes; send a smaller document`,
    });
  });

  it('answers 415 for a body that is neither JSON nor multipart', async () => {
    const files = await filesApp(await redis.lane());
    const res = await files.app.inject({
      method: 'POST',
      url: '/v3/company/acme/file/upload',
      headers: { 'content-type': 'application/pdf' },
      payload: corpusFile(PDF_FILE),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      message:
        'the body\'s Content-Type is "application/pdf": an upload is application/json (the document in base64 as "file") or multipart/form-data (the document as the file part "file"); send one of the two',
    });
  });
});

describe('POST /v3/company/{company}/file/view-presigned-url', () => {
  async function uploaded(files: FilesApp, company = 'acme'): Promise<string> {
    const res = await jsonUpload(
      files,
      { file: corpusFile(PDF_FILE).toString('base64'), name: 'Offer.pdf' },
      company,
    );
    expect(res.status).toBe(200);
    return res.body.url as string;
  }

  it('answers a signed URL, the same one while it has half its lifetime left, then a new one', async () => {
    const lane = await redis.lane();
    const files = await filesApp(lane);
    const url = await uploaded(files);
    const key = parseStoredDocumentUrl(url, PUBLIC_URL)!.key;
    const first = await presign(files, { url });
    const expiry = Math.floor(files.now().getTime() / 1000) + TTL_S;
    expect(first).toEqual({
      status: 200,
      body: {
        key,
        signedUrl: signUrl(PUBLIC_URL, key, new Date(expiry * 1000), SECRET, 'Offer.pdf'),
        type: 'pdf',
        cached: false,
      },
    });
    const cached = signedUrlCacheKey(lane.prefix, { key, name: 'Offer.pdf' });
    const pttl = await lane.connection.pttl(cached);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual((TTL_S * 1000) / 2);
    files.advance(60_000);
    const second = await presign(files, { url });
    expect(second.body).toEqual({ ...first.body, cached: true });
    // Past the reuse window (Redis forgets the URL), a fresh one with a later expiry.
    await lane.connection.del(cached);
    const third = await presign(files, { url });
    expect(third.body.cached).toBe(false);
    expect(third.body.signedUrl).toBe(
      signUrl(PUBLIC_URL, key, new Date((expiry + 60) * 1000), SECRET, 'Offer.pdf'),
    );
  });

  it('refuses a url docpipe did not issue with 400', async () => {
    const files = await filesApp(await redis.lane());
    const url = await uploaded(files);
    for (const other of [
      url.replace('docs.example.test', 'evil.example.test'),
      `${url}?x=1`,
      url.replace('/base/', '/'),
      'https://example.com/a.pdf',
    ]) {
      const res = await presign(files, { url: other });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(
        /^the request is invalid: url: not an upload's url: this renews the url an upload answered/,
      );
    }
  });

  it("answers 404 for another company's document and for a missing one, with the same message", async () => {
    const files = await filesApp(await redis.lane());
    const theirs = await uploaded(files, 'other');
    const res = await presign(files, { url: theirs.replace('/company/other/', '/company/acme/') });
    // The URL rewritten to acme names acme's key: nothing there.
    expect(res).toEqual({
      status: 404,
      body: { message: 'no such document: url: no stored document of company acme at this url' },
    });
    const asIs = await presign(files, { url: theirs });
    expect(asIs).toEqual(res);
  });

  it('refuses a missing url and unknown members, every one', async () => {
    const files = await filesApp(await redis.lane());
    expect(await presign(files, {})).toEqual({
      status: 400,
      body: { message: 'the request is invalid: url: is required' },
    });
    expect(await presign(files, { url: 'not a url', key: 'x' })).toEqual({
      status: 400,
      body: { message: 'the request is invalid: key: unknown field; url: must match format "uri"' },
    });
  });
});
