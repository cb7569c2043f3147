import { BoundedLru } from '../../base/cache/index.js';
import type { DocxPackage } from '../../formats/sniff/index.js';
import type { CompiledTemplate, Delimiters } from './template.js';

export interface TemplateCacheLimits {
  /** Compiled templates kept. */
  maxEntries: number;
  /**
   * Bytes kept over all entries (each template's XML and archive); docxtemplater's parsed form
   * holds a few times its XML on top.
   */
  maxRetainedBytes: number;
}

const DEFAULT_LIMITS: TemplateCacheLimits = { maxEntries: 32, maxRetainedBytes: 32 * 1024 * 1024 };

/**
 * Compiled templates by content, least recently used first out. A library document is filled
 * again and again with other values, and compiling it (lexing and parsing every XML part) is most
 * of what a fill costs (docs/decisions.md, "Caches in each prepare thread"). Keyed by the SHA-256
 * of the template's bytes and its delimiters, so a changed template is a new entry, never a stale
 * one. One per thread.
 */
export class TemplateCache {
  private readonly lru: BoundedLru<CompiledTemplate>;
  hits = 0;
  misses = 0;

  constructor(limits: TemplateCacheLimits = DEFAULT_LIMITS) {
    this.lru = new BoundedLru({ maxEntries: limits.maxEntries, maxBytes: limits.maxRetainedBytes });
  }

  /** The compiled template for `pkg`, compiling (and keeping, when it fits) on a miss. */
  get(pkg: DocxPackage, delimiters: Delimiters, compile: () => CompiledTemplate): CompiledTemplate {
    const key = `${pkg.archive.digest()}\u0000${delimiters.start}\u0000${delimiters.end}`;
    const found = this.lru.get(key);
    if (found?.reusable) {
      this.hits++;
      return found;
    }
    this.misses++;
    const compiled = compile();
    // set() replaces a found entry that can no longer be reused.
    this.lru.set(key, compiled, compiled.retainedBytes);
    return compiled;
  }

  get size(): number {
    return this.lru.size;
  }

  clear(): void {
    this.lru.clear();
  }
}
