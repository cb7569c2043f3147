/**
 * How deep tag values may nest. TagInput lists are two levels (the list, its objects) and a list
 * value's rows add three; anything far deeper is hostile, and walking it recursively (hashing,
 * serializing, validating) would overflow the stack instead of failing with a message.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether a parsed JSON value nests arrays and objects more than `max` levels deep. Iterative, so
 * that a value nested 100,000 levels deep is answered rather than overflowing the stack.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: next, depth } = pending.pop()!;
    if (next === null || typeof next !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(next as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object')
        pending.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}
