export interface LruLimits {
  /** Entries kept. */
  maxEntries: number;
  /** Bytes kept over all entries, as each entry's size was given. */
  maxBytes: number;
}

/**
 * A least-recently-used map bounded by entries and by bytes. An entry larger than a quarter of
 * the byte budget is not kept at all, so one huge value cannot flush everything else.
 */
export class BoundedLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private bytes = 0;

  constructor(private readonly limits: LruLimits) {}

  get(key: string): V | undefined {
    const found = this.entries.get(key);
    if (!found) return undefined;
    // Map order is insertion order: move to the back, the most recently used end.
    this.entries.delete(key);
    this.entries.set(key, found);
    return found.value;
  }

  /** Keeps `value` unless it is too large; returns whether it was kept. */
  set(key: string, value: V, bytes: number): boolean {
    this.delete(key);
    if (bytes > this.limits.maxBytes / 4) return false;
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
    return true;
  }

  delete(key: string): void {
    const found = this.entries.get(key);
    if (!found) return;
    this.entries.delete(key);
    this.bytes -= found.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  get retainedBytes(): number {
    return this.bytes;
  }
}
