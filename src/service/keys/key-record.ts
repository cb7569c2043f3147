/** Who a key acts for: what a request learns from a verified key, never its secret. */
export interface KeyIdentity {
  id: string;
  company: string;
  name: string;
  /**
   * The user the key belongs to (users.id), to whom its cases are attributed. Absent only for a
   * key copied from Redis (made before keys had users), which works without one.
   */
  userId?: string;
}

/** A stored key as a person sees it (`docpipe keys list`): no secret and no hash. */
export interface ApiKeyRecord extends KeyIdentity {
  /** Its user's e-mail; absent when it has none (see `userId`, and a removed user). */
  user?: string;
  createdAt: Date;
  /** Absent: the key never expires. */
  expiresAt?: Date;
  /** Absent: the key works (unless expired). */
  revokedAt?: Date;
  /** When `docpipe db migrate` copied it from Redis, where an earlier docpipe made it. */
  copiedFromRedisAt?: Date;
  /** When it last authenticated a request, to the minute (KeyUseRecorder); absent: not yet. */
  lastUsedAt?: Date;
  /** The partner it was made for by the partner webhook (spec 5.6): a partner integration. */
  partner?: string;
}

/** A new key: its record and the key itself, which is shown once and stored nowhere. */
export interface CreatedKey extends ApiKeyRecord {
  key: string;
}

/**
 * Why a presented key does not authenticate, one to each of the spec's slugs: `invalid-token`,
 * `key-revoked`, `key-expired` (401), `company-disabled` and `key-has-no-user` (403: the key is
 * right, what it acts for is not there). A key of the other environment (spec 5.4) is
 * `invalid-token` too, told apart so that its holder hears which key to use instead.
 */
export type KeyRefusal =
  | 'invalid'
  | 'test-key-in-production'
  | 'production-key-in-test'
  | 'revoked'
  | 'expired'
  | 'company-disabled'
  | 'no-user';

export type KeyVerification =
  { ok: true; identity: KeyIdentity } | { ok: false; reason: KeyRefusal };

/** What `revoke` found: no such key, revoked now, or revoked before (then `revokedAt` is when). */
export type RevokeOutcome =
  { found: false } | { found: true; alreadyRevoked: boolean; revokedAt: Date };

/** What the authentication hooks need of a key store, so that they can be tested without a database. */
export interface KeyVerifier {
  verify(token: string): Promise<KeyVerification>;
}

/** A verification and, for a working key that expires, when: how long the answer holds. */
export interface CheckedKey {
  verification: KeyVerification;
  expiresAt?: Date;
}

/** A key store that says how long a working key's verification holds (for a cache). */
export interface ExpiringKeyVerifier extends KeyVerifier {
  check(token: string): Promise<CheckedKey>;
}
