import { runPoppler, type PopplerRun } from './poppler.js';

/** A page's size in PDF points (1/72 inch), as pdfinfo reports it. */
export interface PageSize {
  page: number;
  width: number;
  height: number;
}

const PAGES = /^Pages:\s+(\d+)\s*$/m;
const SIZE = /^Page\s+(\d+)\s+size:\s+([\d.]+)\s+x\s+([\d.]+)\s+pts/gm;

/** The page count by pdfinfo; NaN when it names none. */
export async function pageCount(file: string, run: PopplerRun): Promise<number> {
  const info = await runPoppler('pdfinfo', [file], run);
  return Number(PAGES.exec(info)?.[1] ?? NaN);
}

/**
 * The sizes of pages `first` to `last` (both within the document), read by pdfinfo before
 * anything is drawn, so that a page a mile wide is refused rather than drawn.
 */
export async function pageSizes(
  file: string,
  first: number,
  last: number,
  run: PopplerRun,
): Promise<PageSize[]> {
  const info = await runPoppler('pdfinfo', ['-f', String(first), '-l', String(last), file], run);
  return [...info.matchAll(SIZE)].map((m) => ({
    page: Number(m[1]),
    width: Number(m[2]),
    height: Number(m[3]),
  }));
}
