import type { FailureDetail } from '../../base/errors/index.js';
import { normalizeCpr } from './cpr-number.js';

export interface RecipientCprs {
  /** Each recipient's CPR number in its normal form, by place; undefined where none was given. */
  cprs: (string | undefined)[];
  /** Every problem, at `recipients[i].cpr`. */
  problems: FailureDetail[];
}

/**
 * The CPR numbers of a v2 body's recipients (spec 2.1), checked where they are given: a number
 * only with `needsCpr: true` (a CPR number is kept only where signing needs it), in its form
 * (10 digits, or 6, a dash and 4). Form submit also requires one wherever `needsCpr` is true
 * (spec 4.1); case create does not (the signer's eID gives it then). Recipients that are not
 * objects are left to the body's schema.
 */
export function recipientCprs(
  recipients: unknown,
  options: { requiredWithNeedsCpr: boolean },
): RecipientCprs {
  const cprs: (string | undefined)[] = [];
  const problems: FailureDetail[] = [];
  if (!Array.isArray(recipients)) return { cprs, problems };
  for (const [i, r] of (recipients as unknown[]).entries()) {
    cprs.push(undefined);
    if (typeof r !== 'object' || r === null) continue;
    const { needsCpr, cpr } = r as { needsCpr?: unknown; cpr?: unknown };
    const field = `recipients[${i}].cpr`;
    if (cpr === undefined) {
      if (needsCpr === true && options.requiredWithNeedsCpr)
        problems.push({ field, message: 'is required when needsCpr is true' });
    } else if (needsCpr !== true)
      problems.push({
        field,
        message:
          'is only taken with needsCpr: true (a CPR number is kept only where signing needs it)',
      });
    else {
      const normal = normalizeCpr(cpr);
      if ('problem' in normal) problems.push({ field, message: normal.problem });
      else cprs[i] = normal.cpr;
    }
  }
  return { cprs, problems };
}
