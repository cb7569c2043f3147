/**
 * Credits (issue 35, spec 4.6, 8): each company's append-only ledger of credits, bought and
 * given apart; purchases by card, invoice or EAN priced in integer øre with the referrer's
 * discount and the partner's kickback; what a sent case costs; auto-refill. docs/partners.md.
 */
export {
  addCreditLine,
  creditBalance,
  creditLines,
  ledgerSums,
  type CreditBalance,
  type CreditLine,
  type NewCreditLine,
} from './credit-ledger.js';
export { chargeCase } from './case-credits.js';
export { REFERRAL_CREDITS, creditReferral } from './referral-credits.js';
export {
  MAX_PURCHASE_CREDITS,
  PurchaseInvalidError,
  listPurchases,
  markPurchasePaid,
  purchaseProblems,
  recordPurchase,
  type CreditPricing,
  type CreditPurchase,
  type EanDetails,
  type PurchaseDeps,
  type PurchaseRequest,
} from './credit-purchases.js';
export {
  autoRefillOf,
  autoRefillProblems,
  refillIfLow,
  setAutoRefill,
  type AutoRefill,
} from './auto-refill.js';
export {
  CardPaymentsUnavailableError,
  CardRefusedError,
  type CardPayments,
} from './payment-provider.js';
export { glnProblem, normalizeGln, type GlnProblem } from './gln.js';
export { purchaseAmounts, type PurchaseAmounts, type PurchaseRates } from './purchase-amounts.js';
