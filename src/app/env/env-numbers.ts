/** Readers of whole-number settings: each answers the fallback when the variable is unset. */
export interface EnvNumbers {
  /** A positive integer. */
  int: (name: string, fallback: number) => number;
  /** An integer, 0 or more: for limits where 0 means off. */
  count: (name: string, fallback: number) => number;
}

/**
 * Number readers over `env` that write down a bad value in `problems` (and answer the fallback),
 * so that the caller reports every problem at once.
 */
export function envNumbers(env: NodeJS.ProcessEnv, problems: string[]): EnvNumbers {
  const read = (name: string, fallback: number, min: 0 | 1, rule: string): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < min) {
      problems.push(`${name} must be ${rule} (got "${raw}")`);
      return fallback;
    }
    return n;
  };
  return {
    int: (name, fallback) => read(name, fallback, 1, 'a positive integer'),
    count: (name, fallback) => read(name, fallback, 0, 'an integer, 0 or more'),
  };
}
