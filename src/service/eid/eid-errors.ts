import { DocpipeError, type Outage } from '../../base/errors/index.js';

/**
 * Why an eID login did not give docpipe an identity, for the signing page to say what to do:
 * - `cancelled`: the signer cancelled at the broker (`error=access_denied`);
 * - `broker-refused`: the broker answered the login or the token request with another OAuth
 *   error (its code is in the message, its description is not: it is the broker's free text);
 * - `state-mismatch`: the callback is not the answer to the login this signer started (no
 *   state, another state, or a malformed pending login);
 * - `expired`: the login was started too long ago (EID_PENDING_TTL_MS);
 * - `code-rejected`: the token endpoint refused the code: used already (a replayed callback),
 *   expired, or issued for another PKCE verifier;
 * - `invalid-response`: the ID token or user info failed a check (issuer, audience, nonce,
 *   signature, subject);
 * - `acr-not-met`: the broker vouched for a weaker level (or another scheme) than asked;
 * - `stale-authentication`: the signer's login at the broker is older than maxAuthAgeSeconds;
 * - `unserved-scheme`: no broker is configured for the scheme.
 */
export type EidFailureReason =
  | 'cancelled'
  | 'broker-refused'
  | 'state-mismatch'
  | 'expired'
  | 'code-rejected'
  | 'invalid-response'
  | 'acr-not-met'
  | 'stale-authentication'
  | 'unserved-scheme';

/**
 * An eID login that failed for a reason of its own (not the broker being down): a
 * `validation-failed` whose detail names the part of the login (`eid`, `eid.state`, `eid.acr`),
 * with `reason` to branch on. Messages never hold a claim, a token or the broker's free text.
 */
export class EidError extends DocpipeError {
  readonly reason: EidFailureReason;
  constructor(reason: EidFailureReason, field: string, message: string, cause?: unknown) {
    super('validation-failed', [{ field, message }], cause === undefined ? {} : { cause });
    this.reason = reason;
  }
}

export function isEidError(err: unknown): err is EidError {
  return err instanceof EidError;
}

/**
 * The broker does not answer, or not as an OpenID Connect provider (discovery failed, a request
 * timed out, a 5xx): an outage (`eid-broker-unavailable`), retried later. Only the eID login
 * fails; case creation and the signing page go on without the broker. The message names the
 * broker and its issuer, never the client secret.
 */
export class EidBrokerUnavailableError extends Error implements Outage {
  override readonly name = 'EidBrokerUnavailableError';
  readonly outage = 'eid-broker-unavailable' as const;
  constructor(
    readonly broker: string,
    readonly issuer: string,
    why: string,
    options?: { cause?: unknown },
  ) {
    super(`the eID broker ${broker} (${issuer}) is not available: ${why}`, options);
  }
}

export function isEidBrokerUnavailableError(err: unknown): err is EidBrokerUnavailableError {
  return err instanceof Error && err.name === 'EidBrokerUnavailableError';
}
