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
    this.x0 = new Float64Array(n);
    this.y0 = new Float64Array(n);
    this.x1 = new Float64Array(n);
    this.y1 = new Float64Array(n);
    this.ox = new Float64Array(n);
    this.oy = new Float64Array(n);
    this.ex = new Float64Array(n);
    this.ey = new Float64Array(n);
    this.size = new Float64Array(n);
    this.op = new Int32Array(n);
  }

  /** Makes room for `count` more glyphs (their text and columns are the caller's to fill). */
  reserve(count: number): void {
    if (this.length + count > this.op.length) this.grow(this.length + count);
  }

  private grow(least: number): void {
    const n = Math.max(least, this.op.length * 2);
    const f = (a: Float64Array) => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    this.x0 = f(this.x0);
    this.y0 = f(this.y0);
    this.x1 = f(this.x1);
    this.y1 = f(this.y1);
    this.ox = f(this.ox);
    this.oy = f(this.oy);
    this.ex = f(this.ex);
    this.ey = f(this.ey);
    this.size = f(this.size);
    const op = new Int32Array(n);
    op.set(this.op);
    this.op = op;
  }
}
