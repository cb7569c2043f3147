import type { FastifyReply, FastifyRequest } from 'fastify';
import { DocpipeError, type FailureDetail } from '../../../base/errors/index.js';
import { tokenId, type KeyRefusal, type KeyVerifier } from '../../../service/keys/index.js';
import { v2Error, v2Errors, v3Failure } from './replies.js';

/**
 * Authentication hooks (spec section 5), one per surface: the server puts one in front of each
 * authenticated route group as an `onRequest` hook, so that a caller without a working key costs
 * no body parsing. On success `request.apiKey` is the key's identity; on failure the hook answers
 * itself in its surface's shape (401, or 403 for a disabled company or a key whose user was
 * removed), and the route never runs. The key is never logged. A key store that does not answer
 * (DatabaseUnavailableError) is not a refusal: the hook throws it on to the route's error
 * handler, which answers it as the outage it is (503 and Retry-After) in its surface's shape.
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

/**
 * A right key that may not act now: its company is disabled, or its user was removed. 403, as
 * the spec's slugs say (7.2): another try with the same key fails the same way until an
 * operator acts, and no challenge is sent, since no other credentials would help.
 */
const FORBIDDEN: ReadonlySet<AuthFailure> = new Set(['company-disabled', 'no-user']);

/** The HTTP status of a failure: 401 for the key itself, 403 for what it acts for. */
function statusOf(failure: AuthFailure): 401 | 403 {
  return FORBIDDEN.has(failure) ? 403 : 401;
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
  'test-key-in-production':
    'Bearer token not valid: this is a test key (dp_test_), and this is the production environment. Use a production key (dp_live_) here, or send the request to the test environment',
  'production-key-in-test':
    'Bearer token not valid: this is a production key, and this is the test environment. Use a test key (dp_test_) made in the test environment here, or send the request to production',
  revoked: 'Bearer token not valid: the API key was revoked',
  expired: 'Bearer token not valid: the API key has expired',
  'company-disabled': 'The company account is disabled; its API keys are refused',
  'no-user':
    'The API key has no user: its user was removed. Create a key for a user of the company',
};

/**
 * For the v2 and file endpoints: every failure of the key is 401 with the v2 body of 7.1 (`Bearer
 * token not found` without a token, `Bearer token not valid: ...` with one), a disabled company or
 * a removed user 403 with the same body. When the route's path has `{company}`, it must be the
 * key's company, else 400 `Invalid company id` (see requireCompany).
 */
export function authenticateV2(keys: KeyVerifier) {
  return async function authenticateV2(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> {
    const outcome = await authenticate(request, keys);
    if (!outcome.ok) {
      const status = statusOf(outcome.failure);
      if (status === 401) reply.header('www-authenticate', challenge(outcome.failure));
      return reply.code(status).send(v2Errors(v2Error(status, V2_DESCRIPTIONS[outcome.failure])));
    }
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
  'test-key-in-production': 'invalid-token',
  'production-key-in-test': 'invalid-token',
  revoked: 'key-revoked',
  expired: 'key-expired',
  'company-disabled': 'company-disabled',
  'no-user': 'key-has-no-user',
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
  'test-key-in-production':
    'this is a test key (dp_test_...), and this is the production environment: use a production key (dp_live_...) here, or send the request to the test environment',
  'production-key-in-test':
    'this is a production key, and this is the test environment: use a test key (dp_test_...) made in the test environment here, or send the request to production',
  revoked: 'the key was revoked; create a new key',
  expired: 'the key has expired; create a new key',
  'company-disabled': "the key's company is disabled; its operator can enable it again",
  'no-user':
    "the key's user was removed, so cases cannot be attributed to anyone; use a key of a user of the company",
};

/** For the v3 API: 401 or 403 with the slug of 7.2 that says why, and one detail naming the header. */
export function authenticateV3(keys: KeyVerifier) {
  return async function authenticateV3(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> {
    const outcome = await authenticate(request, keys);
    if (outcome.ok) return undefined;
    const detail: FailureDetail = { field: 'Authorization', message: V3_MESSAGES[outcome.failure] };
    const err = new DocpipeError(V3_SLUGS[outcome.failure], [detail]);
    if (err.status === 401) reply.header('www-authenticate', challenge(outcome.failure));
    return reply.code(err.status).send(v3Failure(err));
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
