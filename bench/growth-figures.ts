/**
 * The growth benchmark's arithmetic (issue 37): time per page at each size, and how flat it is.
 * Kept apart from the measuring so that it can be tested without an office.
 */

/** One size's medians: ms per document (wall or CPU) on each side, and its pages. */
export interface SizeTimes {
  /** The pages asked of the generator. */
  asked: number;
  /** The pages the converted PDF has. */
  pages: number;
  docpipeMs: number;
  rawMs: number;
  docpipeCpuMs: number;
  rawCpuMs: number;
}

export type TimeField = 'docpipeMs' | 'rawMs' | 'docpipeCpuMs' | 'rawCpuMs';

/** [pages, ms per page] at each size, in the order measured. */
export function perPage(sizes: SizeTimes[], field: TimeField): [number, number][] {
  return sizes.map((s) => [s.pages, s[field] / s.pages]);
}

/** From this many pages on, a document's time per page should no longer fall (issue 37). */
export const FLAT_FROM_PAGES = 10;

/**
 * The largest over the smallest ms per page among the sizes of at least FLAT_FROM_PAGES asked
 * pages (1.0: perfectly flat), and the largest size it covers; undefined with fewer than two
 * such sizes or a size without a positive time.
 */
export function flatness(
  sizes: SizeTimes[],
  field: TimeField,
): { value: number; upTo: number } | undefined {
  const counted = sizes.filter((s) => s.asked >= FLAT_FROM_PAGES);
  if (counted.length < 2) return undefined;
  const per = counted.map((s) => s[field] / s.pages);
  if (!per.every((x) => Number.isFinite(x) && x > 0)) return undefined;
  return {
    value: Math.max(...per) / Math.min(...per),
    upTo: Math.max(...counted.map((s) => s.pages)),
  };
}

/**
 * The rounds of a size that fit in `budgetMs` at `msPerPage` (the last size's), at most those
 * asked and never below one; all of them while no time per page is known yet.
 */
export function roundsThatFit(
  asked: number,
  pages: number,
  msPerPage: number,
  budgetMs: number,
): number {
  if (!(msPerPage > 0)) return asked;
  return Math.max(1, Math.min(asked, Math.floor(budgetMs / (msPerPage * pages))));
}

/**
 * docpipe's overhead over the raw loop per document (`docpipeField - rawField`) as a line in the
 * pages, by least squares: `perDocument` ms whatever the size and `perPage` ms for each page. A
 * constant overhead has a `perPage` near 0. Undefined with fewer than two page counts.
 */
export function overheadLine(
  sizes: SizeTimes[],
  docpipeField: TimeField,
  rawField: TimeField,
): { perDocument: number; perPage: number } | undefined {
  const xs = sizes.map((s) => s.pages);
  const ys = sizes.map((s) => s[docpipeField] - s[rawField]);
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  if (n < 2 || sxx === 0) return undefined;
  const perPage = xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0) / sxx;
  return { perDocument: my - perPage * mx, perPage };
}
