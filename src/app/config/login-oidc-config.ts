import {
  emailDomain,
  type LoginOidcConfig,
  type LoginOidcProvider,
} from '../../service/accounts/index.js';
import { issuerProblem } from '../../service/eid/index.js';
import { companyIdProblem } from '../../service/tenancy/index.js';

/**
 * Single sign-on providers (docs/configuration.md, "Single sign-on"), from the environment: each
 * provider is a NAME (letters and digits) and its variables
 *
 *     DOCPIPE_LOGIN_OIDC_<NAME>_ISSUER         https://login.example.com (its discovery is read)
 *     DOCPIPE_LOGIN_OIDC_<NAME>_CLIENT_ID
 *     DOCPIPE_LOGIN_OIDC_<NAME>_CLIENT_SECRET  absent: a public client (PKCE alone)
 *     DOCPIPE_LOGIN_OIDC_<NAME>_DOMAINS        example.com,example.dk: the addresses it logs in
 *     DOCPIPE_LOGIN_OIDC_<NAME>_COMPANY        the company id its people are members of
 *     DOCPIPE_LOGIN_OIDC_<NAME>_TIMEOUT_MS     each request to it (default 5000)
 *
 * Every problem is reported, named by its variable; a secret's value never is.
 */
export const LOGIN_OIDC_PREFIX = 'DOCPIPE_LOGIN_OIDC_';
const MEMBERS = ['ISSUER', 'CLIENT_ID', 'CLIENT_SECRET', 'DOMAINS', 'COMPANY', 'TIMEOUT_MS'];
const VARIABLE = new RegExp(`^${LOGIN_OIDC_PREFIX}([A-Z0-9]+)_(${MEMBERS.join('|')})$`);
const DEFAULT_TIMEOUT_MS = 5000;

export function loginOidcConfigFrom(env: NodeJS.ProcessEnv, problems: string[]): LoginOidcConfig {
  const byName = new Map<string, Map<string, string>>();
  for (const [key, value] of Object.entries(env)) {
    if (!key.startsWith(LOGIN_OIDC_PREFIX) || !value) continue;
    const m = VARIABLE.exec(key);
    if (!m) {
      problems.push(
        `${key} is no single sign-on variable: use ${LOGIN_OIDC_PREFIX}<NAME>_{${MEMBERS.join(',')}} with a NAME of letters and digits`,
      );
      continue;
    }
    const [, name = '', member = ''] = m;
    let members = byName.get(name);
    if (!members) byName.set(name, (members = new Map<string, string>()));
    members.set(member, value.trim());
  }
  const providers: LoginOidcProvider[] = [];
  const domainOwner = new Map<string, string>();
  for (const [name, members] of [...byName].sort(([a], [b]) => a.localeCompare(b))) {
    const at = (member: string) => `${LOGIN_OIDC_PREFIX}${name}_${member}`;
    const before = problems.length;
    const need = (member: string): string => {
      const value = members.get(member);
      if (value === undefined || value === '') problems.push(`${at(member)} must be set`);
      return value ?? '';
    };
    const issuer = need('ISSUER');
    const issuerWhy = issuer === '' ? undefined : issuerProblem(issuer);
    if (issuerWhy) problems.push(`${at('ISSUER')} ${issuerWhy} (got "${issuer}")`);
    const clientId = need('CLIENT_ID');
    const clientSecret = members.get('CLIENT_SECRET') || undefined;
    const company = need('COMPANY');
    const companyWhy = company === '' ? undefined : companyIdProblem(company);
    if (companyWhy) problems.push(`${at('COMPANY')}: ${companyWhy}`);
    const domains = need('DOMAINS')
      .split(',')
      .map((d) => d.trim().toLowerCase())
      .filter((d) => d !== '');
    for (const domain of domains) {
      if (emailDomain(`x@${domain}`) !== domain || !domain.includes('.'))
        problems.push(`${at('DOMAINS')}: "${domain}" is no e-mail domain (example.com)`);
      const other = domainOwner.get(domain);
      if (other !== undefined)
        problems.push(
          `${at('DOMAINS')}: ${domain} is also ${other}'s: give each domain one provider`,
        );
      domainOwner.set(domain, name);
    }
    if (members.has('DOMAINS') && domains.length === 0)
      problems.push(`${at('DOMAINS')} must name at least one domain`);
    let timeoutMs = DEFAULT_TIMEOUT_MS;
    const timeout = members.get('TIMEOUT_MS');
    if (timeout !== undefined) {
      timeoutMs = Number(timeout);
      if (!/^\d+$/.test(timeout) || timeoutMs < 100 || timeoutMs > 60_000)
        problems.push(
          `${at('TIMEOUT_MS')} must be a whole number of ms from 100 to 60000 (got "${timeout}")`,
        );
    }
    // A provider with any problem is left out whole: half a provider logs no one in.
    if (problems.length !== before) continue;
    providers.push({
      name: name.toLowerCase(),
      issuer,
      clientId,
      ...(clientSecret === undefined ? {} : { clientSecret }),
      domains,
      company,
      timeoutMs,
    });
  }
  return { providers };
}
