import { createHash } from 'node:crypto';
import type { FailureDetail } from '../../base/errors/index.js';
import { canonicalJson } from '../../render/pipeline/index.js';

/** The header a creation must carry (the IETF draft's name). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** How long a key answers its first request again; after that it may be used anew. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** 1 to 255 visible ASCII characters, as the database's check allows. */
const KEY = /^[\x21-\x7e]{1,255}$/;

/** Why the header's value is no key, at the header's name; undefined when it is one. */
export function idempotencyKeyProblem(key: string | undefined): FailureDetail | undefined {
  if (key === undefined)
    return {
      field: IDEMPOTENCY_HEADER,
      message: 'is required: a key of your own for this creation, sent again on a retry',
    };
  if (!KEY.test(key))
    return { field: IDEMPOTENCY_HEADER, message: 'must be 1 to 255 visible ASCII characters' };
  return undefined;
}

/**
 * The request's fingerprint: SHA-256 of its canonical JSON (members sorted at every level), so
 * that a retry whose client orders members differently is still the same request.
 */
export function requestFingerprint(body: unknown): Buffer {
  return createHash('sha256').update(canonicalJson(body), 'utf8').digest();
}
