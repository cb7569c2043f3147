import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
// In-thread: pdf.js warnings (console.warn) can then be read, and no worker thread is left over.
import 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** What a reader made of a PDF: its pages, or why it did not open it cleanly. */
export type ReaderView = { ok: true; pages: number } | { ok: false; why: string };

/** Longer than poppler needs for any corpus file; a bomb that keeps it busy past this fails. */
const POPPLER_TIMEOUT_MS = 20_000;

/**
 * Messages poppler prints when it repairs or gives up on structure (not content: an unknown
 * operator in a page's content is the document's business, not its structure's).
 */
const POPPLER_REPAIRS =
  /xref|reconstruct|endstream|stream length|trailer|catalog|pages object|page count|Loop in Pages|Invalid page|Couldn't read/i;
/** pdf.js says this when it rebuilds the cross-reference table by scanning the file. */
const PDFJS_REPAIRS = /Indexing all PDF objects|XRef|Invalid "Root"|trailer|endstream/i;

function run(
  command: string,
  args: string[],
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { timeout: POPPLER_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, encoding: 'latin1' },
      (error, out, err) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, out, err });
      },
    );
  });
}

/**
 * Poppler opens a PDF when pdfinfo gives its page count and pdftotext reads every page (one form
 * feed each), both exit 0 within the time limit, and neither says it repaired the structure.
 */
export async function popplerView(pdf: Uint8Array): Promise<ReaderView> {
  const dir = mkdtempSync(join(tmpdir(), 'docpipe-poppler-'));
  try {
    const file = join(dir, 'in.pdf');
    writeFileSync(file, pdf);
    const [info, text] = await Promise.all([
      run('pdfinfo', [file]),
      run('pdftotext', ['-enc', 'UTF-8', file, '-']),
    ]);
    const pages = Number(/^Pages:\s+(\d+)/m.exec(info.out)?.[1] ?? NaN);
    if (info.code !== 0 || !(pages >= 1))
      return { ok: false, why: `pdfinfo exit ${info.code}: ${info.err.slice(0, 200)}` };
    if (text.code !== 0)
      return { ok: false, why: `pdftotext exit ${text.code}: ${text.err.slice(0, 200)}` };
    const feeds = text.out.split('\f').length - 1;
    if (feeds !== pages) return { ok: false, why: `pdftotext read ${feeds} of ${pages} pages` };
    const repair = `${info.err}\n${text.err}`
      .split('\n')
      .find((line) => POPPLER_REPAIRS.test(line));
    if (repair) return { ok: false, why: `poppler repaired: ${repair.slice(0, 200)}` };
    return { ok: true, pages };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const standardFontDataUrl = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/**
 * pdf.js opens a PDF when it loads, gives every page and its text, and does not warn that it
 * rebuilt the structure. Runs in this thread; calls must not overlap (warnings are caught
 * through console.warn).
 */
export async function pdfjsView(pdf: Uint8Array): Promise<ReaderView> {
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
  try {
    const doc = await getDocument({
      data: Uint8Array.from(pdf),
      verbosity: 1,
      standardFontDataUrl,
      isEvalSupported: false,
    }).promise;
    try {
      for (let i = 1; i <= doc.numPages; i++) await (await doc.getPage(i)).getTextContent();
    } finally {
      await doc.destroy();
    }
    const repair = warnings.find((w) => PDFJS_REPAIRS.test(w));
    if (repair) return { ok: false, why: `pdf.js repaired: ${repair.slice(0, 200)}` };
    return { ok: true, pages: doc.numPages };
  } catch (err) {
    return {
      ok: false,
      why: `pdf.js: ${(err as Error).name}: ${(err as Error).message.slice(0, 200)}`,
    };
  } finally {
    console.warn = warn;
  }
}
