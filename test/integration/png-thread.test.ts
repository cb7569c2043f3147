import { afterEach, describe, expect, it } from 'vitest';
import { PngThread, PngThreadBusyError, type PngLimits } from '../../src/formats/raster/index.js';
import { ihdr, pngChunk, pngOf, rgbaRows } from '../helpers/png-builder.js';

/** The thread drawn signatures are decoded in: its time budget and its bounded queue. */

const LIMITS: PngLimits = { maxBytes: 1 << 20, maxWidth: 1600, maxHeight: 800, maxPixels: 1280000 };
const drawing = pngOf(ihdr({ width: 1600, height: 800 }), pngChunk('IDAT', rgbaRows(1600, 800)));

let thread: PngThread | undefined;
afterEach(async () => {
  await thread?.close();
  thread = undefined;
});

describe('PngThread', () => {
  it('decodes in its thread what reencodePng decodes', async () => {
    thread = new PngThread();
    const out = await thread.reencode(drawing, LIMITS);
    if ('problem' in out) throw new Error(out.problem);
    expect([out.width, out.height]).toEqual([1600, 800]);
    expect(Buffer.isBuffer(out.png)).toBe(true);
    expect(await thread.reencode(Buffer.from('not a png'), LIMITS)).toEqual({
      problem: 'the image is not a PNG (its bytes do not start as one)',
    });
  });

  it('refuses an image past its budget, and decodes the next one in a new thread', async () => {
    // A thread takes far longer than a millisecond to start: the first image cannot be in time.
    thread = new PngThread({ budgetMs: 1 });
    expect(await thread.reencode(drawing, LIMITS)).toEqual({
      problem: 'the image took longer than 1 ms to decode',
    });
    await thread.close();
    thread = new PngThread();
    expect(await thread.reencode(drawing, LIMITS)).toMatchObject({ width: 1600 });
  });

  it('tells a caller past its queue that it is busy, and decodes the others', async () => {
    thread = new PngThread({ maxQueue: 1 });
    const answers = await Promise.allSettled(
      Array.from({ length: 6 }, () => thread!.reencode(drawing, LIMITS)),
    );
    const busy = answers.filter(
      (a) => a.status === 'rejected' && a.reason instanceof PngThreadBusyError,
    );
    const decoded = answers.filter((a) => a.status === 'fulfilled' && 'png' in a.value);
    expect(busy.length).toBeGreaterThan(0);
    expect(decoded.length).toBeGreaterThan(0);
    expect(busy.length + decoded.length).toBe(6);
  });
});
