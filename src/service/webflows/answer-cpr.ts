/**
 * A CPR number as a web-flow's page takes it (issue 36): ten digits, or six, a dash and four
 * (`010190-1234`), whose first six are a date that exists (DDMMYY). Not the modulus-11 rule:
 * numbers issued since 2007 may fail it. Kept as its ten digits; the problem never repeats the
 * value, which is personal.
 */
const CPR = /^(\d{2})(\d{2})(\d{2})-?(\d{4})$/;
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function cprAnswerOf(value: string): { cpr: string } | { problem: string } {
  const m = CPR.exec(value.trim().replace(/\s+/g, ''));
  if (!m) return { problem: 'must be 10 digits (DDMMYYXXXX or DDMMYY-XXXX)' };
  const [, dd, mm, yy, rest] = m as unknown as [string, string, string, string, string];
  const day = Number(dd);
  const month = Number(mm);
  // The century is in the seventh digit's rules, not here: 29 February is a date in any year
  // YY that is a leap year in one of the centuries a CPR number can mean (every fourth).
  const last = month === 2 ? (Number(yy) % 4 === 0 ? 29 : 28) : DAYS[month - 1];
  if (month < 1 || month > 12 || day < 1 || last === undefined || day > last)
    return { problem: 'its first six digits must be a date that exists (DDMMYY)' };
  return { cpr: `${dd}${mm}${yy}${rest}` };
}
