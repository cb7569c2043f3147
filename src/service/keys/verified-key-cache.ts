import type { ExpiringKeyVerifier, KeyVerification, KeyVerifier } from './key-record.js';
import { hashToken } from './key-token.js';

export interface VerifiedKeyCacheOptions {
  /**
   * How long a working key's verification is reused: a revocation takes effect within this
   * time on every server. 0 verifies every request against the store. @defaultValue 5000 ms
   */
  ttlMs?: number;
  /** Keys remembered at most; the oldest is forgotten first. @defaultValue 10 000 */
  maxEntries?: number;
  /** The clock. @defaultValue Date.now */
  now?: () => number;
}

/** The key store's answer for a working key, and until when it may be reused. */
interface Entry {
  verification: KeyVerification & { ok: true };
  until: number;
}

export const DEFAULT_VERIFIED_KEY_TTL_MS = 5000;

/**
 * The key store with a short memory of working keys, so that a caller sending request after
 * request does not wait on the database each time: a PostgreSQL round trip a request (and, when
 * the keys were in Redis, a Redis command that delayed each convert's enqueue: bench/
 * http-throughput.ts) for an answer that changes once in a key's life.
 *
 * What this may get wrong, and for how long:
 * - a revoked key, a key of a company that was disabled, and a key whose user was removed keep
 *   working for at most `ttlMs` after the change (the reuse is counted from when the store was
 *   asked, which is before the change if the answer was "working");
 * - an expiring key never outlives its expiry: an entry holds until the earlier of the two;
 * - refusals are never remembered: a key that did not work is asked about again each time, so
 *   that a new key works at once and a flood of wrong keys fills no memory.
 * Entries are keyed by the SHA-256 of the key, so that the process's memory holds no key.
 */
export class VerifiedKeyCache implements KeyVerifier {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly store: ExpiringKeyVerifier,
    options: VerifiedKeyCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? DEFAULT_VERIFIED_KEY_TTL_MS;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
    if (!Number.isSafeInteger(this.ttlMs) || this.ttlMs < 0)
      throw new Error(`ttlMs must be a whole number of ms, 0 or more (got ${this.ttlMs})`);
    if (!Number.isSafeInteger(this.maxEntries) || this.maxEntries < 1)
      throw new Error(`maxEntries must be a positive integer (got ${this.maxEntries})`);
  }

  /** Keys remembered now (expired ones included until they are next looked up). */
  get size(): number {
    return this.entries.size;
  }

  async verify(token: string): Promise<KeyVerification> {
    if (this.ttlMs === 0) return this.store.verify(token);
    const id = hashToken(token).toString('base64');
    const asked = this.now();
    const entry = this.entries.get(id);
    // A copy: the identity becomes request.apiKey, and one request must not change another's.
    if (entry && entry.until > asked)
      return { ok: true, identity: { ...entry.verification.identity } };
    this.entries.delete(id);
    const { verification, expiresAt } = await this.store.check(token);
    if (!verification.ok) return verification;
    const until = Math.min(asked + this.ttlMs, expiresAt?.getTime() ?? Infinity);
    if (this.entries.size >= this.maxEntries)
      this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(id, {
      verification: { ok: true, identity: { ...verification.identity } },
      until,
    });
    return verification;
  }
}
