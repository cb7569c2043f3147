import type { FastifyReply, FastifyRequest } from 'fastify';
import { DocpipeError, type FailureDetail } from '../../../base/errors/index.js';
import { tokenId, type KeyRefusal, type KeyVerifier } from '../../../service/keys/index.js';
import { v2Error, v2Errors, v3Failure } from './replies.js';

/**
 * Authentication hooks (spec section 5), one per surface: the server puts one in front of each
 * authenticated route group as an `onRequest` hook, so that a caller without a working key costs
 * no body parsing. On success `request.apiKey` is the key's identity; on failure the hook answers
 * 401 itself in its surface's shape, and the route never runs. The key is never logged.
 */

/** Why a request did not authenticate: no key given, a malformed header, or the store's refusal. */
type AuthFailure = 'missing' | 'malformed' | KeyRefusal;

type BearerHeader = { kind: 'missing' } | { kind: 'malformed' } | { kind: 'token'; token: string };

/**
 * `Authorization: Bearer <token>`, strictly (RFC 6750 2.1): the scheme in any case, one space, a
 * token68 and nothing else. Anything else is malformed, never guessed at.
 */
export function bearerToken(header: string | undefined): BearerHeader {
  if (header === undefined || header.trim() === '') return { kind: 'missing' };
  if (/^bearer\s*$/i.test(header)) return { kind: 'missing' };
  const m = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(header);
  return m ? { kind: 'token', token: m[1]! } : { kind: 'malformed' };
}

async function authenticate(
  request: FastifyRequest,
  keys: KeyVerifier,
): Promise<{ ok: true } | { ok: false; failure: AuthFailure }> {
  const header = bearerToken(request.headers.authorization);
  if (header.kind !== 'token') return { ok: false, failure: header.kind };
  const verdict = await keys.verify(header.token);
  if (!verdict.ok) {
    // The id is public (docpipe keys list shows it); the secret never reaches a log.
    request.log.info({ keyId: tokenId(header.token), reason: verdict.reason }, 'API key refused');
    return { ok: false, failure: verdict.reason };
  }
  request.apiKey = verdict.identity;
  return { ok: true };
}

/** RFC 6750 3: a 401 names the scheme, and says `invalid_token` when a token was given. */
function challenge(failure: AuthFailure): string {
  return failure === 'missing'
    ? 'Bearer realm="docpipe"'
    : 'Bearer realm="docpipe", error="invalid_token"';
}

/**
 * The v2 body's description of each failure. The spec's `Bearer token not found` is for a request
 * without a token; saying it of a key that was sent sends its owner looking for a header they
 * did send, so a token that was sent is said to be not valid, and why.
 */
const V2_DESCRIPTIONS: Record<AuthFailure, string> = {
  missing: 'Bearer token not found',
  malformed: 'Bearer token not valid: send "Authorization: Bearer <key>", one space after Bearer',
  invalid: 'Bearer token not valid: no such API key here',
  revoked: 'Bearer token not valid: the API key was revoked',
  expired: 'Bearer token not valid: the API key has expired',
};

/**
 * For the v2 and file endpoints: every failure is 401 with the v2 body of 7.1 (`Bearer token not
 * found` without a token, `Bearer token not valid: ...` with one). When the route's path has `{company}`, it
 * must be the key's company, else 400 `Invalid company id` (see requireCompany).
 */
export function authenticateV2(keys: KeyVerifier) {
  return async function authenticateV2(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> {
    const outcome = await authenticate(request, keys);
    if (!outcome.ok)
      return reply
        .code(401)
        .header('www-authenticate', challenge(outcome.failure))
        .send(v2Errors(v2Error(401, V2_DESCRIPTIONS[outcome.failure])));
    const company = (request.params as Record<string, unknown> | undefined)?.company;
    // A path parameter is always a string; anything else is no company anyone's key is for.
    if (
      company !== undefined &&
      !requireCompany(request, reply, typeof company === 'string' ? company : '')
    )
      return reply;
    return undefined;
  };
}

const V3_SLUGS = {
  missing: 'missing-token',
  malformed: 'invalid-token',
  invalid: 'invalid-token',
  revoked: 'key-revoked',
  expired: 'key-expired',
} as const;

/**
 * What to fix, on the header: an authentication failure is caused by the request (7.2), so it
 * carries one detail, `field` naming the header. Clients branch on the slug, not on this text.
 */
const V3_MESSAGES: Record<AuthFailure, string> = {
  missing: 'no API key: send the header "Authorization: Bearer <key>"',
  malformed: 'not "Bearer <key>": send the key after "Bearer " and a single space',
  invalid:
    'no such key here; keys belong to one installation (a test key does not work in production)',
  revoked: 'the key was revoked; create a new key',
  expired: 'the key has expired; create a new key',
};

/** For the v3 API: 401 with the slug of 7.2 that says why, and one detail naming the header. */
export function authenticateV3(keys: KeyVerifier) {
  return async function authenticateV3(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> {
    const outcome = await authenticate(request, keys);
    if (outcome.ok) return undefined;
    const detail: FailureDetail = { field: 'Authorization', message: V3_MESSAGES[outcome.failure] };
    const err = new DocpipeError(V3_SLUGS[outcome.failure], [detail]);
    return reply
      .code(err.status)
      .header('www-authenticate', challenge(outcome.failure))
      .send(v3Failure(err));
  };
}

/**
 * Whether the authenticated key may act for `company` (spec section 5.3: v2 and file paths carry
 * the company). If not, answers the v2 company error of 7.1, the single-object shape
 * `{code: 400, message: 'Bad Request', description: 'Invalid company id'}`, and returns false:
 * the caller returns `reply` at once. authenticateV2 already checks a `{company}` path
 * parameter; call this for a company given anywhere else.
 */
export function requireCompany(
  request: FastifyRequest,
  reply: FastifyReply,
  company: string,
): boolean {
  const key = request.apiKey;
  if (!key) throw new Error(`${request.url} has no authentication hook in front of it`);
  if (key.company === company) return true;
  request.log.info({ keyId: key.id }, 'API key used for another company');
  void reply.code(400).send(v2Error(400, 'Invalid company id'));
  return false;
}
