/**
 * A Danish CPR number as a recipient gives it on form submit: ten digits, or six, a dash and
 * four (`010190-1234`). Kept as its ten digits. Only its form is checked: modulus 11 was given
 * up in 2007, and a birth date it does not hold is what a CPR number may well carry.
 */
const CPR = /^(\d{6})-?(\d{4})$/;

/** The ten digits of `value`, or the problem with it (never the value itself: it is personal). */
export function normalizeCpr(value: unknown): { cpr: string } | { problem: string } {
  if (typeof value !== 'string')
    return { problem: 'must be a string of 10 digits (DDMMYYXXXX or DDMMYY-XXXX)' };
  const m = CPR.exec(value.trim());
  if (!m) return { problem: 'must be 10 digits (DDMMYYXXXX or DDMMYY-XXXX)' };
  return { cpr: `${m[1]}${m[2]}` };
}
