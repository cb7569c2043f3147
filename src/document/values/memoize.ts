/**
 * Caches a pure function of one string. Formats repeat across documents and requests, and
 * compiling one costs more than looking it up. Bounded, so that a stream of distinct formats
 * from callers cannot grow it without end.
 */
export function memoizeByString<T>(fn: (key: string) => T, maxEntries = 1000): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => {
    if (cache.has(key)) return cache.get(key)!;
    const value = fn(key);
    if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
    cache.set(key, value);
    return value;
  };
}
