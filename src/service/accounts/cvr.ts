/**
 * The CVR number (Det Centrale Virksomhedsregister's company number): 8 digits, the first not 0,
 * whose digits weighted 2, 7, 6, 5, 4, 3, 2, 1 sum to a multiple of 11 (the register's own
 * modulus-11 check, which catches every single wrong digit and every swap of two neighbours).
 */
const WEIGHTS = [2, 7, 6, 5, 4, 3, 2, 1] as const;

/** Why a CVR number is refused: not 8 digits, or the check does not add up. */
export type CvrProblem = 'format' | 'checksum';

/** The number as typed, without the spaces and a `DK` prefix people copy from invoices. */
export function normalizeCvr(value: string): string {
  return value.replace(/\s+/g, '').replace(/^DK/i, '');
}

export function cvrProblem(value: string): CvrProblem | undefined {
  const digits = normalizeCvr(value);
  if (!/^[1-9]\d{7}$/.test(digits)) return 'format';
  const sum = WEIGHTS.reduce((total, weight, i) => total + weight * Number(digits[i]), 0);
  return sum % 11 === 0 ? undefined : 'checksum';
}
