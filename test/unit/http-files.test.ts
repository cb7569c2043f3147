import { describe, expect, it } from 'vitest';
import { contentDisposition } from '../../src/surfaces/http/common/files-disposition.js';
import { rangeOf } from '../../src/surfaces/http/downloads/files-range.js';
import { createHttpApp } from '../../src/surfaces/http/common/create-app.js';
import { registerOpenApi } from '../../src/surfaces/http/common/openapi.js';
import { downloadRoutes } from '../../src/surfaces/http/downloads/download-routes.js';
import { fileRoutes } from '../../src/surfaces/http/files/file-routes.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import {
  LocalStorage,
  parseStoredDocumentKey,
  parseStoredDocumentUrl,
  storedDocumentKey,
  storedDocumentUrl,
} from '../../src/render/storage/index.js';

const BASE = 'https://api.example.test/docpipe';
const SHA = 'ab'.repeat(32);

describe('stored-document URLs', () => {
  it('round-trips a company and id through key and URL', () => {
    for (const company of ['acme', '5f1e0c2b9d3a4e0012345678', 'Other_Co.eu-2']) {
      const key = storedDocumentKey(company, SHA, 'docx');
      const url = storedDocumentUrl(BASE, key);
      expect(url).toBe(`${BASE}/v3/company/${encodeURIComponent(company)}/file/${SHA}.docx`);
      expect(parseStoredDocumentUrl(url, BASE)).toEqual({ company, key });
      expect(parseStoredDocumentKey(key)).toEqual({
        company,
        id: `${SHA}.docx`,
        key,
        type: 'docx',
      });
    }
  });

  it('accepts only URLs under the public URL, of the exact form', () => {
    const good = `${BASE}/v3/company/acme/file/${SHA}.pdf`;
    expect(parseStoredDocumentUrl(good, BASE)?.company).toBe('acme');
    expect(parseStoredDocumentUrl(good, `${BASE}/`)?.company).toBe('acme');
    const refused = [
      good.replace('https:', 'http:'),
      good.replace('api.example.test', 'api.example.test:8443'),
      good.replace('api.example.test', 'evil.example.test'),
      good.replace('https://', 'https://user:pw@'),
      good.replace('/docpipe/', '/'),
      `${good}?download=1`,
      `${good}#x`,
      good.replace('.pdf', '.exe'),
      good.replace(SHA, SHA.toUpperCase()),
      good.replace(SHA, SHA.slice(1)),
      good.replace('/acme/', '/a/b/'),
      good.replace('/acme/', '/%E0%A4%A/'),
      good.replace('/acme/', `/${'x'.repeat(129)}/`),
      `${BASE}/files/companies/61636d65/uploads/${SHA}.pdf`,
      'not a url',
    ];
    expect(refused).toHaveLength(15);
    for (const url of refused) expect(parseStoredDocumentUrl(url, BASE), url).toBeUndefined();
  });

  it("carries the upload's name, and refuses a name segment no upload answers", () => {
    const key = storedDocumentKey('acme', SHA, 'docx');
    const url = storedDocumentUrl(BASE, key, 'Lease æ/?#%.docx'.replace('/', '_'));
    expect(url).toBe(`${BASE}/v3/company/acme/file/${SHA}.docx/Lease%20%C3%A6_%3F%23%25.docx`);
    expect(parseStoredDocumentUrl(url, BASE)).toEqual({
      company: 'acme',
      key,
      name: 'Lease æ_?#%.docx',
    });
    const unnamed = storedDocumentUrl(BASE, key);
    const refused = [
      `${unnamed}/`,
      `${unnamed}/a/b`,
      `${unnamed}/a%2Fb`,
      `${unnamed}/%E0%A4%A`,
      `${unnamed}/${'x'.repeat(256)}`,
    ];
    expect(refused).toHaveLength(5);
    for (const bad of refused) expect(parseStoredDocumentUrl(bad, BASE), bad).toBeUndefined();
    expect(parseStoredDocumentUrl(`${unnamed}/${'x'.repeat(255)}`, BASE)?.name).toHaveLength(255);
    for (const name of ['', '.', '..', 'a/b'])
      expect(() => storedDocumentUrl(BASE, key, name)).toThrow(/not a document name/);
  });

  it('knows render keys and forged keys are not stored documents', () => {
    expect(parseStoredDocumentKey(`renders/ab/${SHA}.pdf`)).toBeUndefined();
    // 0xff is not UTF-8: no company id encodes to it.
    expect(parseStoredDocumentKey(`companies/ff/uploads/${SHA}.pdf`)).toBeUndefined();
    expect(() => storedDocumentKey('', SHA, 'pdf')).toThrow('company id must be 1 to 128');
    expect(() => storedDocumentKey('acme', 'nope', 'pdf')).toThrow('not a sha256');
  });
});

describe('Range headers', () => {
  it.each([
    [undefined, { kind: 'whole' }],
    ['bytes=0-9', { kind: 'partial', range: { start: 0, end: 9 } }],
    ['bytes=90-', { kind: 'partial', range: { start: 90, end: 99 } }],
    ['bytes=90-500', { kind: 'partial', range: { start: 90, end: 99 } }],
    ['bytes=-10', { kind: 'partial', range: { start: 90, end: 99 } }],
    ['bytes=-500', { kind: 'partial', range: { start: 0, end: 99 } }],
    ['bytes=100-', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=9-3', { kind: 'whole' }],
    ['bytes=0-1,4-5', { kind: 'whole' }],
    ['bytes=-', { kind: 'whole' }],
    ['pages=1-2', { kind: 'whole' }],
  ])('%s of 100 bytes', (header, answer) => {
    expect(rangeOf(header, 100)).toEqual(answer);
  });
});

describe('Content-Disposition', () => {
  it('keeps the name exact in filename* and safe in filename', () => {
    expect(contentDisposition('Løn 2026 (ny)*.pdf', 'pdf')).toBe(
      'inline; filename="L_n 2026 (ny)*.pdf"; filename*=UTF-8\'\'L%C3%B8n%202026%20%28ny%29%2A.pdf',
    );
    expect(contentDisposition('../../etc/passwd', 'pdf')).toBe(
      'inline; filename=".._.._etc_passwd.pdf"; filename*=UTF-8\'\'.._.._etc_passwd.pdf',
    );
    expect(contentDisposition('a"\r\nSet-Cookie: x', 'docx')).toBe(
      'inline; filename="a___Set-Cookie: x.docx"; filename*=UTF-8\'\'a___Set-Cookie%3A%20x.docx',
    );
    expect(contentDisposition('  ', 'pdf')).toBe(
      'inline; filename="document.pdf"; filename*=UTF-8\'\'document.pdf',
    );
  });
});

describe('OpenAPI', () => {
  it('describes both routes with JSON and multipart bodies and every status', async () => {
    const app = createHttpApp({ bodyLimit: 1024 });
    await registerOpenApi(app, BASE);
    await app.register(fileRoutes, {
      storage: new LocalStorage('/nonexistent'),
      preparer: new InlinePreparer(),
      signedUrls: { reuseOrIssue: () => Promise.reject(new Error('unused')) },
      publicUrl: BASE,
      signingSecret: 'x'.repeat(32),
      signedUrlTtlSeconds: 900,
      maxUploadBytes: 1000,
      bodyLimitBytes: 2000,
    });
    await app.register(downloadRoutes, {
      storage: new LocalStorage('/nonexistent'),
      signingSecret: 'x'.repeat(32),
    });
    await app.ready();
    const doc = app.swagger() as unknown as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: object }; responses: object }>
      >;
    };
    const upload = doc.paths['/v3/company/{company}/file/upload']!.post!;
    expect(Object.keys(upload.requestBody!.content).sort()).toEqual([
      'application/json',
      'multipart/form-data',
    ]);
    expect(Object.keys(upload.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '413',
      '415',
      '429',
      '500',
    ]);
    const presign = doc.paths['/v3/company/{company}/file/view-presigned-url']!.post!;
    expect(Object.keys(presign.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '404',
      '413',
      '415',
      '429',
      '500',
    ]);
    const download = doc.paths['/files/{key}']!.get!;
    expect(Object.keys(download.responses).sort()).toEqual([
      '200',
      '206',
      '304',
      '403',
      '404',
      '416',
      '500',
    ]);
    await app.close();
  });
});
