import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import { hashSigningToken } from './signing-token.js';

/** A base64url token of 32 bytes is 43 characters; anything far off is no token of ours. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,128}$/;

/**
 * The recipient whose signing link carries `token`, joined with its case, for a caller to select
 * from; undefined for what cannot be a token. Only the token's SHA-256 is stored, so the lookup
 * is by hash, and it names no company: the token is the capability, and the row says whose.
 */
export function recipientOfToken(db: Kysely<Database>, token: string) {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  return db
    .selectFrom('recipients')
    .innerJoin('cases', (join) =>
      join
        .onRef('cases.company_id', '=', 'recipients.company_id')
        .onRef('cases.id', '=', 'recipients.case_id'),
    )
    .where('recipients.signing_token_hash', '=', hashSigningToken(token));
}
