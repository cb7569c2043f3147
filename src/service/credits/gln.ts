/**
 * An EAN location number (GLN, GS1's Global Location Number): the 13 digits by which a Danish
 * public body receives electronic invoices (EAN invoicing, NemHandel). Its last digit checks the
 * first twelve: weighted 1, 3, 1, 3, ... from the left, the sum plus the check digit is a multiple
 * of 10 (GS1's modulo-10), which catches every single wrong digit.
 */
export type GlnProblem = 'format' | 'checksum';

/** The number as typed, without the spaces people copy it with. */
export function normalizeGln(value: string): string {
  return value.replace(/\s+/g, '');
}

export function glnProblem(value: string): GlnProblem | undefined {
  const digits = normalizeGln(value);
  if (!/^\d{13}$/.test(digits)) return 'format';
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(digits[12]) ? undefined : 'checksum';
}
