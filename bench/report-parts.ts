/**
 * The benchmark's parts that report in the schema of bench/report/results.ts themselves (figures,
 * series, notes), as issue 37's report added them: growth in pages and in cases, the soak, the cold
 * start. bench/run.ts runs them in the full run (each skipped by its variable set to 0) and alone
 * (`node dist/bench/run.js <name> [--quick]`, printing what it found as JSON).
 */
import type { Figure, Note, Series } from './report/results.js';
import { casesGrowth } from './cases-growth.js';
import { coldStart } from './cold-start.js';
import { growthPages } from './growth-pages.js';
import { soak } from './soak.js';

export interface PartReport {
  figures: Figure[];
  series: Series[];
  notes: Note[];
}

export interface ReportPart {
  name: string;
  /** `<variable>=0` leaves it out of `npm run bench`. */
  skip: string;
  run: (root: string, quick: boolean) => Promise<PartReport>;
}

export const COLD_START: ReportPart = {
  name: 'cold-start',
  skip: 'BENCH_COLD_START',
  run: coldStart,
};
export const GROWTH_PAGES: ReportPart = {
  name: 'growth-pages',
  skip: 'BENCH_GROWTH_PAGES',
  run: growthPages,
};
export const CASES_GROWTH: ReportPart = {
  name: 'cases-growth',
  skip: 'BENCH_CASES_GROWTH',
  run: casesGrowth,
};
export const SOAK: ReportPart = { name: 'soak', skip: 'BENCH_SOAK', run: soak };

export const REPORT_PARTS: readonly ReportPart[] = [COLD_START, GROWTH_PAGES, CASES_GROWTH, SOAK];
