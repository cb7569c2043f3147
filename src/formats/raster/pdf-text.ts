import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPoppler } from './poppler.js';

export interface PdfTextOptions {
  /** Keep the page's layout (columns, indents) rather than reading order. @defaultValue true */
  layout?: boolean;
  /** Path of the document in the request, named by a failure. @defaultValue 'document' */
  field?: string;
  /** Kills pdftotext past this time. @defaultValue PDF_TEXT_TIMEOUT_MS */
  timeoutMs?: number;
}

/** Reading a 30-page contract takes about 50 ms; a thousand times that is a stuck poppler. */
export const PDF_TEXT_TIMEOUT_MS = 60_000;
/** About 8,000 pages of dense text: more is not a document an author reads through. */
export const MAX_PDF_TEXT_BYTES = 32 * 1024 * 1024;

/**
 * The text of a PDF as poppler's pdftotext reads it (UTF-8, pages separated by form feeds), in a
 * private temporary folder removed afterwards. Bounded in time and size; a missing pdftotext is a
 * PopplerMissingError.
 */
export async function pdfText(pdf: Uint8Array, options: PdfTextOptions = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docpipe-text-'));
  try {
    const file = join(dir, 'in.pdf');
    await writeFile(file, pdf, { mode: 0o600 });
    const args = ['-enc', 'UTF-8', ...(options.layout === false ? [] : ['-layout']), file, '-'];
    return await runPoppler('pdftotext', args, {
      timeoutMs: options.timeoutMs ?? PDF_TEXT_TIMEOUT_MS,
      maxOutputBytes: MAX_PDF_TEXT_BYTES,
      field: options.field ?? 'document',
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
