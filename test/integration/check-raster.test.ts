import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import {
  decodePng,
  pdfText,
  PopplerMissingError,
  rasterizePdf,
  toGrayPng,
} from '../../src/formats/raster/index.js';
import { corpusDir } from '../helpers/corpus.js';
import { testDir } from '../helpers/test-dir.js';

const pdfs = join(corpusDir(), 'pdf');
/** Twelve pages of 446.25 x 631.5 points, each saying "Page N". */
const twelve = readFileSync(join(pdfs, 'gotenberg__pages_12.pdf'));

async function failureOf(work: Promise<unknown>): Promise<DocpipeError> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DocpipeError);
  return err as DocpipeError;
}

describe('rasterizePdf and pdfText (real poppler)', () => {
  const path = process.env.PATH;
  afterEach(() => {
    process.env.PATH = path;
  });

  it('draws every page, in order, at the asked resolution', async () => {
    const pages = await rasterizePdf(twelve, { dpi: 50 });
    expect(pages).toHaveLength(12);
    for (const png of pages) {
      const img = decodePng(png, 'page');
      // 446.25 / 72 * 50 and 631.5 / 72 * 50, rounded up.
      expect([img.width, img.height]).toEqual([310, 439]);
    }
    // Different pages are different images ("Page 1" against "Page 2").
    expect(pages[0]!.equals(pages[1]!)).toBe(false);
    const grey = decodePng(toGrayPng(pages[0]!), 'grey');
    expect([grey.width, grey.height]).toEqual([310, 439]);
    expect(grey.data[0]).toBe(grey.data[1]);
  });

  it('draws a range of pages, the last clamped to the document', async () => {
    const three = await rasterizePdf(twelve, { dpi: 20, firstPage: 3, lastPage: 5 });
    expect(three).toHaveLength(3);
    const all = await rasterizePdf(twelve, { dpi: 20 });
    expect(three.map((p, i) => p.equals(all[2 + i]!))).toEqual([true, true, true]);
    expect(await rasterizePdf(twelve, { dpi: 20, firstPage: 11, lastPage: 99 })).toHaveLength(2);
    const past = await failureOf(rasterizePdf(twelve, { dpi: 20, firstPage: 13 }));
    expect(past.details).toEqual([
      {
        field: 'document',
        message: 'cannot draw pages: page 13 asked for, but the document has 12',
      },
    ]);
  });

  it('refuses a page too large to draw before drawing it', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([14_400, 14_400]);
    const huge = await doc.save();
    const err = await failureOf(rasterizePdf(huge, { dpi: 50, field: 'documents[2]' }));
    expect(err.slug).toBe('document-production-failed');
    expect(err.details).toEqual([
      {
        field: 'documents[2]',
        message:
          'cannot draw pages: page 1 is 14400 x 14400 points: over 50000000 pixels at 50 dpi',
      },
    ]);
    // The same page at a resolution that keeps it small is drawn.
    expect(await rasterizePdf(huge, { dpi: 2 })).toHaveLength(1);
  });

  it('stops a PDF that keeps pdftoppm busy past the time limit', async () => {
    const bomb = readFileSync(join(pdfs, 'pdfjs__bomb_giant.pdf'));
    const started = Date.now();
    const err = await failureOf(rasterizePdf(bomb, { dpi: 50, timeoutMs: 1500 }));
    expect(err.details).toEqual([
      { field: 'document', message: 'pdftoppm did not finish within 1500 ms (SIGKILL); stopped' },
    ]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('names what poppler says about bytes that are not a PDF', async () => {
    const err = await failureOf(rasterizePdf(Buffer.from('%PDF-1.7\nnothing else'), { dpi: 50 }));
    expect(err.details).toEqual([
      {
        field: 'document',
        message: expect.stringMatching(/^pdfinfo could not read the PDF \(exit 1\): .+/),
      },
    ]);
  });

  it('refuses options out of range as a programming error', async () => {
    await expect(rasterizePdf(twelve, { dpi: 0 })).rejects.toThrow(
      'rasterizePdf (document): dpi must be an integer from 1 to 600, not 0',
    );
    await expect(rasterizePdf(twelve, { dpi: 50, firstPage: 4, lastPage: 2 })).rejects.toThrow(
      'lastPage 2 is before firstPage 4',
    );
  });

  it('reads the text, pages separated by form feeds', async () => {
    const text = await pdfText(twelve);
    expect(text.split('\f').map((p) => p.trim())).toEqual([
      ...Array.from({ length: 12 }, (_, i) => `Page ${i + 1}`),
      '',
    ]);
  });

  it('says to run scripts/setup.sh when poppler is not installed', async () => {
    process.env.PATH = testDir('docpipe-no-poppler-');
    const err = await rasterizePdf(twelve, { dpi: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PopplerMissingError);
    expect((err as PopplerMissingError).toFailure()).toEqual({
      error: 'document-production-failed',
      details: [
        {
          field: 'pdfinfo',
          message: 'pdfinfo (poppler-utils) is not installed or not on PATH: run scripts/setup.sh',
        },
      ],
    });
    await expect(pdfText(twelve)).rejects.toThrow(
      'pdftotext (poppler-utils) is not installed or not on PATH: run scripts/setup.sh',
    );
  });

  it('docpipe check ends with bad usage (2) before starting LibreOffice when pdftoppm is missing', async () => {
    const root = projectRoot();
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>(
      (resolve, reject) => {
        const child = spawn(
          process.execPath,
          [join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js'), 'check', 'templates/'],
          {
            cwd: root,
            env: {
              ...process.env,
              PATH: testDir('docpipe-no-poppler-'),
              DOCPIPE_DATA_DIR: testDir('docpipe-check-data-'),
            },
          },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('error', reject);
        child.on('close', (status) => resolve({ status, stdout, stderr }));
      },
    );
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'docpipe: pdftoppm (poppler-utils) is not installed or not on PATH: run scripts/setup.sh\n',
    );
    expect(run.status).toBe(2);
  });
});
