import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocpipeError } from '../../base/errors/index.js';
import { pageCount, pageSizes } from './page-sizes.js';
import { runPoppler, type PopplerRun } from './poppler.js';

export interface RasterOptions {
  /** Resolution in dots per inch, an integer from 1 to MAX_DPI. */
  dpi: number;
  /** First page to draw, from 1. @defaultValue 1 */
  firstPage?: number;
  /** Last page to draw. @defaultValue the last page of the document */
  lastPage?: number;
  /** Path of the document in the request, named by a failure. @defaultValue 'document' */
  field?: string;
  /** Kills pdftoppm past this time. @defaultValue RASTER_TIMEOUT_MS */
  timeoutMs?: number;
  /** Refuses to draw more pages than this. @defaultValue MAX_RASTER_PAGES */
  maxPages?: number;
}

/** Print resolution; anything above draws pages no screen or diff needs. */
export const MAX_DPI = 600;
/** A 30-page document at 150 dpi draws in about 3 s here; twenty times that is a stuck poppler. */
export const RASTER_TIMEOUT_MS = 60_000;
/** Twice the longest library document one would page through as images. */
export const MAX_RASTER_PAGES = 500;
/** About an A3 page at 600 dpi (48 MP); a larger page is a bomb, not a document. */
export const MAX_PAGE_PIXELS = 50_000_000;
/** What the PNGs of one call may weigh together on disk before they are read into memory. */
export const MAX_RASTER_BYTES = 256 * 1024 * 1024;

/**
 * Draws pages of a PDF as PNG images (one Buffer per page, in page order) with poppler's
 * pdftoppm, in a private temporary folder removed afterwards. Time, page count, pixels per page
 * and bytes written are bounded; a missing pdftoppm is a PopplerMissingError saying to run
 * scripts/setup.sh; a PDF poppler cannot draw is `document-production-failed` naming the field.
 */
export async function rasterizePdf(pdf: Uint8Array, options: RasterOptions): Promise<Buffer[]> {
  const field = options.field ?? 'document';
  checkOptions(options, field);
  const run: PopplerRun = {
    timeoutMs: options.timeoutMs ?? RASTER_TIMEOUT_MS,
    maxOutputBytes: 1024 * 1024,
    field,
  };
  const dir = await mkdtemp(join(tmpdir(), 'docpipe-raster-'));
  try {
    const file = join(dir, 'in.pdf');
    await writeFile(file, pdf, { mode: 0o600 });
    const [first, last] = await pageRange(file, options, run);
    await runPoppler(
      'pdftoppm',
      [
        '-png',
        '-r',
        String(options.dpi),
        '-f',
        String(first),
        '-l',
        String(last),
        file,
        join(dir, 'p'),
      ],
      run,
    );
    return await readPages(dir, last - first + 1, field);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function checkOptions(options: RasterOptions, field: string): void {
  const problems: string[] = [];
  if (!Number.isInteger(options.dpi) || options.dpi < 1 || options.dpi > MAX_DPI)
    problems.push(`dpi must be an integer from 1 to ${MAX_DPI}, not ${options.dpi}`);
  for (const name of ['firstPage', 'lastPage'] as const) {
    const n = options[name];
    if (n !== undefined && (!Number.isInteger(n) || n < 1))
      problems.push(`${name} must be a page number from 1, not ${n}`);
  }
  if ((options.lastPage ?? Infinity) < (options.firstPage ?? 1))
    problems.push(`lastPage ${options.lastPage} is before firstPage ${options.firstPage ?? 1}`);
  if (problems.length > 0) throw new RangeError(`rasterizePdf (${field}): ${problems.join('; ')}`);
}

/** The pages to draw, checked against the document: in range, not too many, not too large. */
async function pageRange(
  file: string,
  options: RasterOptions,
  run: PopplerRun,
): Promise<[number, number]> {
  const first = options.firstPage ?? 1;
  const pages = await pageCount(file, run);
  if (!Number.isInteger(pages) || pages < 1) throw refused(run.field, 'poppler found no pages');
  const last = Math.min(options.lastPage ?? pages, pages);
  if (first > last)
    throw refused(run.field, `page ${first} asked for, but the document has ${pages}`);
  const max = options.maxPages ?? MAX_RASTER_PAGES;
  if (last - first + 1 > max)
    throw refused(run.field, `${last - first + 1} pages to draw; at most ${max} are drawn at once`);
  const sizes = await pageSizes(file, first, last, run);
  if (sizes.length !== last - first + 1)
    throw refused(run.field, `pdfinfo gave ${sizes.length} page sizes of ${last - first + 1}`);
  const scale = options.dpi / 72;
  const huge = sizes.find((s) => s.width * scale * (s.height * scale) > MAX_PAGE_PIXELS);
  if (huge)
    throw refused(
      run.field,
      `page ${huge.page} is ${huge.width} x ${huge.height} points: over ${MAX_PAGE_PIXELS} pixels at ${options.dpi} dpi`,
    );
  return [first, last];
}

/** pdftoppm names pages p-1.png or p-01.png (as many digits as the last page number). */
async function readPages(dir: string, expected: number, field: string): Promise<Buffer[]> {
  const files = (await readdir(dir))
    .map((name) => ({ name, page: Number(/^p-(\d+)\.png$/.exec(name)?.[1] ?? NaN) }))
    .filter((f) => Number.isInteger(f.page))
    .sort((a, b) => a.page - b.page);
  if (files.length !== expected)
    throw refused(field, `pdftoppm drew ${files.length} of ${expected} pages`);
  let total = 0;
  for (const f of files) total += (await stat(join(dir, f.name))).size;
  if (total > MAX_RASTER_BYTES)
    throw refused(field, `the page images came to ${total} bytes, over ${MAX_RASTER_BYTES}`);
  return Promise.all(files.map((f) => readFile(join(dir, f.name))));
}

function refused(field: string, message: string): DocpipeError {
  return new DocpipeError('document-production-failed', [
    { field, message: `cannot draw pages: ${message}` },
  ]);
}
