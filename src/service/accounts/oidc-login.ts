import { timingSafeEqual } from 'node:crypto';
import type * as Oidc from 'openid-client';
import { issuerProblem } from '../eid/index.js';
import { emailDomain, type LoginOidcProvider } from './oidc-login-provider.js';

/**
 * One single sign-on provider's log-in (the authorization code flow with PKCE, state and nonce,
 * as service/eid does it for eID signing): the authorization URL of a log-in, then the checks of
 * its callback. openid-client checks the ID token's signature, issuer, audience and nonce; this
 * class then asks for a verified address (`email_verified` true) of one of the provider's
 * domains. Nothing here logs: the claims and tokens are the person's.
 */

/** A log-in between its start and its callback: kept server-side, never sent to the browser. */
export interface OidcLoginPending {
  v: 1;
  provider: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  createdAt: number;
}

/** The person as the provider vouched for them. */
export interface OidcLoginIdentity {
  provider: string;
  /** The ID token's `sub`. */
  subject: string;
  /** The verified address, as the provider gave it. */
  email: string;
  /** The `name` claim, else the address's local part. */
  name: string;
}

/** Why a callback logs no one in; `reason` is for the person's page, `message` for the log. */
export type OidcLoginFailureReason =
  | 'state-mismatch'
  | 'expired'
  | 'cancelled'
  | 'refused'
  | 'unverified-email'
  | 'foreign-domain'
  | 'unavailable';

export class OidcLoginError extends Error {
  override readonly name = 'OidcLoginError';
  constructor(
    readonly reason: OidcLoginFailureReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** How long a log-in may take between the start and the callback. */
export const OIDC_LOGIN_TTL_MS = 10 * 60_000;
/** How long discovered metadata is used before it is read again. */
const DISCOVERY_TTL_MS = 60 * 60_000;
/** How long a provider that failed discovery is not asked again. */
const DISCOVERY_RETRY_MS = 10_000;

let oidcModule: Promise<typeof Oidc> | undefined;
/** openid-client (and jose), loaded on the first SSO log-in: no command pays for it before. */
function loadOidc(): Promise<typeof Oidc> {
  oidcModule ??= import('openid-client');
  return oidcModule;
}

export class OidcLoginClient {
  private discovered: { at: number; config: Promise<Oidc.Configuration> } | undefined;
  private failedAt: number | undefined;

  constructor(
    readonly provider: LoginOidcProvider,
    private readonly now: () => number = Date.now,
  ) {
    const problem = issuerProblem(provider.issuer);
    if (problem) throw new TypeError(`SSO provider ${provider.name}: issuer ${problem}`);
  }

  private async configuration(): Promise<Oidc.Configuration> {
    const now = this.now();
    if (this.failedAt !== undefined && now - this.failedAt < DISCOVERY_RETRY_MS)
      throw this.unavailable('discovery failed a moment ago');
    if (this.discovered && now - this.discovered.at < DISCOVERY_TTL_MS)
      return this.discovered.config;
    const config = this.discover();
    this.discovered = { at: now, config };
    try {
      const found = await config;
      this.failedAt = undefined;
      return found;
    } catch (err) {
      if (this.discovered?.config === config) this.discovered = undefined;
      this.failedAt = this.now();
      throw this.unavailable(`discovery failed (${reasonOf(err)})`, err);
    }
  }

  private async discover(): Promise<Oidc.Configuration> {
    const oidc = await loadOidc();
    const { issuer, clientId, clientSecret, timeoutMs } = this.provider;
    const auth = clientSecret === undefined ? oidc.None() : oidc.ClientSecretBasic(clientSecret);
    return oidc.discovery(new URL(issuer), clientId, undefined, auth, {
      timeout: Math.max(1, Math.ceil(timeoutMs / 1000)),
      ...(new URL(issuer).protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
  }

  /** Starts a log-in for `email` (sent as `login_hint`), coming back to `redirectUri`. */
  async start(
    email: string,
    redirectUri: string,
  ): Promise<{ url: string; pending: OidcLoginPending }> {
    const config = await this.configuration();
    const oidc = await loadOidc();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      login_hint: email,
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    return {
      url: url.href,
      pending: {
        v: 1,
        provider: this.provider.name,
        state,
        nonce,
        codeVerifier,
        redirectUri,
        createdAt: this.now(),
      },
    };
  }

  /**
   * The person the callback's parameters (`code` and `state`, or `error`) vouch for, checked
   * against the log-in `pending` started. Every refusal is an OidcLoginError.
   */
  async finish(callback: URLSearchParams, pending: OidcLoginPending): Promise<OidcLoginIdentity> {
    const state = callback.get('state');
    if (
      pending.provider !== this.provider.name ||
      state === null ||
      !sameText(state, pending.state)
    )
      throw new OidcLoginError(
        'state-mismatch',
        'the answer is not for the log-in this browser started',
      );
    const error = callback.get('error');
    if (error !== null)
      throw error === 'access_denied'
        ? new OidcLoginError('cancelled', 'the log-in was cancelled at the provider')
        : new OidcLoginError('refused', `the provider ended the log-in with ${safeCode(error)}`);
    if (this.now() - pending.createdAt > OIDC_LOGIN_TTL_MS)
      throw new OidcLoginError('expired', 'the log-in was started too long ago');

    const config = await this.configuration();
    const oidc = await loadOidc();
    const current = new URL(pending.redirectUri);
    current.search = '';
    for (const [k, v] of callback) current.searchParams.append(k, v);
    let claims: Record<string, unknown>;
    let subject: string;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        pkceCodeVerifier: pending.codeVerifier,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new OidcLoginError('refused', 'the provider returned no ID token');
      subject = idClaims.sub;
      let userinfo: Record<string, unknown> = {};
      // Many providers put the address in the user info only (a code flow's ID token is small).
      if (
        (idClaims.email === undefined || idClaims.email_verified === undefined) &&
        config.serverMetadata().userinfo_endpoint &&
        tokens.access_token
      )
        userinfo = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
      // The ID token is signed: its claims win over the user info's.
      claims = { ...userinfo, ...idClaims };
    } catch (err) {
      if (err instanceof OidcLoginError) throw err;
      throw this.grantFailure(oidc, err);
    }

    const email = typeof claims.email === 'string' ? claims.email.trim() : '';
    if (claims.email_verified !== true)
      throw new OidcLoginError(
        'unverified-email',
        'the provider did not vouch for the address (email_verified is not true)',
      );
    const domain = emailDomain(email);
    if (domain === undefined || !this.provider.domains.includes(domain))
      throw new OidcLoginError(
        'foreign-domain',
        `the provider vouched for an address outside ${this.provider.domains.join(', ')}`,
      );
    const name =
      typeof claims.name === 'string' && claims.name.trim() !== ''
        ? claims.name.trim().slice(0, 200)
        : email.slice(0, email.lastIndexOf('@'));
    return { provider: this.provider.name, subject, email, name };
  }

  private grantFailure(oidc: typeof Oidc, err: unknown): OidcLoginError {
    if (err instanceof oidc.AuthorizationResponseError)
      return new OidcLoginError('refused', `the provider said ${safeCode(err.error)}`, {
        cause: err,
      });
    if (err instanceof oidc.ResponseBodyError && err.status < 500)
      return new OidcLoginError(
        'refused',
        `the provider refused the token request (${safeCode(err.error)})`,
        { cause: err },
      );
    if (err instanceof oidc.ClientError && !isNetworkFailure(err))
      return new OidcLoginError(
        'refused',
        `the provider's answer failed a check (${err.message})`,
        {
          cause: err,
        },
      );
    return this.unavailable(reasonOf(err), err);
  }

  private unavailable(why: string, cause?: unknown): OidcLoginError {
    return new OidcLoginError(
      'unavailable',
      `SSO provider ${this.provider.name} (${this.provider.issuer}) does not answer: ${why}`,
      { cause },
    );
  }
}

/** Every configured provider's client, made once per server. */
export class OidcLoginClients {
  private readonly clients: Map<string, OidcLoginClient>;

  constructor(providers: readonly LoginOidcProvider[], now?: () => number) {
    this.clients = new Map(providers.map((p) => [p.name, new OidcLoginClient(p, now)]));
  }

  get(name: string): OidcLoginClient | undefined {
    return this.clients.get(name);
  }
}

/** An OAuth error code as the protocol defines them (a provider may send anything there). */
function safeCode(code: string): string {
  return /^[\x20-\x21\x23-\x5B\x5D-\x7E]{1,64}$/.test(code) ? code : 'an unreadable error code';
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
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
