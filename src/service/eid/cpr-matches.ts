import { timingSafeEqual } from 'node:crypto';
import { normalizeCpr } from '../cpr/index.js';

/**
 * Whether the CPR number a recipient was given (`needsCpr`) is the one the eID broker vouched for.
 * Both are normalized first (`010190-1234` is `0101901234`); a value that is no CPR number matches
 * nothing. The comparison takes the same time wherever the digits differ, so that the answer's
 * timing tells nothing about the stored number.
 */
export function cprMatches(given: string, claimed: string): boolean {
  const a = normalizeCpr(given);
  const b = normalizeCpr(claimed);
  if (!('cpr' in a) || !('cpr' in b)) return false;
  // Both are ten ASCII digits by now: equal lengths, as timingSafeEqual needs.
  return timingSafeEqual(Buffer.from(a.cpr, 'ascii'), Buffer.from(b.cpr, 'ascii'));
}
