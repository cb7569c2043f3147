/**
 * The glyphs of a page in content order, column by column in typed arrays: a page of text has
 * thousands, and an object per glyph cost more in allocation and collection than placing them.
 * Glyph i has its text, its box (x0, y0)-(x1, y1) in user space (the advance by ascent to
 * descent, transformed, axis-aligned), its origin (ox, oy) and the end of its advance (ex, ey) on
 * the baseline, its font size in user space, and the index of the page's text-showing operator
 * that drew it (-1 inside a form).
 */
export class GlyphList {
  length = 0;
  readonly text: string[] = [];
  x0: Float64Array;
  y0: Float64Array;
  x1: Float64Array;
  y1: Float64Array;
  ox: Float64Array;
  oy: Float64Array;
  ex: Float64Array;
  ey: Float64Array;
  size: Float64Array;
  op: Int32Array;

  /** `capacity`: a guess of the glyph count, so that the arrays seldom grow. */
  constructor(capacity = 256) {
    const n = Math.max(16, capacity);
    // One buffer for the nine float columns: one allocation (and one for the GC to track).
    const f = new Float64Array(n * FLOAT_COLUMNS);
    this.x0 = f.subarray(0, n);
    this.y0 = f.subarray(n, 2 * n);
    this.x1 = f.subarray(2 * n, 3 * n);
    this.y1 = f.subarray(3 * n, 4 * n);
    this.ox = f.subarray(4 * n, 5 * n);
    this.oy = f.subarray(5 * n, 6 * n);
    this.ex = f.subarray(6 * n, 7 * n);
    this.ey = f.subarray(7 * n, 8 * n);
    this.size = f.subarray(8 * n, 9 * n);
    this.op = new Int32Array(n);
  }

  /** Makes room for `count` more glyphs (their text and columns are the caller's to fill). */
  reserve(count: number): void {
    if (this.length + count > this.op.length) this.grow(this.length + count);
  }

  private grow(least: number): void {
    const n = Math.max(least, this.op.length * 2);
    const f = new Float64Array(n * FLOAT_COLUMNS);
    const column = (k: number, a: Float64Array) => {
      const b = f.subarray(k * n, (k + 1) * n);
      b.set(a);
      return b;
    };
    this.x0 = column(0, this.x0);
    this.y0 = column(1, this.y0);
    this.x1 = column(2, this.x1);
    this.y1 = column(3, this.y1);
    this.ox = column(4, this.ox);
    this.oy = column(5, this.oy);
    this.ex = column(6, this.ex);
    this.ey = column(7, this.ey);
    this.size = column(8, this.size);
    const op = new Int32Array(n);
    op.set(this.op);
    this.op = op;
  }
}

/** x0, y0, x1, y1, ox, oy, ex, ey, size. */
const FLOAT_COLUMNS = 9;
