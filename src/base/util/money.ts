/**
 * Money in docpipe is integer øre (1/100 krone) as bigint, never a floating-point number, and
 * rates are integer parts per million (0.15 is 150000). Every product of an amount and a rate is
 * rounded half-up (half an øre goes up) once, at the currency's decimals, as Kill Bill does:
 * amounts here are never negative, so half-up and half-away-from-zero agree.
 */

/** One million: a rate's whole. */
export const PPM = 1_000_000n;

/** `amount × ppm / 1,000,000`, rounded half-up to a whole øre. */
export function applyRate(amount: bigint, ppm: bigint | number): bigint {
  const rate = BigInt(ppm);
  if (amount < 0n || rate < 0n) throw new RangeError('amounts and rates are never negative here');
  const product = amount * rate;
  return (product * 2n + PPM) / (2n * PPM);
}

/**
 * A rate written as a fraction ("0.15", "0.125", "1", "0") as parts per million; undefined for
 * anything else: a negative, more than six decimals, more than 1, a percent sign, an exponent.
 * Read from its digits, never through a float.
 */
export function parseFraction(text: string): number | undefined {
  const m = /^(0|1)(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!m) return undefined;
  const ppm = Number(m[1]) * 1_000_000 + Number((m[2] ?? '').padEnd(6, '0') || '0');
  return ppm <= 1_000_000 ? ppm : undefined;
}

/** Parts per million as the shortest fraction that reads back the same ("0.15", "1", "0"). */
export function formatFraction(ppm: number): string {
  const whole = Math.floor(ppm / 1_000_000);
  const part = String(ppm % 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return part === '' ? String(whole) : `${whole}.${part}`;
}

/** Parts per million as a percentage for people ("15 %", "12.5 %"). */
export function formatPercent(ppm: number): string {
  const whole = Math.floor(ppm / 10_000);
  const part = String(ppm % 10_000)
    .padStart(4, '0')
    .replace(/0+$/, '');
  return part === '' ? `${whole} %` : `${whole}.${part} %`;
}

/**
 * Kroner written with at most two decimals ("2.50", "12", "0.05") as øre; undefined for a
 * negative, a third decimal, thousands separators or anything but digits and one point.
 */
export function parseKroner(text: string): bigint | undefined {
  const m = /^(\d{1,15})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return undefined;
  return BigInt(m[1]!) * 100n + BigInt((m[2] ?? '').padEnd(2, '0') || '0');
}

/** Øre as kroner with two decimals and a point ("1234.50"), as an invoice line and JSON show it. */
export function formatKroner(ore: bigint | string): string {
  const value = BigInt(ore);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}
