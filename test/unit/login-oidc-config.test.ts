import { describe, expect, it } from 'vitest';
import { loginOidcConfigFrom } from '../../src/app/config/login-oidc-config.js';
import { loadConfig } from '../../src/app/config/index.js';
import { ssoProviderFor } from '../../src/service/accounts/index.js';

const ACME = {
  DOCPIPE_LOGIN_OIDC_ACME_ISSUER: 'https://login.acme.example',
  DOCPIPE_LOGIN_OIDC_ACME_CLIENT_ID: 'docpipe',
  DOCPIPE_LOGIN_OIDC_ACME_CLIENT_SECRET: 'a-client-secret-not-to-echo',
  DOCPIPE_LOGIN_OIDC_ACME_DOMAINS: 'Acme.example, acme.dk',
  DOCPIPE_LOGIN_OIDC_ACME_COMPANY: 'acme',
};

describe('single sign-on configuration', () => {
  it('reads each provider from its DOCPIPE_LOGIN_OIDC_<NAME>_ variables', () => {
    const problems: string[] = [];
    const config = loginOidcConfigFrom(
      {
        ...ACME,
        DOCPIPE_LOGIN_OIDC_BETA_ISSUER: 'http://127.0.0.1:9000',
        DOCPIPE_LOGIN_OIDC_BETA_CLIENT_ID: 'public',
        DOCPIPE_LOGIN_OIDC_BETA_DOMAINS: 'beta.example',
        DOCPIPE_LOGIN_OIDC_BETA_COMPANY: 'beta',
        DOCPIPE_LOGIN_OIDC_BETA_TIMEOUT_MS: '2000',
      },
      problems,
    );
    expect(problems).toEqual([]);
    expect(config.providers).toEqual([
      {
        name: 'acme',
        issuer: 'https://login.acme.example',
        clientId: 'docpipe',
        clientSecret: 'a-client-secret-not-to-echo',
        domains: ['acme.example', 'acme.dk'],
        company: 'acme',
        timeoutMs: 5000,
      },
      {
        name: 'beta',
        issuer: 'http://127.0.0.1:9000',
        clientId: 'public',
        domains: ['beta.example'],
        company: 'beta',
        timeoutMs: 2000,
      },
    ]);
    expect(ssoProviderFor(config, 'ann@ACME.example')?.name).toBe('acme');
    expect(ssoProviderFor(config, 'bo@beta.example')?.name).toBe('beta');
    expect(ssoProviderFor(config, 'cy@sub.acme.example')).toBeUndefined();
    expect(ssoProviderFor(config, 'no address')).toBeUndefined();
  });

  it('is empty without variables, and part of the dashboard configuration', () => {
    expect(loginOidcConfigFrom({}, [])).toEqual({ providers: [] });
    expect(loadConfig({ ...ACME }).dashboard.loginOidc.providers.map((p) => p.name)).toEqual([
      'acme',
    ]);
  });

  it('names every problem by its variable, never a secret, and leaves such a provider out', () => {
    const problems: string[] = [];
    const config = loginOidcConfigFrom(
      {
        ...ACME,
        DOCPIPE_LOGIN_OIDC_ACME_ISSUER: 'http://login.acme.example',
        DOCPIPE_LOGIN_OIDC_OTHER_ISSUER: 'https://login.other.example',
        DOCPIPE_LOGIN_OIDC_OTHER_DOMAINS: 'acme.dk,not a domain',
        DOCPIPE_LOGIN_OIDC_OTHER_COMPANY: 'Not An Id!',
        DOCPIPE_LOGIN_OIDC_OTHER_TIMEOUT_MS: 'soon',
        DOCPIPE_LOGIN_OIDC_OTHER_CLIENTID: 'typo',
      },
      problems,
    );
    expect(config.providers).toEqual([]);
    const text = problems.join('\n');
    expect(text).toContain('DOCPIPE_LOGIN_OIDC_ACME_ISSUER must be an https:// URL');
    expect(text).toContain('DOCPIPE_LOGIN_OIDC_OTHER_CLIENT_ID must be set');
    expect(text).toContain('DOCPIPE_LOGIN_OIDC_OTHER_CLIENTID is no single sign-on variable');
    expect(text).toContain('"not a domain" is no e-mail domain');
    expect(text).toContain("acme.dk is also ACME's");
    expect(text).toContain('DOCPIPE_LOGIN_OIDC_OTHER_COMPANY');
    expect(text).toContain('DOCPIPE_LOGIN_OIDC_OTHER_TIMEOUT_MS');
    expect(text).not.toContain('a-client-secret-not-to-echo');
  });
});
