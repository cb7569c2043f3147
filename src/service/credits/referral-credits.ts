import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { addCreditLine } from './credit-ledger.js';

/** Spec 4.6 and 8: the referral perk, "25 free credits per signup through a referral link". */
export const REFERRAL_CREDITS = 25n;

/**
 * Gives the referring company its free credits for the company that signed up through its link,
 * partner or not, in the sign-up's transaction: keyed by the new company, so exactly once per
 * new company.
 */
export async function creditReferral(
  tx: Kysely<Database>,
  referrer: string,
  newCompany: string,
): Promise<void> {
  await addCreditLine(tx, {
    company: referrer,
    kind: 'referral',
    freeCredits: REFERRAL_CREDITS,
    key: `referral:${newCompany}`,
    referredCompany: newCompany,
    note: `${newCompany} signed up through the referral link`,
    by: 'signup',
  });
}
