/**
 * Single sign-on for a company's e-mail domains: an OpenID Connect provider the operator
 * configures (DOCPIPE_LOGIN_OIDC_<NAME>_*, app/config/login-oidc-config.ts). For an address of
 * one of its domains the provider replaces the password: the log-in page sends the person there,
 * and whoever it vouches for (a verified address of those domains) joins its company as a member.
 */
export interface LoginOidcProvider {
  /** The operator's name for it (the variables' NAME, lower case), in URLs, messages and logs. */
  name: string;
  /** `https://` (plain `http://` only on a loopback address, for tests). */
  issuer: string;
  clientId: string;
  /** Absent: a public client, PKCE alone. */
  clientSecret?: string;
  /** The e-mail domains it logs in, lower case: `example.com` (not its subdomains). */
  domains: string[];
  /** The company its people are members of (a login it makes joins it, not as an admin). */
  company: string;
  /** How long docpipe waits for each request to the provider. @defaultValue 5000 */
  timeoutMs: number;
}

export interface LoginOidcConfig {
  providers: LoginOidcProvider[];
}

/** The domain of an address, lower case; undefined when `email` has none. */
export function emailDomain(email: string): string | undefined {
  const at = email.trim().lastIndexOf('@');
  if (at < 1) return undefined;
  const domain = email
    .trim()
    .slice(at + 1)
    .toLowerCase();
  return /^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/.test(domain) ? domain : undefined;
}

/**
 * The provider that logs `email` in, or undefined: that address logs in with its password. The
 * log-in page asks this first, and sends such an address to `/user/login/sso?email=...`.
 */
export function ssoProviderFor(
  config: { readonly providers: readonly LoginOidcProvider[] },
  email: string,
): LoginOidcProvider | undefined {
  const domain = emailDomain(email);
  if (domain === undefined) return undefined;
  return config.providers.find((p) => p.domains.includes(domain));
}
