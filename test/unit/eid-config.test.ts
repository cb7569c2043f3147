import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, eidConfigFrom, loadConfig } from '../../src/app/config/index.js';

/** The eID brokers' configuration (docs/configuration.md, eID brokers): env and file forms. */

const MITID_LOW = 'urn:grn:authn:dk:mitid:low';
const MITID_SUBSTANTIAL = 'urn:grn:authn:dk:mitid:substantial';
const BANKID = 'urn:grn:authn:se:bankid';

const ONE = {
  DOCPIPE_EID_ISSUER: 'https://acme.idura.broker',
  DOCPIPE_EID_CLIENT_ID: 'urn:my:application:identifier:1234',
  DOCPIPE_EID_CLIENT_SECRET: 'the-client-secret',
  DOCPIPE_EID_SCHEMES: `${MITID_LOW},${MITID_SUBSTANTIAL}`,
};

function parse(env: Record<string, string>, files: Record<string, string> = {}) {
  const problems: string[] = [];
  const config = eidConfigFrom(env, problems, (path) => {
    const text = files[path];
    if (text === undefined) throw new Error(`ENOENT: ${path}`);
    return text;
  });
  return { config, problems };
}

describe('the eID configuration from the environment', () => {
  it('has no broker when nothing is set', () => {
    expect(parse({})).toEqual({ config: { brokers: [] }, problems: [] });
    expect(loadConfig({}).eid).toEqual({ brokers: [] });
  });

  it('reads one broker, each scheme with its own identifier as acr, and the defaults', () => {
    expect(parse(ONE)).toEqual({
      problems: [],
      config: {
        brokers: [
          {
            name: 'eid',
            issuer: 'https://acme.idura.broker',
            clientId: 'urn:my:application:identifier:1234',
            clientSecret: 'the-client-secret',
            clientAuth: 'client_secret_basic',
            schemes: { [MITID_LOW]: MITID_LOW, [MITID_SUBSTANTIAL]: MITID_SUBSTANTIAL },
            scopes: ['openid'],
            maxAuthAgeSeconds: 300,
            timeoutMs: 5000,
            authorizationParams: {},
          },
        ],
      },
    });
  });

  it('takes scheme=acr pairs, JSON schemes, scopes, the CPR claim, limits and more parameters', () => {
    const { config, problems } = parse({
      ...ONE,
      DOCPIPE_EID_SCHEMES: `${BANKID}=urn:grn:authn:se:bankid:same-device ${MITID_LOW}`,
      DOCPIPE_EID_CPR_CLAIM: 'dk.cpr',
      DOCPIPE_EID_SCOPES: 'openid ssn',
      DOCPIPE_EID_MAX_AUTH_AGE_S: '120',
      DOCPIPE_EID_TIMEOUT_MS: '3000',
      DOCPIPE_EID_CLIENT_AUTH: 'client_secret_post',
      DOCPIPE_EID_AUTH_PARAMS: 'ui_locales=da&login_hint=x',
    });
    expect(problems).toEqual([]);
    expect(config.brokers[0]).toMatchObject({
      schemes: { [BANKID]: 'urn:grn:authn:se:bankid:same-device', [MITID_LOW]: MITID_LOW },
      cprClaim: 'dk.cpr',
      scopes: ['openid', 'ssn'],
      maxAuthAgeSeconds: 120,
      timeoutMs: 3000,
      clientAuth: 'client_secret_post',
      authorizationParams: { ui_locales: 'da', login_hint: 'x' },
    });
    const json = parse({ ...ONE, DOCPIPE_EID_SCHEMES: JSON.stringify({ [BANKID]: 'bankid' }) });
    expect(json.config.brokers[0]!.schemes).toEqual({ [BANKID]: 'bankid' });
  });

  it('reports every problem at once, naming the variable, never the secret', () => {
    const { config, problems } = parse({
      DOCPIPE_EID_ISSUER: 'http://broker.example',
      DOCPIPE_EID_CLIENT_SECRET: 'the-client-secret',
      DOCPIPE_EID_SCHEMES: `draw,urn:grn:authn:dk:nemid,${MITID_LOW}=two words`,
      DOCPIPE_EID_SCOPES: 'profile',
      DOCPIPE_EID_TIMEOUT_MS: '0',
      DOCPIPE_EID_CLIENT_AUTH: 'tls_client_auth',
      DOCPIPE_EID_AUTH_PARAMS: 'acr_values=weak',
    });
    expect(config.brokers).toEqual([]);
    expect(problems).toEqual([
      'DOCPIPE_EID_ISSUER must be an https:// URL (http:// only on a loopback address such as 127.0.0.1) (got "http://broker.example")',
      'DOCPIPE_EID_CLIENT_ID must be a non-empty string',
      'DOCPIPE_EID_CLIENT_AUTH must be one of client_secret_basic, client_secret_post, private_key_jwt, none (got "tls_client_auth")',
      expect.stringMatching(
        /^DOCPIPE_EID_SCHEMES: "draw" is no eID scheme \(known: urn:grn:authn:dk:mitid:low, /,
      ),
      expect.stringMatching(/^DOCPIPE_EID_SCHEMES: "urn:grn:authn:dk:nemid" is no eID scheme/),
      expect.stringMatching(/^DOCPIPE_EID_SCHEMES: "words" is no eID scheme/),
      'DOCPIPE_EID_SCOPES must include openid (got "profile")',
      'DOCPIPE_EID_TIMEOUT_MS must be a positive integer (got "0")',
      'DOCPIPE_EID_AUTH_PARAMS may not set acr_values: docpipe sets them',
    ]);
    expect(problems.join('\n')).not.toContain('the-client-secret');
  });

  it('takes plain http on a loopback issuer only (the tests’ provider)', () => {
    for (const issuer of ['http://127.0.0.1:4000', 'http://localhost:4000', 'http://[::1]:4000'])
      expect(parse({ ...ONE, DOCPIPE_EID_ISSUER: issuer }).problems).toEqual([]);
    expect(parse({ ...ONE, DOCPIPE_EID_ISSUER: 'https://u:p@broker.example' }).problems).toEqual([
      'DOCPIPE_EID_ISSUER must have no query, fragment, user or password (got "https://u:p@broker.example")',
    ]);
  });

  it('refuses a variable set without the issuer, and a secret with client auth none', () => {
    expect(parse({ DOCPIPE_EID_CLIENT_ID: 'x' }).problems).toEqual([
      "DOCPIPE_EID_CLIENT_ID is set without DOCPIPE_EID_ISSUER: set the broker's issuer too, or none of them",
    ]);
    expect(parse({ ...ONE, DOCPIPE_EID_CLIENT_AUTH: 'none' }).problems).toEqual([
      'DOCPIPE_EID_CLIENT_SECRET is given, and DOCPIPE_EID_CLIENT_AUTH is none: leave one out',
    ]);
    const { DOCPIPE_EID_CLIENT_SECRET: _, ...publicClient } = ONE;
    expect(parse(publicClient).config.brokers[0]!.clientAuth).toBe('none');
  });

  it('takes a private key for private_key_jwt, and refuses a weak or unreadable one', () => {
    const pem = (key: KeyObject) => key.export({ format: 'pem', type: 'pkcs8' }).toString();
    const rsa = pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
    const weak = pem(generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey);
    const ed = pem(generateKeyPairSync('ed25519').privateKey);
    const { DOCPIPE_EID_CLIENT_SECRET: _, ...keyed } = ONE;
    const files = { '/k/rsa.pem': rsa, '/k/weak.pem': weak, '/k/ed.pem': ed, '/k/text': 'hello' };
    const withKey = (file: string, more: Record<string, string> = {}) =>
      parse({ ...keyed, DOCPIPE_EID_PRIVATE_KEY_FILE: file, ...more }, files);

    const good = withKey('/k/rsa.pem', { DOCPIPE_EID_PRIVATE_KEY_ID: 'k1' });
    expect(good.problems).toEqual([]);
    expect(good.config.brokers[0]).toMatchObject({
      clientAuth: 'private_key_jwt',
      privateKey: rsa,
      privateKeyId: 'k1',
    });
    expect(withKey('/k/weak.pem').problems).toEqual([
      'DOCPIPE_EID_PRIVATE_KEY_FILE: /k/weak.pem is an RSA key of 1024 bits: 2048 at least',
    ]);
    expect(withKey('/k/ed.pem').problems).toEqual([
      'DOCPIPE_EID_PRIVATE_KEY_FILE: /k/ed.pem must be an RSA key or an EC P-256 key',
    ]);
    expect(withKey('/k/text').problems).toEqual([
      'DOCPIPE_EID_PRIVATE_KEY_FILE: /k/text is no PEM private key (unencrypted PKCS#8, PKCS#1 or SEC1)',
    ]);
    expect(withKey('/k/none').problems).toEqual([
      'DOCPIPE_EID_PRIVATE_KEY_FILE: /k/none cannot be read',
    ]);
    expect(parse({ ...keyed, DOCPIPE_EID_CLIENT_AUTH: 'private_key_jwt' }).problems).toEqual([
      'DOCPIPE_EID_CLIENT_AUTH private_key_jwt needs DOCPIPE_EID_PRIVATE_KEY_FILE',
    ]);
    expect(
      withKey('/k/rsa.pem', {
        DOCPIPE_EID_CLIENT_AUTH: 'client_secret_post',
        DOCPIPE_EID_CLIENT_SECRET: 's',
      }).problems,
    ).toEqual([
      'DOCPIPE_EID_PRIVATE_KEY_FILE is given, and DOCPIPE_EID_CLIENT_AUTH is client_secret_post: set it to private_key_jwt, or leave the key out',
    ]);
  });

  it('makes loadConfig throw a ConfigError', () => {
    expect(() => loadConfig({ DOCPIPE_EID_ISSUER: 'https://broker.example' })).toThrow(ConfigError);
  });
});

describe('the eID brokers file', () => {
  const file = (brokers: unknown) => ({ '/etc/docpipe/eid.json': JSON.stringify({ brokers }) });
  const env = { DOCPIPE_EID_BROKERS_FILE: '/etc/docpipe/eid.json', BANKID_SECRET: 'env-secret' };

  it('reads several brokers, a secret from a variable the file names', () => {
    const { config, problems } = parse(
      env,
      file([
        {
          name: 'mitid',
          issuer: 'https://mitid.broker.example',
          clientId: 'a',
          clientSecret: 's',
          schemes: { [MITID_SUBSTANTIAL]: MITID_SUBSTANTIAL },
          cprClaim: 'cprNumberIdentifier',
          scopes: ['openid', 'ssn'],
        },
        {
          name: 'bankid',
          issuer: 'https://bankid.broker.example/oidc',
          clientId: 'b',
          clientSecretEnv: 'BANKID_SECRET',
          schemes: [BANKID],
          authorizationParams: { idp_values: 'sbid' },
        },
      ]),
    );
    expect(problems).toEqual([]);
    expect(config.brokers.map((b) => [b.name, b.clientSecret, b.schemes])).toEqual([
      ['mitid', 's', { [MITID_SUBSTANTIAL]: MITID_SUBSTANTIAL }],
      ['bankid', 'env-secret', { [BANKID]: BANKID }],
    ]);
    expect(config.brokers[1]!.authorizationParams).toEqual({ idp_values: 'sbid' });
  });

  it('refuses unknown members, a scheme served twice, a missing name and a missing variable', () => {
    const broker = {
      issuer: 'https://x.example',
      clientId: 'a',
      clientSecret: 's',
      schemes: [BANKID],
    };
    const { problems } = parse(
      env,
      file([
        { ...broker, name: 'one' },
        { ...broker, name: 'two' },
        { ...broker, clientSecret: undefined, clientSecretEnv: 'NOT_SET', clientSecrett: 'typo' },
      ]),
    );
    expect(problems).toEqual([
      'DOCPIPE_EID_BROKERS_FILE brokers[2].clientSecrett: unknown member',
      'DOCPIPE_EID_BROKERS_FILE brokers[2].clientSecretEnv must name an environment variable that is set (got "NOT_SET")',
      'DOCPIPE_EID_BROKERS_FILE brokers[2].name is needed: the file has several brokers',
      `DOCPIPE_EID_BROKERS_FILE: ${BANKID} is served by both one and two: give each scheme one broker`,
    ]);
  });

  it('refuses a file that is missing, no JSON, or empty, and the file beside the variables', () => {
    expect(parse(env).problems).toEqual([
      'DOCPIPE_EID_BROKERS_FILE: /etc/docpipe/eid.json cannot be read',
    ]);
    expect(parse(env, { '/etc/docpipe/eid.json': '{brokers' }).problems[0]).toMatch(
      /^DOCPIPE_EID_BROKERS_FILE: \/etc\/docpipe\/eid.json is no JSON/,
    );
    expect(parse(env, file([])).problems).toEqual([
      'DOCPIPE_EID_BROKERS_FILE: /etc/docpipe/eid.json must hold {"brokers": [...]} with at least one broker',
    ]);
    expect(parse({ ...env, ...ONE }, file([])).problems[0]).toBe(
      'DOCPIPE_EID_BROKERS_FILE and DOCPIPE_EID_ISSUER, DOCPIPE_EID_CLIENT_ID, DOCPIPE_EID_CLIENT_SECRET, DOCPIPE_EID_SCHEMES are both set: configure the brokers in the file alone',
    );
  });
});
