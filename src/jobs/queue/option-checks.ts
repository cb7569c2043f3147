/**
 * Checks shared by the client's and the worker's options. Each returns the problem in words, or
 * nothing, so that a caller can gather every problem before it refuses the options.
 */

/** The longest delay setTimeout keeps; a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

export function positiveInteger(name: string, value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return undefined;
  return `${name} must be a positive integer (got ${String(value)})`;
}

export function nonNegativeInteger(name: string, value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return undefined;
  return `${name} must be an integer, 0 or more (got ${String(value)})`;
}

/** A duration handed to setTimeout. */
export function positiveDuration(name: string, value: unknown): string | undefined {
  if (typeof value === 'number' && value > 0 && value <= MAX_TIMER_MS) return undefined;
  return `${name} must be greater than 0 and at most ${MAX_TIMER_MS} ms (got ${String(value)})`;
}

/** Throws one error naming every problem, as the office pool's options do. */
export function refuseProblems(what: string, problems: (string | undefined)[]): void {
  const found = problems.filter((p): p is string => p !== undefined);
  if (found.length > 0) throw new Error(`invalid ${what}: ${found.join('; ')}`);
}

/** The options a caller set: an option given as `undefined` takes its default, not `undefined`. */
export function givenOptions<T extends object>(options: T): T {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as T;
}

/** Where a client or worker connects: a Redis URL and the prefix of its queues. */
export function connectionProblems(o: {
  redisUrl?: unknown;
  prefix?: unknown;
}): (string | undefined)[] {
  return [
    typeof o.redisUrl === 'string' && o.redisUrl !== ''
      ? undefined
      : 'redisUrl must be a redis:// or rediss:// URL',
    typeof o.prefix === 'string' && o.prefix !== ''
      ? undefined
      : 'prefix must be a non-empty string',
  ];
}
