import { EID_SCHEMES, type EidScheme } from './eid-schemes.js';

/** How docpipe proves itself to the broker's token endpoint. */
export type EidClientAuth =
  'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

export const EID_CLIENT_AUTHS: readonly EidClientAuth[] = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
  'none',
];

/** One OpenID Connect broker and the eID schemes it signs with. */
export interface EidBrokerConfig {
  /** The operator's name for it, in messages and logs. @defaultValue 'eid' */
  name: string;
  /**
   * The broker's issuer identifier, `https://` (plain `http://` only on a loopback address, for
   * tests); its `/.well-known/openid-configuration` is read on first use.
   */
  issuer: string;
  clientId: string;
  /** Absent with `clientAuth` `none` (a public client: PKCE alone). */
  clientSecret?: string;
  /**
   * With `private_key_jwt`: docpipe's private key (PEM; RSA 2048+ or EC P-256) whose public half
   * the broker holds, and the key id (`kid`) the broker knows it by.
   */
  privateKey?: string;
  privateKeyId?: string;
  /**
   * @defaultValue 'client_secret_basic' (a secret given), 'private_key_jwt' (a key given), 'none'
   */
  clientAuth: EidClientAuth;
  /** The eID schemes this broker serves, each with the `acr_values` it is asked with. */
  schemes: Partial<Record<EidScheme, string>>;
  /** The scopes asked for; `openid` among them. @defaultValue ['openid'] */
  scopes: string[];
  /**
   * The claim that carries the signer's CPR number (a claim of that name, else a dotted path into
   * the claims: `dk.cpr`). @defaultValue undefined: the broker gives none, and a recipient that
   * `needsCpr` cannot sign through it
   */
  cprClaim?: string;
  /**
   * How long before the callback the signer may have logged in at the broker (sent as `max_age`,
   * and checked on the ID token's `auth_time`): a signature is a fresh login, not an old session.
   * @defaultValue 300
   */
  maxAuthAgeSeconds: number;
  /** How long docpipe waits for each request to the broker. @defaultValue 5000 */
  timeoutMs: number;
  /** More parameters of the authorization request, as some brokers want (`idp_values`, `ui_locales`). */
  authorizationParams: Record<string, string>;
}

/** The eID brokers of an installation; none: only `draw` is served. */
export interface EidConfig {
  brokers: EidBrokerConfig[];
}

export const DEFAULT_EID_BROKER = {
  name: 'eid',
  scopes: ['openid'],
  maxAuthAgeSeconds: 300,
  timeoutMs: 5000,
} as const;

/** The schemes a configuration serves, in spec 2.1's order. */
export function servedSchemes(config: EidConfig): EidScheme[] {
  const served = new Set(config.brokers.flatMap((b) => Object.keys(b.schemes)));
  return EID_SCHEMES.filter((s) => served.has(s));
}

/**
 * The served schemes whose broker gives the signer's CPR number (a `cprClaim`): the only ones a
 * `needsCpr` recipient can sign with. A scheme goes to the first broker that lists it, as
 * EidBrokers sends its logins there.
 */
export function cprSchemes(config: EidConfig): EidScheme[] {
  const first = new Map<string, EidBrokerConfig>();
  for (const b of config.brokers)
    for (const s of Object.keys(b.schemes)) if (!first.has(s)) first.set(s, b);
  return EID_SCHEMES.filter((s) => first.get(s)?.cprClaim !== undefined);
}
