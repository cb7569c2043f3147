import { createHash } from 'node:crypto';
import { BoundedLru, type LruLimits } from '../../base/cache/index.js';
import type { DocxPackage } from './docx-package.js';
import type { SniffLimits } from './sniff-limits.js';
import { sniffPackage, type SniffedPackage } from './sniff.js';

const DEFAULT_LIMITS: LruLimits = { maxEntries: 64, maxBytes: 32 * 1024 * 1024 };

/**
 * What keeping a package holds: its archive and every XML part inflated (sniffing inflated and
 * checked them all, and the archive keeps them). A small upload can inflate to the zip limit, so
 * its compressed size says nothing of what it costs to keep.
 */
function retainedBytes(pkg: DocxPackage): number {
  let bytes = pkg.archive.byteLength;
  for (const name of pkg.xmlParts) bytes += pkg.archive.entry(name)?.uncompressedSize ?? 0;
  return bytes;
}

/**
 * Accepted .docx packages by content, so that a library template is sniffed once rather than on
 * every render (what that saves a render: docs/decisions.md, "Caches in each prepare thread").
 * Sniffing is a pure function of the bytes and the limits, both in the key, and the package it
 * yields is read-only.
 * Only accepted .docx packages are kept: they are what fill reuses. One per thread.
 */
export class SniffCache {
  private readonly lru: BoundedLru<SniffedPackage>;
  hits = 0;
  misses = 0;

  constructor(limits: LruLimits = DEFAULT_LIMITS) {
    this.lru = new BoundedLru(limits);
  }

  sniffPackage(bytes: Uint8Array, limits: SniffLimits): SniffedPackage {
    const key = `${createHash('sha256').update(bytes).digest('hex')}\u0000${JSON.stringify(limits)}`;
    const found = this.lru.get(key);
    if (found) {
      this.hits++;
      return found;
    }
    this.misses++;
    const sniffed = sniffPackage(bytes, limits);
    if (sniffed.kind === 'docx') this.lru.set(key, sniffed, retainedBytes(sniffed.pkg));
    return sniffed;
  }

  get size(): number {
    return this.lru.size;
  }

  clear(): void {
    this.lru.clear();
  }
}
