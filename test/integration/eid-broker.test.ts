import { generateKeyPairSync } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { outageOf } from '../../src/base/errors/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import {
  EidBrokerUnavailableError,
  EidBrokers,
  EidError,
  cprMatches,
  type EidBrokerConfig,
  type EidConfig,
  type EidFailureReason,
  type EidPending,
} from '../../src/service/eid/index.js';
import { composedServer } from '../helpers/composed-server.js';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';

/**
 * eID logins through a real OpenID Connect provider (oidc-provider on loopback, standing in for a
 * MitID broker): the whole round trip from start to identity, and each way a login is refused.
 * The signer's browser is fetch with a cookie jar, driven by test/helpers/oidc-provider.ts.
 */

const PUBLIC = 'http://127.0.0.1:9';
const CALLBACK = `${PUBLIC}/sign/eid/callback`;
const LOW = 'urn:grn:authn:dk:mitid:low';
const SUBSTANTIAL = 'urn:grn:authn:dk:mitid:substantial';
const HIGH = 'urn:grn:authn:dk:mitid:high';
const BANKID = 'urn:grn:authn:se:bankid';

let op: TestOidcProvider;

beforeAll(async () => {
  op = await startOidcProvider({
    redirectUris: [CALLBACK],
    accounts: {
      'mitid-anna': { name: 'Anna Hansen', cprNumberIdentifier: '0101901234' },
      'mitid-bo': { name: 'Bo Jensen' },
    },
  });
});

afterAll(() => op?.close());

function brokerConfig(issuer = op.issuer, more: Partial<EidBrokerConfig> = {}): EidConfig {
  return {
    brokers: [
      {
        name: 'mitid',
        issuer,
        clientId: op.clientId,
        clientSecret: op.clientSecret,
        clientAuth: 'client_secret_basic',
        schemes: {
          'urn:grn:authn:dk:mitid:low': LOW,
          'urn:grn:authn:dk:mitid:substantial': SUBSTANTIAL,
        },
        scopes: ['openid', 'profile', 'cpr'],
        cprClaim: 'cprNumberIdentifier',
        maxAuthAgeSeconds: 300,
        timeoutMs: 2000,
        authorizationParams: {},
        ...more,
      },
    ],
  };
}

function brokers(config = brokerConfig()): EidBrokers {
  return new EidBrokers(config, { publicUrl: PUBLIC });
}

/** The failure `promise` ends with, which must be an EidError for `reason`. */
async function refused(promise: Promise<unknown>, reason: EidFailureReason): Promise<EidError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EidError);
  expect((err as EidError).reason).toBe(reason);
  expect((err as EidError).slug).toBe('validation-failed');
  return err as EidError;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('an eID login through the broker', () => {
  it('starts at the broker with the scheme’s acr, and finishes with the signer’s claims, acr and CPR', async () => {
    const eid = brokers();
    expect(eid.served()).toEqual([LOW, SUBSTANTIAL]);
    const { url, pending } = await eid.start(SUBSTANTIAL, { redirectUri: CALLBACK });
    const asked = new URL(url);
    expect(asked.origin).toBe(op.issuer);
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({
      client_id: op.clientId,
      redirect_uri: CALLBACK,
      response_type: 'code',
      acr_values: SUBSTANTIAL,
      max_age: '300',
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    // The pending login survives a trip through JSON (Redis, a signed cookie).
    const kept = JSON.parse(JSON.stringify(pending)) as EidPending;

    const callback = await op.login(url, { account: 'mitid-anna' });
    expect(callback.href.startsWith(`${CALLBACK}?`)).toBe(true);
    const before = Date.now();
    const identity = await eid.finish(callback.href, kept);
    expect(identity).toMatchObject({
      scheme: SUBSTANTIAL,
      broker: 'mitid',
      issuer: op.issuer,
      subject: 'mitid-anna',
      acr: SUBSTANTIAL,
      cpr: '0101901234',
    });
    expect(Math.abs(Date.parse(identity.authTime) - before)).toBeLessThan(60_000);
    // The ID token's claims and the user info's, without the protocol's and without the CPR.
    expect(identity.claims).toMatchObject({
      sub: 'mitid-anna',
      iss: op.issuer,
      aud: op.clientId,
      acr: SUBSTANTIAL,
      name: 'Anna Hansen',
    });
    expect(identity.claims).not.toHaveProperty('nonce');
    expect(identity.claims).not.toHaveProperty('cprNumberIdentifier');
    expect(JSON.stringify(identity.claims)).not.toContain('0101901234');
  });

  it('matches the CPR number the recipient was given against the broker’s, and tells another apart', async () => {
    const eid = brokers();
    const { url, pending } = await eid.start(LOW, { redirectUri: CALLBACK });
    const callback = await op.login(url, { account: 'mitid-anna' });
    // As a route has it: the request's path and query.
    const identity = await eid.finish(`${callback.pathname}${callback.search}`, pending);
    expect(identity.cpr).toBe('0101901234');
    expect(cprMatches('010190-1234', identity.cpr!)).toBe(true);
    expect(cprMatches('010190-1235', identity.cpr!)).toBe(false);
  });

  it('gives no CPR for a signer whose broker sent none', async () => {
    const eid = brokers();
    const { url, pending } = await eid.start(LOW, { redirectUri: CALLBACK });
    const identity = await eid.finish(await op.login(url, { account: 'mitid-bo' }), pending);
    expect(identity.subject).toBe('mitid-bo');
    expect(identity).not.toHaveProperty('cpr');
  });

  it('accepts a stronger MitID level than asked, and refuses a weaker one', async () => {
    const eid = brokers();
    const low = await eid.start(LOW, { redirectUri: CALLBACK });
    const stronger = await eid.finish(
      await op.login(low.url, { account: 'mitid-anna', acr: HIGH }),
      low.pending,
    );
    expect(stronger.acr).toBe(HIGH);

    const substantial = await eid.start(SUBSTANTIAL, { redirectUri: CALLBACK });
    const err = await refused(
      eid.finish(
        await op.login(substantial.url, { account: 'mitid-anna', acr: LOW }),
        substantial.pending,
      ),
      'acr-not-met',
    );
    expect(err.details).toEqual([{ field: 'eid.acr', message: expect.stringContaining(LOW) }]);
  });

  it('refuses a callback whose state is not the login’s, before asking the broker anything', async () => {
    const eid = brokers();
    const first = await eid.start(LOW, { redirectUri: CALLBACK });
    const second = await eid.start(LOW, { redirectUri: CALLBACK });
    const callback = await op.login(first.url, { account: 'mitid-anna' });
    // Another login's pending state: a callback for someone else's login.
    await refused(eid.finish(callback, second.pending), 'state-mismatch');
    const changed = new URL(callback);
    changed.searchParams.set('state', `${first.pending.state}x`);
    await refused(eid.finish(changed, first.pending), 'state-mismatch');
    changed.searchParams.delete('state');
    await refused(eid.finish(changed, first.pending), 'state-mismatch');
    // The code was not spent on those: the right pair still finishes.
    expect((await eid.finish(callback, first.pending)).subject).toBe('mitid-anna');
  });

  it('refuses a replayed callback: the code is redeemed once', async () => {
    const eid = brokers();
    const { url, pending } = await eid.start(LOW, { redirectUri: CALLBACK });
    const callback = await op.login(url, { account: 'mitid-anna' });
    expect((await eid.finish(callback, pending)).subject).toBe('mitid-anna');
    const err = await refused(eid.finish(callback, pending), 'code-rejected');
    expect(err.details[0]!.field).toBe('eid.code');
  });

  it('says a signer who cancelled at the broker cancelled', async () => {
    const eid = brokers();
    const { url, pending } = await eid.start(LOW, { redirectUri: CALLBACK });
    const callback = await op.cancel(url);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    await refused(eid.finish(callback, pending), 'cancelled');
  });

  it('refuses a login started too long ago, and a login older than the allowed age', async () => {
    let shift = 0;
    const eid = new EidBrokers(brokerConfig(), {
      publicUrl: PUBLIC,
      now: () => Date.now() + shift,
    });
    const a = await eid.start(LOW, { redirectUri: CALLBACK });
    const callbackA = await op.login(a.url, { account: 'mitid-anna' });
    shift = 16 * 60_000;
    await refused(eid.finish(callbackA, a.pending), 'expired');

    shift = 0;
    const b = await eid.start(LOW, { redirectUri: CALLBACK });
    const callbackB = await op.login(b.url, { account: 'mitid-anna' });
    // Our clock runs 6 minutes ahead: the broker's auth_time is past max_age (300 s) to us.
    shift = 6 * 60_000;
    await refused(eid.finish(callbackB, b.pending), 'stale-authentication');
  });

  it('refuses an unserved scheme, and a redirect URI outside the public URL', async () => {
    const eid = brokers();
    await refused(eid.start(BANKID, { redirectUri: CALLBACK }), 'unserved-scheme');
    await refused(eid.start('draw', { redirectUri: CALLBACK }), 'unserved-scheme');
    await expect(eid.start(LOW, { redirectUri: 'https://evil.example/cb' })).rejects.toThrow(
      TypeError,
    );
  });

  it('discovers the broker once for many logins', async () => {
    const eid = brokers();
    const before = op.discoveries();
    await eid.start(LOW, { redirectUri: CALLBACK });
    await Promise.all([
      eid.start(LOW, { redirectUri: CALLBACK }),
      eid.start(SUBSTANTIAL, { redirectUri: CALLBACK }),
    ]);
    expect(op.discoveries() - before).toBe(1);
  });
});

/**
 * A broker that takes connections and never answers (the worst kind of down: nothing refuses),
 * counting them.
 */
async function silentBroker(): Promise<{ issuer: string; connections: () => number }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  return { issuer: `http://127.0.0.1:${port}`, connections: () => connections };
}

describe('a client that proves itself with its own key (private_key_jwt)', () => {
  it('logs a signer in, and the broker refuses a client with another key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = {
      ...publicKey.export({ format: 'jwk' }),
      kid: 'docpipe-1',
      use: 'sig',
      alg: 'ES256',
    };
    const keyed = await startOidcProvider({
      redirectUris: [CALLBACK],
      accounts: { 'mitid-anna': { name: 'Anna Hansen' } },
      clientJwks: { keys: [jwk] },
    });
    onTestFinished(() => keyed.close());
    const config = (pem: string): EidConfig => ({
      brokers: [
        {
          ...brokerConfig(keyed.issuer).brokers[0]!,
          clientId: keyed.clientId,
          clientSecret: undefined,
          clientAuth: 'private_key_jwt',
          privateKey: pem,
          privateKeyId: 'docpipe-1',
        },
      ],
    });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const eid = brokers(config(pem));
    const { url, pending } = await eid.start(LOW, { redirectUri: CALLBACK });
    const identity = await eid.finish(await keyed.login(url, { account: 'mitid-anna' }), pending);
    expect(identity).toMatchObject({
      subject: 'mitid-anna',
      acr: LOW,
      claims: { name: 'Anna Hansen' },
    });

    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const impostor = brokers(config(other.export({ format: 'pem', type: 'pkcs8' }).toString()));
    const second = await impostor.start(LOW, { redirectUri: CALLBACK });
    const err = await refused(
      impostor.finish(await keyed.login(second.url, { account: 'mitid-anna' }), second.pending),
      'broker-refused',
    );
    expect(err.details[0]!.message).toContain('invalid_client');
  });
});

describe('a broker that is down', () => {
  it('fails the eID start as the outage eid-broker-unavailable, and names no secret', async () => {
    const issuer = `http://127.0.0.1:${await closedPort()}`;
    const eid = brokers(brokerConfig(issuer));
    // The schemes are the configuration's: known without the broker.
    expect(eid.served()).toEqual([LOW, SUBSTANTIAL]);
    const err = await eid.start(LOW, { redirectUri: CALLBACK }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EidBrokerUnavailableError);
    expect(outageOf(err)).toBe('eid-broker-unavailable');
    expect((err as Error).message).toContain(issuer);
    expect((err as Error).message).toContain('ECONNREFUSED');
    expect((err as Error).message).not.toContain(op.clientSecret);
  });

  it('gives up on a broker that does not answer within the timeout, and does not ask it again at once', async () => {
    const silent = await silentBroker();
    const eid = brokers(brokerConfig(silent.issuer, { timeoutMs: 1000 }));
    const started = performance.now();
    const err = await eid.start(LOW, { redirectUri: CALLBACK }).catch((e: unknown) => e);
    expect(outageOf(err)).toBe('eid-broker-unavailable');
    // openid-client counts its timeout in whole seconds: 1 s, and not its default 30.
    expect(performance.now() - started).toBeLessThan(5000);
    expect(silent.connections()).toBe(1);
    await expect(eid.start(SUBSTANTIAL, { redirectUri: CALLBACK })).rejects.toBeInstanceOf(
      EidBrokerUnavailableError,
    );
    expect(silent.connections()).toBe(1);
  });
});

describe('case creation with a broker configured', () => {
  let redis: RedisOnly;
  let t: TestDatabase;
  beforeAll(async () => {
    [redis, t] = await Promise.all([startRedisOnly(), testDatabase()]);
  });
  afterAll(async () => {
    await Promise.all([redis?.close(), t?.close()]);
  });

  it('accepts the schemes it serves, refuses the others with their paths, and never asks the broker', async () => {
    const silent = await silentBroker();
    const { app, keys } = await composedServer(redis, t, {
      env: {
        DOCPIPE_EID_ISSUER: silent.issuer,
        DOCPIPE_EID_CLIENT_ID: 'docpipe',
        DOCPIPE_EID_CLIENT_SECRET: 'a-client-secret',
        DOCPIPE_EID_SCHEMES: `${SUBSTANTIAL},${LOW}`,
      },
    });
    await new CompanyRepository(t.db).create({ id: 'acme', name: 'Acme' });
    const owner = await new UserRepository(t.db).add('acme', {
      email: 'owner@acme.example',
      name: 'Owner',
    });
    const { key } = await keys.create({ company: 'acme', user: owner.email, name: 'eid' });
    const create = async (body: object) => {
      const res = await app.inject({
        method: 'POST',
        url: '/v3/api/cases',
        headers: { authorization: `Bearer ${key}` },
        payload: { title: 'eID', state: 'draft', senderEmail: owner.email, ...body },
      });
      return {
        status: res.statusCode,
        body: res.json<{
          case?: { notices?: unknown[] };
          error?: string;
          details?: unknown[];
        }>(),
      };
    };

    const draw = await create({ settings: { signingSchemas: ['draw'] } });
    expect(draw.status, JSON.stringify(draw.body)).toBe(201);
    const mitid = await create({
      settings: { signingSchemas: [LOW, 'draw'] },
      recipients: [{ name: 'Anna', email: 'anna@example.com', signingSchema: SUBSTANTIAL }],
    });
    expect(mitid.status, JSON.stringify(mitid.body)).toBe(201);

    // No schemes named: the standard ones with a broker, in the spec's order.
    const defaulted = await create({});
    expect(defaulted.status).toBe(201);
    expect(defaulted.body.case?.notices).toEqual([
      { code: 'default-signing-schemas', message: expect.any(String), using: [LOW, SUBSTANTIAL] },
    ]);

    const unserved = await create({
      settings: { signingSchemas: ['draw', BANKID] },
      recipients: [{ name: 'Bo', email: 'bo@example.com', signingSchema: BANKID }],
    });
    expect(unserved.status).toBe(400);
    expect(unserved.body.error).toBe('validation-failed');
    expect(unserved.body.details).toEqual([
      { field: 'recipients[0].signingSchema', message: expect.stringContaining(BANKID) },
      { field: 'settings.signingSchemas[1]', message: expect.stringContaining(BANKID) },
    ]);
    // The broker (which would have hung every request) was never asked.
    expect(silent.connections()).toBe(0);
  });
});
