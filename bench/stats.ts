export interface Stats {
  n: number;
  p50: number;
  p95: number;
  mean: number;
  /** The fastest and slowest round, where the rounds were kept. */
  min?: number;
  max?: number;
}

/** Runs `fn` for a warm-up, then `n` timed rounds; times in milliseconds. */
export async function measure(
  n: number,
  fn: () => unknown,
  warmup = Math.min(50, n),
): Promise<Stats> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return {
    n,
    p50: at(0.5),
    p95: at(0.95),
    mean: times.reduce((a, b) => a + b, 0) / n,
    min: times[0]!,
    max: times.at(-1)!,
  };
}
