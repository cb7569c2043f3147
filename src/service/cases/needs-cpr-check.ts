import { DocpipeError, type FailureDetail } from '../../base/errors/index.js';
import type { RecipientInput } from './case-input.js';

/** What a case's `needsCpr` recipients are held to: what the case and the installation offer. */
export interface NeedsCprContext {
  /** The case's signing schemes (after defaults): a recipient's own `signingSchema` wins. */
  signingSchemas: readonly string[];
  /** The eID schemes whose broker gives the CPR number (service/eid's cprSchemes). */
  cprSchemes: readonly string[];
  /** Each recipient's CPR number, encrypted, by place; none: no recipient was given one. */
  encryptedCprs?: readonly (Buffer | undefined)[];
  /** `signing` of a recipient that says nothing (the policy's). */
  defaultSigning: boolean;
}

/**
 * Refuses (`validation-failed`, every problem at `recipients[i].needsCpr`) a case whose signing
 * `needsCpr` recipient could not be proved to be the person it names: it signs only with an eID
 * whose broker's CPR number is the one stored with it, so it needs that number (v2 case create
 * and form submit take `cpr`; v3 takes none) and a scheme among its methods whose broker gives
 * one. A case that cannot offer that would either never be signed or be signed unchecked.
 */
export function checkNeedsCpr(
  recipients: readonly RecipientInput[] | undefined,
  context: NeedsCprContext,
): void {
  const problems: FailureDetail[] = [];
  const withCpr = new Set(context.cprSchemes);
  for (const [i, r] of (recipients ?? []).entries()) {
    if (r.needsCpr !== true || !(r.signing ?? context.defaultSigning)) continue;
    const field = `recipients[${i}].needsCpr`;
    if (context.encryptedCprs?.[i] === undefined)
      problems.push({
        field,
        message:
          "needs the recipient's CPR number to compare with the one the signer's eID gives, and this case has none: send cpr (v2 case create or form submit; v3 takes no CPR number), or leave needsCpr out",
      });
    const methods = r.signingSchema !== undefined ? [r.signingSchema] : context.signingSchemas;
    if (!methods.some((m) => withCpr.has(m)))
      problems.push({
        field,
        message:
          withCpr.size === 0
            ? `needs an eID scheme whose broker gives the CPR number (DOCPIPE_EID_CPR_CLAIM), and this installation has none; the recipient would sign with ${methods.join(', ')}`
            : `needs one of ${[...withCpr].join(', ')} (an eID whose broker gives the CPR number) among the recipient's signing schemes; it has ${methods.join(', ')}`,
      });
  }
  if (problems.length > 0) throw new DocpipeError('validation-failed', problems);
}
