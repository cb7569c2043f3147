/** The method that needs no broker: a drawn signature, or the typed name instead. */
export const DRAW = 'draw';

/**
 * The methods a recipient signs with: their own `signingSchema` when given (spec 2.1: it
 * overrides the case's), else the case's `signingSchemas` (already checked and defaulted when
 * the case was made, so every one is served). A `needsCpr` recipient is not offered `draw`
 * beside an eID: a drawn signature proves no CPR number, and signing refuses it. Never empty:
 * `draw` when nothing is stored.
 */
export function signingMethodsOf(
  recipientSchema: unknown,
  caseSchemas: unknown,
  options: { needsCpr?: boolean } = {},
): string[] {
  if (typeof recipientSchema === 'string' && recipientSchema.length > 0) return [recipientSchema];
  const schemes = Array.isArray(caseSchemas)
    ? caseSchemas.filter((s): s is string => typeof s === 'string' && s.length > 0)
    : [];
  const methods = schemes.length > 0 ? [...new Set(schemes)] : [DRAW];
  const eids = methods.filter(isEidScheme);
  return options.needsCpr && eids.length > 0 ? eids : methods;
}

/** An eID scheme goes through a broker; `draw` does not. */
export function isEidScheme(method: string): boolean {
  return method !== DRAW;
}
