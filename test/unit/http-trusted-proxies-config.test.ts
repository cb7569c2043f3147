import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/app/config/index.js';

/** DOCPIPE_HTTP_TRUSTED_PROXIES and DOCPIPE_SIGNING_ATTEMPTS_PER_MINUTE (issue 31). */
describe('the trusted proxies and the signs per link', () => {
  it('trusts no proxy and counts ten signs a link by default', () => {
    const { http } = loadConfig({});
    expect(http.trustedProxies).toEqual([]);
    expect(http.signingAttemptsPerMinute).toBe(10);
  });

  it('reads addresses, ranges and proxy-addr’s names', () => {
    const { http } = loadConfig({
      DOCPIPE_HTTP_TRUSTED_PROXIES: ' 10.0.0.1, 10.1.0.0/16 ,fd00::/8,::1,loopback',
      DOCPIPE_SIGNING_ATTEMPTS_PER_MINUTE: '0',
    });
    expect(http.trustedProxies).toEqual(['10.0.0.1', '10.1.0.0/16', 'fd00::/8', '::1', 'loopback']);
    expect(http.signingAttemptsPerMinute).toBe(0);
  });

  it('refuses what is not an address or a range, naming each', () => {
    let caught: unknown;
    try {
      loadConfig({ DOCPIPE_HTTP_TRUSTED_PROXIES: 'proxy.example,10.0.0.0/33,10.0.0.1/8/2,*' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems.filter((p) =>
      p.startsWith('DOCPIPE_HTTP_TRUSTED_PROXIES'),
    );
    expect(problems.map((p) => /"([^"]*)"/.exec(p)?.[1])).toEqual([
      'proxy.example',
      '10.0.0.0/33',
      '10.0.0.1/8/2',
      '*',
    ]);
  });
});
