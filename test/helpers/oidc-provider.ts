import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type OidcContext } from 'oidc-provider';

/**
 * A real OpenID Connect provider (oidc-provider, the certified implementation) on a free loopback
 * port, standing in for an eID broker: one confidential client, the eID schemes' acr values, a
 * CPR claim, and an interaction without a browser. The test logs a user in by fetch with a
 * cookie jar (login), chooses who and at which level (acr), or cancels (cancel); every redirect
 * is followed by hand up to the one that leaves for the client's redirect URI, which is
 * returned: the callback URL docpipe would have been called with.
 */

export interface TestOidcProviderOptions {
  /** The redirect URIs the client registered. */
  redirectUris: string[];
  /** The users, by account id (`sub`), with their claims beside `sub`. */
  accounts: Record<string, Record<string, unknown>>;
  /**
   * The client's public keys: it authenticates with private_key_jwt (and has no secret).
   * @defaultValue none: client_secret_basic
   */
  clientJwks?: { keys: object[] };
  /** Claims each scope releases beside openid's `sub` (on the user info endpoint). */
  scopes?: Record<string, string[]>;
  /**
   * The loopback port to listen on, reserved by the caller: its issuer URL is then known before
   * the provider starts (a docpipe server configured with it first, whose URL is a redirect URI).
   * @defaultValue a free port
   */
  port?: number;
}

export interface TestOidcProvider {
  /** `http://127.0.0.1:<port>` */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Requests for the discovery document so far. */
  discoveries(): number;
  /**
   * Follows `authorizationUrl`, logs `account` in at `acr` (default: the first acr_values
   * asked), and returns the callback URL the provider sends the browser to.
   */
  login(authorizationUrl: string, as: { account: string; acr?: string }): Promise<URL>;
  /** Follows `authorizationUrl` and cancels at the login: the callback carries access_denied. */
  cancel(authorizationUrl: string): Promise<URL>;
  close(): Promise<void>;
}

export const TEST_ACR_VALUES = [
  'urn:grn:authn:dk:mitid:low',
  'urn:grn:authn:dk:mitid:substantial',
  'urn:grn:authn:dk:mitid:high',
  'urn:grn:authn:dk:mitid:business',
  'urn:grn:authn:se:bankid',
  'urn:grn:authn:de:personalausweis',
];

const INTERACTION = /^\/interaction\/([\w-]+)\/(login|abort)$/;

export async function startOidcProvider(
  options: TestOidcProviderOptions,
): Promise<TestOidcProvider> {
  const clientId = `docpipe-${randomUUID()}`;
  const clientSecret = randomUUID() + randomUUID();
  // Made once the port, and so the issuer, is known.
  const made: {
    provider?: Provider;
    handler?: (req: IncomingMessage, res: ServerResponse) => void;
  } = {};
  let discoveries = 0;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/.well-known/openid-configuration') discoveries += 1;
    const m = INTERACTION.exec(url.pathname);
    if (m && req.method === 'POST' && made.provider) {
      void interact(made.provider, req, res, m[2] === 'abort').catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    made.handler!(req, res);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' };
  const scopes = options.scopes ?? { profile: ['name'], cpr: ['cprNumberIdentifier'] };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        ...(options.clientJwks
          ? { token_endpoint_auth_method: 'private_key_jwt', jwks: options.clientJwks }
          : { token_endpoint_auth_method: 'client_secret_basic', client_secret: clientSecret }),
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomUUID()] },
    acrValues: TEST_ACR_VALUES,
    claims: { openid: ['sub'], acr: null, auth_time: null, ...scopes },
    scopes: ['openid', ...Object.keys(scopes)],
    pkce: { required: () => true },
    // Short lives, named so that the provider does not warn of its defaults.
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    features: { devInteractions: { enabled: false } },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    // No consent screen: the broker's own consent is not what these tests are about.
    loadExistingGrant: async (ctx: OidcContext) => {
      const { client, session, params } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({
        clientId: client.clientId,
        accountId: session.accountId,
      });
      grant.addOIDCScope(typeof params?.scope === 'string' ? params.scope : 'openid');
      grant.addOIDCClaims(['acr', 'auth_time']);
      await grant.save();
      return grant;
    },
    findAccount: (_ctx: unknown, sub: string) => {
      const claims = options.accounts[sub];
      if (!claims) return undefined;
      return { accountId: sub, claims: () => ({ sub, ...claims }) };
    },
  });
  made.provider = provider;
  made.handler = provider.callback();

  return {
    issuer,
    clientId,
    clientSecret,
    discoveries: () => discoveries,
    login: (url, as) => drive(url, { account: as.account, acr: as.acr }),
    cancel: (url) => drive(url, 'abort'),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };

  /** Follows redirects by hand (cookies kept) until one leaves the provider. */
  async function drive(
    authorizationUrl: string,
    action: { account: string; acr?: string | undefined } | 'abort',
  ): Promise<URL> {
    const jar = new Map<string, string>();
    const asked = new URL(authorizationUrl).searchParams.get('acr_values')?.split(' ')[0];
    let next = new URL(authorizationUrl);
    let submitted = false;
    for (let hop = 0; hop < 10; hop += 1) {
      if (next.origin !== issuer) return next;
      let form: string | undefined;
      if (/^\/interaction\/[\w-]+$/.test(next.pathname)) {
        // The login page: its form's submit, as a browser would post it.
        if (submitted) throw new Error('the provider asked for a second login');
        submitted = true;
        next = new URL(`${next.pathname}/${action === 'abort' ? 'abort' : 'login'}`, issuer);
        form =
          action === 'abort'
            ? ''
            : new URLSearchParams({
                account: action.account,
                acr: action.acr ?? asked ?? '',
              }).toString();
      }
      const res = await fetch(next, {
        method: form === undefined ? 'GET' : 'POST',
        redirect: 'manual',
        headers: {
          cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
          ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
        },
        ...(form === undefined ? {} : { body: form }),
      });
      for (const cookie of res.headers.getSetCookie()) {
        const [pair = ''] = cookie.split(';');
        const eq = pair.indexOf('=');
        const name = pair.slice(0, eq).trim();
        const value = pair.slice(eq + 1).trim();
        if (value === '' || /expires=Thu, 01 Jan 1970/i.test(cookie)) jar.delete(name);
        else jar.set(name, value);
      }
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location)
        throw new Error(
          `the provider answered ${res.status} at ${next.pathname}: ${await res.text()}`,
        );
      await res.body?.cancel();
      next = new URL(location, next);
    }
    throw new Error('the provider redirected more than 10 times');
  }
}

async function interact(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  abort: boolean,
): Promise<void> {
  if (abort) {
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'End-User aborted interaction' },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  let text = '';
  for await (const chunk of req) text += String(chunk);
  const form = new URLSearchParams(text);
  await provider.interactionFinished(
    req,
    res,
    {
      login: {
        accountId: form.get('account') ?? '',
        acr: form.get('acr') ?? '',
        amr: ['pwd'],
        remember: false,
      },
    },
    { mergeWithLastSubmission: false },
  );
}
