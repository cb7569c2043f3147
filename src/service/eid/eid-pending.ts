import { EidError } from './eid-errors.js';
import { isEidScheme, type EidScheme } from './eid-schemes.js';

/**
 * An eID login between its start and its callback: what the callback is checked against. Plain
 * JSON, for the caller to keep server-side (Redis, keyed by `state`) or in a signed cookie; it
 * holds the PKCE verifier, so it never goes to the browser unsigned, nor into a log.
 */
export interface EidPending {
  /** The format of this object, for a login started by an older docpipe. */
  v: 1;
  /** The broker's name (EidBrokerConfig.name). */
  broker: string;
  scheme: EidScheme;
  /** The `acr_values` asked for: the answer must meet it. */
  acr: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Where the broker sends the signer back: the token request names it again. */
  redirectUri: string;
  /** When the login started, in ms since 1970. */
  createdAt: number;
}

/** How long a started login waits for its callback: a MitID login takes a minute or two. */
export const EID_PENDING_TTL_MS = 15 * 60_000;

const STRING_MEMBERS = ['broker', 'acr', 'state', 'nonce', 'codeVerifier', 'redirectUri'] as const;

/**
 * `value` as a pending login, or EidError `state-mismatch`: a caller's store gives back what it
 * was given, so anything else is a tampered or foreign value, and no login of this signer's.
 */
export function pendingOf(value: unknown): EidPending {
  const refuse = () =>
    new EidError('state-mismatch', 'eid.state', 'the eID login is not one this page started');
  if (typeof value !== 'object' || value === null) throw refuse();
  const p = value as Record<string, unknown>;
  if (p.v !== 1 || !isEidScheme(p.scheme) || typeof p.createdAt !== 'number') throw refuse();
  for (const m of STRING_MEMBERS) if (typeof p[m] !== 'string' || p[m] === '') throw refuse();
  return p as unknown as EidPending;
}
