import { describe, expect, it } from 'vitest';
import { PageImageCache } from '../../src/surfaces/http/signing/page-image-cache.js';

describe('the signing page image cache', () => {
  it('draws a page once for requests at the same time and after', async () => {
    const cache = new PageImageCache();
    let draws = 0;
    let finish: (png: Buffer) => void = () => undefined;
    const draw = () => {
      draws += 1;
      return new Promise<Buffer | undefined>((resolve) => (finish = resolve));
    };
    const first = cache.get('cases/a/0.pdf#1', draw);
    const second = cache.get('cases/a/0.pdf#1', draw);
    finish(Buffer.from('png of page 1'));
    expect((await first)?.toString()).toBe('png of page 1');
    expect((await second)?.toString()).toBe('png of page 1');
    expect((await cache.get('cases/a/0.pdf#1', draw))?.toString()).toBe('png of page 1');
    expect(draws).toBe(1);
  });

  it('keeps pages apart, and does not keep a page that could not be drawn', async () => {
    const cache = new PageImageCache();
    let draws = 0;
    const none = () => {
      draws += 1;
      return Promise.resolve(undefined);
    };
    expect(await cache.get('cases/a/0.pdf#2', none)).toBeUndefined();
    expect(await cache.get('cases/a/0.pdf#2', none)).toBeUndefined();
    expect(draws).toBe(2);
    const other = await cache.get('cases/a/0.pdf#3', () => Promise.resolve(Buffer.from('3')));
    expect(other?.toString()).toBe('3');
  });
});
