import { describe, expect, it } from 'vitest';
import { StatementBatcher } from '../../src/service/webhooks/index.js';

/** A run that records each call's items, and fails a call that holds `bad`. */
function recording(bad?: number) {
  const calls: number[][] = [];
  const run = async (items: readonly number[]) => {
    calls.push([...items]);
    await new Promise((r) => setTimeout(r, 5));
    if (bad !== undefined && items.includes(bad)) throw new Error(`bad item ${bad}`);
    return items.map((i) => i * 10);
  };
  return { calls, run };
}

describe('StatementBatcher', () => {
  it('runs the calls of one turn as one batch, each answered its own output', async () => {
    const { calls, run } = recording();
    const b = new StatementBatcher(run, 50);
    const out = await Promise.all([1, 2, 3, 4].map((i) => b.add(i)));
    expect(out).toEqual([10, 20, 30, 40]);
    expect(calls).toEqual([[1, 2, 3, 4]]);
  });

  it('never puts more than max in a batch, and gathers the calls made while one is on its way', async () => {
    const { calls, run } = recording();
    const b = new StatementBatcher(run, 3, 1);
    const first = Promise.all([1, 2, 3, 4, 5].map((i) => b.add(i)));
    await new Promise((r) => setImmediate(r));
    const later = Promise.all([6, 7].map((i) => b.add(i)));
    expect(await first).toEqual([10, 20, 30, 40, 50]);
    expect(await later).toEqual([60, 70]);
    expect(calls.every((c) => c.length <= 3)).toBe(true);
    expect(calls.flat().sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // One lane: 4 and 5 waited for the first batch and went with 6 and 7 (up to 3).
    expect(calls.length).toBe(3);
  });

  it('with max 1 runs each call alone, at once', async () => {
    const { calls, run } = recording();
    const b = new StatementBatcher(run, 1);
    expect(await Promise.all([1, 2, 3].map((i) => b.add(i)))).toEqual([10, 20, 30]);
    expect(calls).toEqual([[1], [2], [3]]);
  });

  it('fails only the bad item of a failed batch: the others are run again alone and answered', async () => {
    const { calls, run } = recording(3);
    const b = new StatementBatcher(run, 50);
    const settled = await Promise.allSettled([1, 2, 3, 4].map((i) => b.add(i)));
    expect(settled.map((s) => s.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))).toEqual([
      10, 20, 40,
    ]);
    expect((settled[2] as PromiseRejectedResult).reason).toEqual(new Error('bad item 3'));
    // The batch, then each alone: every good item answered once.
    expect(calls[0]).toEqual([1, 2, 3, 4]);
    expect(calls.slice(1).sort((x, y) => x[0]! - y[0]!)).toEqual([[1], [2], [3], [4]]);
  });

  it('refuses a run that answers a different count, per item', async () => {
    const b = new StatementBatcher<number, number>((items) => Promise.resolve(items.slice(1)), 10);
    const settled = await Promise.allSettled([1, 2].map((i) => b.add(i)));
    expect(settled.every((s) => s.status === 'rejected')).toBe(true);
  });
});
