import { describe, expect, it } from 'vitest';
import { BoundedLru } from '../../src/base/cache/index.js';
import { DEFAULT_SNIFF_LIMITS, SniffCache, sniffPackage } from '../../src/formats/sniff/index.js';
import { buildDocx, para } from '../helpers/docx-builder.js';

describe('bounded LRU', () => {
  it('drops the least recently used entry past its entry limit', () => {
    const lru = new BoundedLru<string>({ maxEntries: 2, maxBytes: 1000 });
    lru.set('a', 'A', 1);
    lru.set('b', 'B', 1);
    expect(lru.get('a')).toBe('A'); // a is now the most recent; b goes first
    lru.set('c', 'C', 1);
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual(['A', undefined, 'C']);
    expect(lru.size).toBe(2);
  });

  it('keeps its bytes within budget and refuses an entry over a quarter of it', () => {
    const lru = new BoundedLru<string>({ maxEntries: 10, maxBytes: 100 });
    expect(lru.set('big', 'x', 26)).toBe(false);
    expect(lru.size).toBe(0);
    for (const key of ['a', 'b', 'c', 'd', 'e']) lru.set(key, key, 25);
    expect(lru.retainedBytes).toBe(100);
    expect(lru.get('a')).toBeUndefined();
    lru.set('b', 'b again', 10); // replacing an entry counts only its new size
    expect(lru.retainedBytes).toBe(85);
    lru.delete('c');
    lru.delete('nothing');
    expect(lru.retainedBytes).toBe(60);
    lru.clear();
    expect([lru.size, lru.retainedBytes]).toEqual([0, 0]);
  });
});

describe('sniff cache', () => {
  const docx = buildDocx({ body: para('Tenant: {name}') });

  it('sniffs the same bytes once and gives the same verdict as sniffing afresh', () => {
    const cache = new SniffCache();
    const first = cache.sniffPackage(docx, DEFAULT_SNIFF_LIMITS);
    const second = cache.sniffPackage(Buffer.from(docx), DEFAULT_SNIFF_LIMITS);
    expect(second).toBe(first);
    expect([cache.hits, cache.misses]).toEqual([1, 1]);
    const fresh = sniffPackage(docx, DEFAULT_SNIFF_LIMITS);
    expect(first.kind).toBe('docx');
    expect(fresh.kind === 'docx' && first.kind === 'docx' && first.pkg.xmlParts).toEqual(
      fresh.kind === 'docx' && fresh.pkg.xmlParts,
    );
  });

  it('sniffs again under other limits, which can change the verdict', () => {
    const cache = new SniffCache();
    expect(cache.sniffPackage(docx, DEFAULT_SNIFF_LIMITS).kind).toBe('docx');
    const tight = { ...DEFAULT_SNIFF_LIMITS, maxInputBytes: 100 };
    expect(cache.sniffPackage(docx, tight)).toMatchObject({
      kind: 'unsupported',
      reason: 'too-large',
    });
    expect(cache.misses).toBe(2);
  });

  it('counts what a package inflates to, not its compressed size', () => {
    // 3 MB of letters deflate to under 2 MB: within a quarter of an 8 MiB budget compressed,
    // over it inflated, which is what keeping the package holds.
    let seed = 7;
    const letters = Array.from({ length: 3_000_000 }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return String.fromCharCode(97 + (seed % 26));
    }).join('');
    const bulky = buildDocx({ body: para(letters) });
    expect(bulky.length).toBeLessThan(2 * 1024 * 1024);
    const cache = new SniffCache({ maxEntries: 64, maxBytes: 8 * 1024 * 1024 });
    expect(cache.sniffPackage(bulky, DEFAULT_SNIFF_LIMITS).kind).toBe('docx');
    expect(cache.size).toBe(0);
    cache.sniffPackage(docx, DEFAULT_SNIFF_LIMITS);
    expect(cache.size).toBe(1);
  });

  it('keeps only accepted .docx packages, and only within its budget', () => {
    const cache = new SniffCache({ maxEntries: 4, maxBytes: 4 * 1024 * 1024 });
    cache.sniffPackage(Buffer.from('not a document at all'), DEFAULT_SNIFF_LIMITS);
    expect(cache.size).toBe(0);
    const others = ['A', 'B', 'C', 'D', 'E'].map((l) => buildDocx({ body: para(l) }));
    for (const d of others) cache.sniffPackage(d, DEFAULT_SNIFF_LIMITS);
    // Five fit the byte budget, four the entry budget: the least recently used one goes.
    expect(cache.size).toBe(4);
    const { hits, misses } = cache;
    cache.sniffPackage(others[4]!, DEFAULT_SNIFF_LIMITS);
    expect([cache.hits, cache.misses]).toEqual([hits + 1, misses]);
    cache.sniffPackage(others[0]!, DEFAULT_SNIFF_LIMITS);
    expect([cache.hits, cache.misses]).toEqual([hits + 1, misses + 1]);
  });
});
