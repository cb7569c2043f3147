/**
 * Signing (issue 23): what a recipient's link opens, and the signature and the denial it
 * records, each in one transaction with the case's new state and its outbox event.
 * docs/signing.md describes the flow.
 */
export { activeGroupOf, waitingFor, type GroupMember } from './active-group.js';
export { denyRecipient, MAX_DENIAL_REASON_CHARS, type DenyOutcome } from './deny-recipient.js';
export {
  signRecipient,
  type EidIdentity,
  type SignatureMark,
  type SignContext,
  type Signer,
  type SignOutcome,
} from './sign-recipient.js';
export {
  CASE_DENIED,
  CASE_SIGNED,
  RECIPIENT_SIGNED,
  eventCase,
  writeSigningEvent,
  type EventCase,
  type EventRecipient,
} from './signing-events.js';
export { linkNotFound, SigningFailure, type SigningFailureKind } from './signing-failure.js';
export { DRAW, isEidScheme, signingMethodsOf } from './signing-methods.js';
export {
  readSessionOf,
  readSigningSession,
  type PlaceView,
  type SigningSession,
} from './signing-session.js';
export { readSignedReceipt, type SignedReceipt } from './signed-receipt.js';
export { readUnsentLink, type UnsentLink } from './unsent-link.js';
export { shownText } from './shown-text.js';
export { MAX_ADDED_NAMES, typedNameMatches } from './typed-name.js';
