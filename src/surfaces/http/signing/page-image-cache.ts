import { BoundedLru } from '../../../base/cache/index.js';

/**
 * Page images already drawn, by the case document's storage key and page: a case's copy never
 * changes under its key, so an image drawn once serves every signer of the case and every
 * reload, instead of a pdftoppm run each time (a page takes tens of milliseconds of CPU, and a
 * signer scrolling a long document asks for every page). Bounded in entries and bytes; requests
 * for a page being drawn wait for that one drawing.
 */
export class PageImageCache {
  private readonly drawn = new BoundedLru<Buffer>({
    maxEntries: 2_000,
    maxBytes: 64 * 1024 * 1024,
  });
  private readonly drawing = new Map<string, Promise<Buffer | undefined>>();

  async get(key: string, draw: () => Promise<Buffer | undefined>): Promise<Buffer | undefined> {
    const kept = this.drawn.get(key);
    if (kept) return kept;
    let pending = this.drawing.get(key);
    if (!pending) {
      pending = draw().finally(() => this.drawing.delete(key));
      this.drawing.set(key, pending);
    }
    const png = await pending;
    if (png) this.drawn.set(key, png, png.byteLength);
    return png;
  }
}
