const UNIT_MS: Record<string, number> = {
  d: 24 * 60 * 60 * 1000,
  h: 60 * 60 * 1000,
  m: 60 * 1000,
  s: 1000,
};

/** Ten years: a longer lifetime is a typo (or wants a key that never expires: leave it out). */
const LONGEST_MS = 3653 * UNIT_MS.d!;

export interface DurationOptions {
  /**
   * Whether seconds (`30s`) are a unit: for timeouts, not for lifetimes, where a key or a
   * retention of seconds is a typo. @defaultValue false
   */
  seconds?: boolean;
}

/**
 * A lifetime as a person writes it (`90d`, `12h`, `30m`; `30s` with `seconds`) in milliseconds.
 * Throws an Error whose message says what is accepted; the caller names the flag.
 */
export function parseDuration(text: string, options: DurationOptions = {}): number {
  const m = (options.seconds ? /^(\d{1,7})([dhms])$/ : /^(\d{1,7})([dhm])$/).exec(text.trim());
  if (!m)
    throw new Error(
      options.seconds
        ? `"${text}" is not a duration: give a whole number and a unit, s (seconds), m (minutes), h (hours) or d (days), such as 30s`
        : `"${text}" is not a duration: give a whole number and a unit, d (days), h (hours) or m (minutes), such as 90d`,
    );
  const ms = Number(m[1]) * UNIT_MS[m[2]!]!;
  if (ms === 0) throw new Error(`"${text}" is no time at all: give at least 1${m[2]}`);
  if (ms > LONGEST_MS)
    throw new Error(
      `"${text}" is more than ten years; for a key that never expires, leave the lifetime out`,
    );
  return ms;
}
