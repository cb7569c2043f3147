import { timingSafeEqual } from 'node:crypto';
import type * as Oidc from 'openid-client';
import { normalizeCpr } from '../cpr/index.js';
import type { EidBrokerConfig } from './broker-config.js';
import { clientCryptoKey } from './client-key.js';
import { boundedClaims, takeClaim, type ClaimValue } from './eid-claims.js';
import { EidBrokerUnavailableError, EidError } from './eid-errors.js';
import { EID_PENDING_TTL_MS, pendingOf, type EidPending } from './eid-pending.js';
import { acrSatisfies, type EidScheme } from './eid-schemes.js';
import { isPlainHttp, issuerProblem } from './issuer-url.js';

/** What a started login gives its caller: where to send the signer, and what to keep. */
export interface EidStart {
  /** The broker's authorization URL, with the scheme's `acr_values`, state, nonce and PKCE. */
  url: string;
  /** Kept by the caller until the callback (server-side or in a signed cookie). */
  pending: EidPending;
}

/** The signer as the broker vouched for them: what is kept with an eID signature. */
export interface EidIdentity {
  scheme: EidScheme;
  /** The broker's name and issuer. */
  broker: string;
  issuer: string;
  /** The ID token's `sub`: the signer at this broker. */
  subject: string;
  /** The `acr` the broker vouched for (the one asked, or a stronger MitID level). */
  acr: string;
  /** When the signer logged in at the broker (ISO 8601). */
  authTime: string;
  /**
   * The ID token's claims, then the user info's beneath them, bounded (eid-claims.ts), without
   * protocol claims and without the CPR claim.
   */
  claims: Record<string, ClaimValue>;
  /**
   * The CPR number of the broker's CPR claim (EidBrokerConfig.cprClaim), ten digits; absent when
   * the broker gave none, or one that is no CPR number.
   */
  cpr?: string;
}

/** Seconds an `auth_time` may lie in the future: the broker's clock and ours differ a little. */
const CLOCK_SKEW_S = 30;
/**
 * How long a broker that failed discovery is not asked again: every signer who clicks meanwhile
 * is told at once, instead of waiting out a timeout each.
 */
export const DISCOVERY_RETRY_MS = 10_000;
/** How long discovered metadata is used before it is read again (endpoints rarely move). */
export const DISCOVERY_TTL_MS = 60 * 60_000;

export interface EidBrokerOptions {
  /** The clock, in ms since 1970 (tests). @defaultValue Date.now */
  now?: () => number;
}

/** openid-client (and jose beneath it), loaded on the first login: no command pays for it before. */
let oidcModule: Promise<typeof Oidc> | undefined;
function loadOidc(): Promise<typeof Oidc> {
  oidcModule ??= import('openid-client');
  return oidcModule;
}

/**
 * One OpenID Connect broker: discovery (cached, with a timeout), the authorization URL of a
 * login, and the checks of its callback. State and PKCE are compared before the broker is asked
 * anything; openid-client checks the ID token's signature, issuer, audience, nonce and
 * `auth_time` against `max_age`; this class checks the `acr` and the freshness once more, and
 * keeps what is kept. Nothing here logs: the claims and tokens are the signer's.
 */
export class EidBroker {
  private discovered: { at: number; config: Promise<Oidc.Configuration> } | undefined;
  private failed: { at: number; error: EidBrokerUnavailableError } | undefined;
  private readonly now: () => number;

  constructor(
    readonly config: EidBrokerConfig,
    options: EidBrokerOptions = {},
  ) {
    const problem = issuerProblem(config.issuer);
    // The configuration refuses these at start; a caller that builds one by hand is told too.
    if (problem) throw new TypeError(`eID broker ${config.name}: issuer ${problem}`);
    this.now = options.now ?? Date.now;
  }

  get name(): string {
    return this.config.name;
  }

  /** The broker's metadata and client, discovered once and kept for DISCOVERY_TTL_MS. */
  async configuration(): Promise<Oidc.Configuration> {
    const now = this.now();
    if (this.failed && now - this.failed.at < DISCOVERY_RETRY_MS) throw this.failed.error;
    if (this.discovered && now - this.discovered.at < DISCOVERY_TTL_MS)
      return this.discovered.config;
    const config = this.discover();
    // Callers meanwhile share this discovery; a failed one is forgotten (failed holds it).
    this.discovered = { at: now, config };
    try {
      const found = await config;
      this.failed = undefined;
      return found;
    } catch (err) {
      const error =
        err instanceof EidBrokerUnavailableError
          ? err
          : this.unavailable(`discovery failed (${reasonOf(err)})`, err);
      if (this.discovered?.config === config) this.discovered = undefined;
      this.failed = { at: this.now(), error };
      throw error;
    }
  }

  private async discover(): Promise<Oidc.Configuration> {
    const oidc = await loadOidc();
    const { issuer, clientId, timeoutMs } = this.config;
    return oidc.discovery(new URL(issuer), clientId, undefined, this.clientAuth(oidc), {
      // openid-client counts seconds; the same timeout then holds for every later request.
      timeout: Math.max(1, Math.ceil(timeoutMs / 1000)),
      ...(isPlainHttp(issuer) ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
  }

  private clientAuth(oidc: typeof Oidc): Oidc.ClientAuth {
    const { clientAuth, clientSecret, privateKey, privateKeyId } = this.config;
    switch (clientAuth) {
      case 'none':
        return oidc.None();
      case 'client_secret_post':
        return oidc.ClientSecretPost(clientSecret);
      case 'client_secret_basic':
        return oidc.ClientSecretBasic(clientSecret);
      case 'private_key_jwt': {
        const key = clientCryptoKey(privateKey ?? '');
        return oidc.PrivateKeyJwt(privateKeyId === undefined ? key : { key, kid: privateKeyId });
      }
    }
  }

  /** Starts a login for `scheme` (served here), sending the signer back to `redirectUri`. */
  async start(scheme: EidScheme, redirectUri: string): Promise<EidStart> {
    const acr = this.config.schemes[scheme];
    if (acr === undefined) throw unserved(scheme);
    const config = await this.configuration();
    const oidc = await loadOidc();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      ...this.config.authorizationParams,
      redirect_uri: redirectUri,
      scope: this.config.scopes.join(' '),
      response_type: 'code',
      acr_values: acr,
      max_age: String(this.config.maxAuthAgeSeconds),
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    const pending: EidPending = {
      v: 1,
      broker: this.config.name,
      scheme,
      acr,
      state,
      nonce,
      codeVerifier,
      redirectUri,
      createdAt: this.now(),
    };
    return { url: url.href, pending };
  }

  /**
   * Checks the callback's parameters (`code`, `state`, or `error`) against the login `pending`
   * started, redeems the code, and returns the signer's identity. Every refusal is an EidError
   * with its reason; the broker not answering is EidBrokerUnavailableError.
   */
  async finish(callback: URLSearchParams, given: EidPending): Promise<EidIdentity> {
    const pending = pendingOf(given);
    if (pending.broker !== this.config.name || this.config.schemes[pending.scheme] !== pending.acr)
      throw new EidError(
        'state-mismatch',
        'eid.state',
        'the eID login was started with a broker or level this installation no longer has',
      );
    // The state first: an answer to someone else's login says nothing, not even "cancelled".
    const state = callback.get('state');
    if (state === null || !sameText(state, pending.state))
      throw new EidError(
        'state-mismatch',
        'eid.state',
        'the eID answer is not for the login this page started',
      );
    const error = callback.get('error');
    if (error !== null) throw brokerSaid(error);
    if (this.now() - pending.createdAt > EID_PENDING_TTL_MS)
      throw new EidError(
        'expired',
        'eid',
        `the eID login was started more than ${EID_PENDING_TTL_MS / 60_000} minutes ago; start it again`,
      );

    const config = await this.configuration();
    const oidc = await loadOidc();
    // The callback's own URL may differ (a proxy, another host name): the token request must
    // name the redirect URI the login was started with, so the parameters go onto that one.
    const current = new URL(pending.redirectUri);
    current.search = '';
    for (const [k, v] of callback) current.searchParams.append(k, v);
    let tokens: Awaited<ReturnType<typeof Oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, current, {
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        pkceCodeVerifier: pending.codeVerifier,
        maxAge: this.config.maxAuthAgeSeconds,
        idTokenExpected: true,
      });
    } catch (err) {
      throw this.grantFailure(oidc, err);
    }
    const idClaims = tokens.claims();
    if (!idClaims) throw invalid('the eID broker returned no ID token');

    const acr = idClaims.acr;
    if (typeof acr !== 'string' || !acrSatisfies(pending.acr, acr))
      throw new EidError(
        'acr-not-met',
        'eid.acr',
        typeof acr === 'string'
          ? `the eID broker vouched for ${acr}, and ${pending.acr} was asked for`
          : `the eID broker vouched for no level (acr), and ${pending.acr} was asked for`,
      );
    const authTime = idClaims.auth_time;
    const nowS = this.now() / 1000;
    if (
      typeof authTime !== 'number' ||
      authTime > nowS + CLOCK_SKEW_S ||
      nowS - authTime > this.config.maxAuthAgeSeconds + CLOCK_SKEW_S
    )
      throw stale(this.config.maxAuthAgeSeconds);

    let userinfo: Record<string, unknown> = {};
    if (config.serverMetadata().userinfo_endpoint && tokens.access_token)
      try {
        userinfo = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
      } catch (err) {
        throw this.grantFailure(oidc, err);
      }
    // The ID token is signed by the broker: its claims win over the user info's.
    const merged: Record<string, unknown> = { ...userinfo, ...idClaims };
    let cpr: string | undefined;
    let kept = merged;
    if (this.config.cprClaim !== undefined) {
      const { value, rest } = takeClaim(merged, this.config.cprClaim);
      kept = rest;
      const normalized = normalizeCpr(value);
      if ('cpr' in normalized) cpr = normalized.cpr;
    }
    return {
      scheme: pending.scheme,
      broker: this.config.name,
      issuer: this.config.issuer,
      subject: idClaims.sub,
      acr,
      authTime: new Date(authTime * 1000).toISOString(),
      claims: boundedClaims(kept),
      ...(cpr !== undefined ? { cpr } : {}),
    };
  }

  /** What an error of the code grant or the user info request means for the signer. */
  private grantFailure(oidc: typeof Oidc, err: unknown): Error {
    if (err instanceof oidc.AuthorizationResponseError) return brokerSaid(err.error);
    if (err instanceof oidc.ResponseBodyError) {
      if (err.status >= 500) return this.unavailable(`it answered ${err.status}`, err);
      if (err.error === 'invalid_grant')
        return new EidError(
          'code-rejected',
          'eid.code',
          'the eID broker refused the login code: it was used already or has expired; start the login again',
          err,
        );
      return new EidError(
        'broker-refused',
        'eid',
        `the eID broker refused the token request (${safeCode(err.error)})`,
        err,
      );
    }
    if (isNetworkFailure(err)) return this.unavailable(reasonOf(err), err);
    if (err instanceof oidc.ClientError) {
      const code = err.code ?? '';
      if (code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || code === 'OAUTH_RESPONSE_IS_NOT_JSON')
        return this.unavailable('it answered outside the protocol', err);
      if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED' && claimOf(err) === 'auth_time')
        return stale(this.config.maxAuthAgeSeconds, err);
      return invalid(`the eID broker's answer failed a check (${err.message})`, err);
    }
    if (err instanceof oidc.WWWAuthenticateChallengeError)
      return invalid("the eID broker refused docpipe's access token for the user info", err);
    return err instanceof Error ? err : new Error(String(err));
  }

  private unavailable(why: string, cause?: unknown): EidBrokerUnavailableError {
    return new EidBrokerUnavailableError(this.config.name, this.config.issuer, why, { cause });
  }
}

function unserved(scheme: string): EidError {
  return new EidError(
    'unserved-scheme',
    'signingSchema',
    `no eID broker is configured for ${scheme} on this installation`,
  );
}

function brokerSaid(error: string): EidError {
  if (error === 'access_denied')
    return new EidError('cancelled', 'eid', 'the eID login was cancelled');
  return new EidError(
    'broker-refused',
    'eid',
    `the eID broker ended the login with ${safeCode(error)}`,
  );
}

function invalid(message: string, cause?: unknown): EidError {
  return new EidError('invalid-response', 'eid', message, cause);
}

function stale(maxAgeSeconds: number, cause?: unknown): EidError {
  return new EidError(
    'stale-authentication',
    'eid.auth_time',
    `the eID login is older than ${maxAgeSeconds} seconds: log in again`,
    cause,
  );
}

/** An OAuth error code, as the protocol defines them (a broker may send anything there). */
function safeCode(code: string): string {
  return /^[\x20-\x21\x23-\x5B\x5D-\x7E]{1,64}$/.test(code) ? code : 'an unreadable error code';
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The claim an OAUTH_JWT_TIMESTAMP_CHECK_FAILED is about. */
function claimOf(err: Error): unknown {
  const cause = (err.cause as { cause?: { claim?: unknown } } | undefined)?.cause;
  return cause?.claim;
}

/** A request that got no answer: refused, reset, unresolved, timed out (within 4 causes). */
function isNetworkFailure(err: unknown): boolean {
  let at: unknown = err;
  for (let i = 0; i < 4 && at instanceof Error; i += 1) {
    if (at.name === 'TimeoutError' || at.name === 'AbortError') return true;
    if (at instanceof TypeError && at.message === 'fetch failed') return true;
    const code: unknown = (at as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return true;
    at = at.cause;
  }
  return false;
}

/** A short reason for the operator's log: the innermost cause's code or message. */
function reasonOf(err: unknown): string {
  let at: unknown = err;
  let reason = 'unknown error';
  for (let i = 0; i < 4 && at instanceof Error; i += 1) {
    const code = (at as { code?: unknown }).code;
    reason = typeof code === 'string' && code !== '' ? `${code}: ${at.message}` : at.message;
    at = at.cause;
  }
  return reason.slice(0, 300);
}
