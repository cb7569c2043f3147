import { describe, expect, it } from 'vitest';
import {
  flatness,
  overheadLine,
  perPage,
  roundsThatFit,
  type SizeTimes,
} from '../../bench/growth-figures.js';

/** A size whose every side takes `msPerPage` per page, docpipe `extra` ms more per document. */
const size = (asked: number, pages: number, msPerPage: number, extra = 0): SizeTimes => ({
  asked,
  pages,
  docpipeMs: pages * msPerPage + extra,
  rawMs: pages * msPerPage,
  docpipeCpuMs: pages * msPerPage + extra,
  rawCpuMs: pages * msPerPage,
});

describe('the growth benchmark figures', () => {
  it('a per-page time that does not change is perfectly flat, whatever the 1-page size did', () => {
    const sizes = [size(1, 1, 500), size(10, 11, 40), size(30, 30, 40), size(300, 299, 40)];
    expect(flatness(sizes, 'docpipeMs')).toEqual({ value: 1, upTo: 299 });
  });

  it('flatness is the slowest over the fastest time per page from 10 pages on', () => {
    const sizes = [size(10, 10, 40), size(100, 100, 30), size(300, 300, 45)];
    expect(flatness(sizes, 'rawMs')!.value).toBeCloseTo(1.5);
  });

  it('a constant overhead per document flattens out: a per-page one does not', () => {
    const constant = [10, 30, 100, 300].map((p) => size(p, p, 40, 200));
    // 60 ms a page at 10 pages against 40.67 at 300: a fixed cost shows at the small end only.
    expect(flatness(constant, 'docpipeMs')!.value).toBeCloseTo(60 / (12200 / 300), 5);
    const perPageCost = [10, 30, 100, 300].map((p) => size(p, p, 40, p * 5));
    expect(flatness(perPageCost, 'docpipeMs')!.value).toBeCloseTo(1);
  });

  it('has no flatness with fewer than two sizes of 10 pages or more, or a time missing', () => {
    expect(flatness([size(1, 1, 40), size(10, 10, 40)], 'docpipeMs')).toBeUndefined();
    expect(flatness([size(10, 10, 40), size(30, 30, 0)], 'docpipeMs')).toBeUndefined();
  });

  it('time per page is each size at its real page count', () => {
    expect(perPage([size(10, 11, 40, 11)], 'docpipeMs')).toEqual([[11, 41]]);
  });

  it('cuts the rounds to the budget, never below one, never above those asked', () => {
    expect(roundsThatFit(6, 10, 50, 15_000)).toBe(6);
    expect(roundsThatFit(6, 100, 50, 15_000)).toBe(3);
    expect(roundsThatFit(3, 300, 250, 15_000)).toBe(1);
    expect(roundsThatFit(4, 10, 0, 2_500)).toBe(4);
  });
});

describe("docpipe's overhead against the pages", () => {
  it('is all per document when it does not grow with the pages', () => {
    const line = overheadLine(
      [10, 30, 100, 300].map((p) => size(p, p, 40, 200)),
      'docpipeMs',
      'rawMs',
    )!;
    expect(line.perDocument).toBeCloseTo(200);
    expect(line.perPage).toBeCloseTo(0);
  });

  it('separates a cost per page from a cost per document', () => {
    const sizes = [1, 10, 100, 300].map((p) => size(p, p, 30, 50 + 2 * p));
    const line = overheadLine(sizes, 'docpipeCpuMs', 'rawCpuMs')!;
    expect(line.perDocument).toBeCloseTo(50);
    expect(line.perPage).toBeCloseTo(2);
  });

  it('has no line through a single page count', () => {
    expect(overheadLine([size(10, 10, 40, 5)], 'docpipeMs', 'rawMs')).toBeUndefined();
  });
});
