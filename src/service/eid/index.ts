/**
 * National eIDs (MitID, BankID, Personalausweis) through an OpenID Connect broker the operator
 * configures: the schemes each broker serves, a signer's login from its start to the identity
 * the broker vouches for, and the CPR match. The signing routes call it; the case service needs
 * only the schemes served. docs/signing.md#eid-signing describes the configuration.
 */
export {
  DEFAULT_EID_BROKER,
  EID_CLIENT_AUTHS,
  cprSchemes,
  servedSchemes,
  type EidBrokerConfig,
  type EidClientAuth,
  type EidConfig,
} from './broker-config.js';
export { clientKeyProblem } from './client-key.js';
export { cprMatches } from './cpr-matches.js';
export {
  DISCOVERY_RETRY_MS,
  DISCOVERY_TTL_MS,
  EidBroker,
  type EidBrokerOptions,
  type EidIdentity,
  type EidStart,
} from './eid-broker.js';
export { EidBrokers, type EidBrokersOptions } from './eid-brokers.js';
export {
  MAX_CLAIM_CHARS,
  MAX_CLAIM_DEPTH,
  MAX_CLAIM_ITEMS,
  MAX_CLAIM_MEMBERS,
  boundedClaims,
  takeClaim,
  type ClaimValue,
} from './eid-claims.js';
export {
  EidBrokerUnavailableError,
  EidError,
  isEidBrokerUnavailableError,
  isEidError,
  type EidFailureReason,
} from './eid-errors.js';
export { EID_PENDING_TTL_MS, pendingOf, type EidPending } from './eid-pending.js';
export { EID_SCHEMES, acrSatisfies, isEidScheme, type EidScheme } from './eid-schemes.js';
export { issuerProblem } from './issuer-url.js';
