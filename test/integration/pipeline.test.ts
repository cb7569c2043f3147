import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDir } from '../helpers/test-dir.js';
import { OfficePool, type ConvertRequest, type Converter } from '../../src/render/convert/index.js';
import { Renderer } from '../../src/render/pipeline/index.js';
import { PreparePool } from '../../src/render/prepare/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { corpusDir } from '../helpers/corpus.js';
import { pdfText } from '../helpers/pdf-text.js';

const root = projectRoot();
const lease = readFileSync(join(root, 'templates/lease/template.docx'));
const tags = JSON.parse(
  readFileSync(join(root, 'templates/lease/fixtures/basic.tags.json'), 'utf8'),
) as { tag: string; value: unknown }[];

/** Counts what reaches the real pool: a repeated request must not. */
class Counting implements Converter {
  readonly name = 'office-pool';
  calls = 0;
  constructor(private readonly inner: Converter) {}
  convert(request: ConvertRequest): Promise<Buffer> {
    this.calls++;
    return this.inner.convert(request);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

/** Files under a test's storage root; the root exists (testDir made it), so none is none. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);

let preparer: PreparePool;
let pool: OfficePool;

beforeAll(async () => {
  preparer = new PreparePool({ threads: 2 });
  pool = await OfficePool.start({ processes: 1 });
});
afterAll(async () => {
  await pool.close();
  await preparer.close();
});

describe('render pipeline', () => {
  it('fills, converts, checks and stores a template; a repeat comes from storage', async () => {
    const dir = testDir('docpipe-pipeline-');
    const storage = new LocalStorage(dir);
    const converter = new Counting(pool);
    const renderer = new Renderer({ preparer, converter, storage });
    const first = await renderer.render({ bytes: lease, name: 'Lejekontrakt Mette' }, tags, {
      field: 'documents[0]',
    });
    expect(first).toMatchObject({ type: 'pdf', pages: 2, input: 'docx', cached: false });
    expect(first.key).toMatch(/^renders\/[0-9a-f]{2}\/[0-9a-f]{64}\.pdf$/);
    const pdf = (await storage.get(first.key))!;
    expect(createHash('sha256').update(pdf).digest('hex')).toBe(first.sha256);
    expect(pdf.length).toBe(first.bytes);
    expect(pdfText(pdf)).toContain('Mette Sørensen');
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    expect(doc.getTitle()).toBe('Lejekontrakt Mette');
    expect(doc.getProducer()).toMatch(/^docpipe \d+\.\d+\.\d+$/);
    expect(Object.keys(first.timings)).toEqual(
      expect.arrayContaining(['sniff', 'fill', 'harden', 'convert', 'check', 'store']),
    );

    const again = await renderer.render({ bytes: lease, name: 'Lejekontrakt Mette' }, tags, {
      field: 'documents[3]',
    });
    expect(again).toMatchObject({ key: first.key, sha256: first.sha256, pages: 2, cached: true });
    expect(Object.keys(again.timings)).toEqual(['cache']);
    expect(converter.calls).toBe(1);

    const other = await renderer.render({ bytes: lease, name: 'Lejekontrakt Mette' }, [
      ...tags.slice(1),
      { tag: 'contract_no', value: 'LK-9', type: 'text' },
    ]);
    expect(other.cached).toBe(false);
    expect(other.key).not.toBe(first.key);
    expect(converter.calls).toBe(2);
  });

  it('reads what a hit reports from the stored PDF, and renders again over a damaged one', async () => {
    const storage = new LocalStorage(testDir('docpipe-pipeline-'));
    const converter = new Counting(pool);
    const renderer = new Renderer({ preparer, converter, storage });
    const made = await renderer.render({ bytes: lease, name: 'damaged later' }, tags);
    await storage.put(
      made.key,
      Buffer.from('%PDF-1.4 truncated by a disk error'),
      'application/pdf',
    );
    const again = await renderer.render({ bytes: lease, name: 'damaged later' }, tags);
    // LibreOffice stamps dates: the new PDF has the same key, not the same bytes.
    expect(again).toMatchObject({ key: made.key, cached: false, pages: 2 });
    expect(converter.calls).toBe(2);
    const stored = (await storage.get(made.key))!;
    const hit = await renderer.render({ bytes: lease, name: 'damaged later' }, tags);
    expect(hit).toMatchObject({
      cached: true,
      pages: 2,
      bytes: stored.length,
      sha256: createHash('sha256').update(stored).digest('hex'),
    });
    expect(hit.sha256).toBe(again.sha256);

    // A given PDF is stored as it is; a hit says so, with its own pages.
    const given = readFileSync(join(corpusDir(), 'pdf/gotenberg__pages_12.pdf'));
    const first = await renderer.render({ bytes: given, name: 'paper' }, []);
    const second = await renderer.render({ bytes: given, name: 'paper' }, []);
    expect(first).toMatchObject({ input: 'pdf', cached: false });
    expect(second).toMatchObject({ input: 'pdf', cached: true, pages: first.pages });
    expect(first.pages).toBe(12);
  });

  it('discards an output only while no other request has been given it', async () => {
    const dir = testDir('docpipe-pipeline-');
    const storage = new LocalStorage(dir);
    const renderer = new Renderer({ preparer, converter: pool, storage });
    const alone = await renderer.render({ bytes: lease, name: 'alone' }, tags);
    await renderer.discard(alone);
    expect(await storage.stat(alone.key)).toBeUndefined();
    const made = await renderer.render({ bytes: lease, name: 'shared' }, tags);
    const hit = await renderer.render({ bytes: lease, name: 'shared' }, tags);
    expect([made.cached, hit.cached]).toEqual([false, true]);
    await renderer.discard(made);
    expect(await storage.stat(made.key)).toEqual({
      key: made.key,
      bytes: made.bytes,
      type: 'application/pdf',
      modified: expect.any(Date),
    });
  });

  it('shares one conversion between identical requests in flight', async () => {
    const converter = new Counting(pool);
    const renderer = new Renderer({
      preparer,
      converter,
      storage: new LocalStorage(testDir('docpipe-pipeline-')),
    });
    const results = await Promise.all(
      [1, 2, 3].map(() => renderer.render({ bytes: lease, name: 'x' }, tags)),
    );
    expect(new Set(results.map((r) => r.key)).size).toBe(1);
    expect(converter.calls).toBe(1);
  });

  it('passes a PDF through with its exact bytes, and never starts a conversion', async () => {
    const dir = testDir('docpipe-pipeline-');
    const converter = new Counting(pool);
    const renderer = new Renderer({ preparer, converter, storage: new LocalStorage(dir) });
    const input = readFileSync(join(corpusDir(), 'pdf/gotenberg__pages_12.pdf'));
    const result = await renderer.render({ bytes: input, name: 'given' }, tags);
    expect(result).toMatchObject({ input: 'pdf', pages: 12, bytes: input.length });
    expect(result.sha256).toBe(createHash('sha256').update(input).digest('hex'));
    expect(converter.calls).toBe(0);
  });

  it.each([
    [
      'an image',
      () => readFileSync(join(corpusDir(), 'other/file-type__fixture.rtf')),
      tags,
      'unsupported-file-type',
    ],
    [
      'an encrypted PDF',
      () => readFileSync(join(corpusDir(), 'pdf/tika__testPDF_protected.pdf')),
      [],
      'unsupported-file-type',
    ],
    [
      'bad values',
      () => lease,
      [{ tag: 'start_date', value: 'soon', type: 'date' }],
      'validation-failed',
    ],
    [
      'a broken template',
      () => readFileSync(join(corpusDir(), 'templates/docxtemplater__one-unclosed.docx')),
      tags,
      'document-production-failed',
    ],
  ])('fails %s typed, with the field, and stores nothing', async (_what, bytes, values, slug) => {
    const dir = testDir('docpipe-pipeline-');
    const renderer = new Renderer({ preparer, converter: pool, storage: new LocalStorage(dir) });
    const err = await renderer
      .render({ bytes: bytes(), name: 'n' }, values, { field: 'documents[1]' })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      slug,
      details: expect.arrayContaining([
        expect.objectContaining({ field: expect.stringMatching(/^documents\[1\]/) }),
      ]),
    });
    expect(filesUnder(dir)).toEqual([]);
  });

  it('fails a conversion past its deadline typed and stores nothing', async () => {
    const dir = testDir('docpipe-pipeline-');
    const hurried = await OfficePool.start({ processes: 1, conversionTimeoutMs: 5 });
    try {
      const renderer = new Renderer({
        preparer,
        converter: hurried,
        storage: new LocalStorage(dir),
      });
      await expect(
        renderer.render({ bytes: lease, name: 'n' }, tags, { field: 'documents[2]' }),
      ).rejects.toMatchObject({
        slug: 'document-conversion-failed',
        details: [{ field: 'documents[2]' }],
      });
      expect(filesUnder(dir)).toEqual([]);
    } finally {
      await hurried.close();
    }
  });
});
