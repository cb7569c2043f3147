import { MAX_RETRY_DELAY_MS } from './webhook-settings.js';

/**
 * The wait after the `attempt`th failed attempt (1 after the first): `baseMs` doubled per
 * attempt, capped at `capMs`, with equal jitter: half of it fixed, half random (`random` in
 * [0, 1)). The fixed half keeps a retry from coming at once; the random half spreads the
 * retries of many deliveries that failed together (a receiver that was down) over time.
 */
export function retryDelay(
  attempt: number,
  baseMs: number,
  random: number,
  capMs: number = MAX_RETRY_DELAY_MS,
): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 40));
  const full = Math.min(capMs, baseMs * 2 ** exponent);
  const r = Math.min(Math.max(random, 0), 1);
  return Math.round(full / 2 + (r * full) / 2);
}
