/**
 * The partner program (issue 35, spec 2.5, 4.5, 4.6, 5.6, 6): the operator's partner
 * configuration, the company a referral link names, what partners are owed and were paid out,
 * and the partner webhook that hands a new customer's key to its partner. docs/partners.md.
 */
export {
  PARTNER_CODE,
  PartnerRepository,
  type PartnerChanges,
  type PartnerConfig,
} from './partner-config.js';
export { MAX_REF_CHARS, findReferrer, partnerLogo, type Referrer } from './referrer.js';
export {
  PayoutTooLargeError,
  partnerAccount,
  recordKickback,
  recordPayout,
  type Kickback,
  type NewKickback,
  type PartnerAccount,
  type Payout,
} from './kickbacks.js';
export {
  PARTNER_KEY_NAME,
  PARTNER_WEBHOOK_TIMEOUT_MS,
  handOverCustomerKey,
  type NewCustomer,
  type PartnerDelivery,
  type PartnerWebhookDeps,
} from './partner-webhook.js';
export { consentOf, recordConsent, type PartnerConsent } from './partner-consent.js';
