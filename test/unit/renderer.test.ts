import { readdirSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { convertedPdf } from '../helpers/scripted-converter.js';
import { describe, expect, it } from 'vitest';
import type { ConvertRequest, Converter } from '../../src/render/convert/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { DocpipeError } from '../../src/base/errors/index.js';
import { ZipArchive } from '../../src/formats/zip/index.js';
import { Renderer } from '../../src/render/pipeline/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import { rejectionOf } from '../helpers/failure.js';
import { testDir } from '../helpers/test-dir.js';
import { waitUntil } from '../helpers/wait.js';

/**
 * The renderer on the same-thread preparer (InlinePreparer) with a converter that stands in for LibreOffice: what
 * the pipeline decides (fill before converting, check after, store only what passed, share and
 * cache) is tested here without threads or office processes.
 */

const template = buildDocx({ body: para('Tenant: {tenant_name}') });
const tags = [{ tag: 'tenant_name', value: 'Ada Lovelace', type: 'text' }];

const onePagePdf = convertedPdf;

/** Answers a fixed PDF (or what `answer` gives) and keeps every request it was given. */
class FakeConverter implements Converter {
  readonly name = 'fake';
  readonly requests: ConvertRequest[] = [];
  constructor(private readonly answer: (request: ConvertRequest) => Promise<Buffer>) {}
  convert(request: ConvertRequest): Promise<Buffer> {
    this.requests.push(request);
    return this.answer(request);
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

function setUp(answer: (request: ConvertRequest) => Promise<Buffer>) {
  const dir = testDir('renderer');
  const storage = new LocalStorage(dir);
  const converter = new FakeConverter(answer);
  const renderer = new Renderer({ preparer: new InlinePreparer(), converter, storage });
  const stored = () =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
  return { renderer, converter, storage, stored };
}

/** The text of the main part of a .docx, without markup. */
function documentText(docx: Uint8Array): string {
  return ZipArchive.open(docx)
    .read('word/document.xml')
    .toString('utf8')
    .replace(/<[^>]+>/g, '')
    .trim();
}

describe('Renderer on the inline preparer', () => {
  it('converts the filled document, stores the checked PDF, and answers a repeat from storage', async () => {
    const pdf = await onePagePdf();
    const { renderer, converter, storage } = setUp(() => Promise.resolve(pdf));
    const first = await renderer.render({ bytes: template, name: 'Lease' }, tags);
    expect(first).toMatchObject({ cached: false, input: 'docx', pages: 1, type: 'pdf' });
    expect(converter.requests).toHaveLength(1);
    expect(converter.requests[0]).toMatchObject({ field: 'document', title: 'Lease' });
    expect(documentText(converter.requests[0]!.docx)).toBe('Tenant: Ada Lovelace');
    const kept = await storage.get(first.key);
    expect((await PDFDocument.load(kept!)).getTitle()).toBe('Lease');
    const again = await renderer.render({ bytes: template, name: 'Lease' }, tags);
    expect(again).toMatchObject({ cached: true, key: first.key, sha256: first.sha256 });
    expect(converter.requests).toHaveLength(1);
  });

  it('fails an unfilled strict template before converting, storing nothing', async () => {
    const { renderer, converter, stored } = setUp(onePagePdf);
    const err = await rejectionOf(
      renderer.render({ bytes: template, name: 'Lease' }, [], {
        strict: true,
        field: 'documents[2]',
      }),
      DocpipeError,
    );
    expect(err.slug).toBe('validation-failed');
    expect(err.details).toEqual([
      expect.objectContaining({ field: 'documents[2].tags.tenant_name' }),
    ]);
    expect(converter.requests).toHaveLength(0);
    expect(stored()).toEqual([]);
  });

  it('passes a converter failure on typed, under the request field, storing nothing', async () => {
    const { renderer, stored } = setUp(({ field }) =>
      Promise.reject(
        new DocpipeError('document-conversion-failed', [{ field, message: 'office crashed' }]),
      ),
    );
    const err = await rejectionOf(
      renderer.render({ bytes: template, name: 'Lease' }, tags, { field: 'documents[1]' }),
      DocpipeError,
    );
    expect(err.toFailure()).toEqual({
      error: 'document-conversion-failed',
      details: [{ field: 'documents[1]', message: 'office crashed' }],
    });
    expect(stored()).toEqual([]);
  });

  it('refuses what a converter answers when it is not a readable PDF, storing nothing', async () => {
    const { renderer, stored } = setUp(() => Promise.resolve(Buffer.from('%PDF-1.7\nnot really')));
    const err = await rejectionOf(
      renderer.render({ bytes: template, name: 'Lease' }, tags),
      DocpipeError,
    );
    expect(err.slug).toBe('document-conversion-failed');
    expect(err.details.map((d) => d.field)).toEqual(['document']);
    expect(stored()).toEqual([]);
  });

  it('shares one conversion between identical requests in flight', async () => {
    const pdf = await onePagePdf();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { renderer, converter } = setUp(async () => {
      await gate;
      return pdf;
    });
    const both = Promise.all([
      renderer.render({ bytes: template, name: 'Lease' }, tags),
      renderer.render({ bytes: template, name: 'Lease' }, tags),
    ]);
    // Both are past the cache lookup and waiting on the one conversion before it may finish.
    await waitUntil(() => converter.requests.length > 0, 10_000, 'the conversion to start');
    release();
    const [a, b] = await both;
    expect(converter.requests).toHaveLength(1);
    expect([a.cached, b.cached].sort()).toEqual([false, true]);
    expect(a.key).toBe(b.key);
  });
});
