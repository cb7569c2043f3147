import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/app/config/index.js';
import { testDataSweep } from '../../src/app/wiring/index.js';
import { RetentionSweeper, type RecordSweepOutcome } from '../../src/jobs/retention/index.js';
import { createLogger } from '../../src/base/log/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import type { Database } from '../../src/service/db/index.js';
import {
  KeyStore,
  keyTokenPrefix,
  newToken,
  tokenEnvironment,
  tokenId,
  type KeyEnvironment,
} from '../../src/service/keys/index.js';
import { authenticateV2, authenticateV3 } from '../../src/surfaces/http/common/auth.js';
import { createHttpApp } from '../../src/surfaces/http/common/create-app.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * The environment of spec 5.4 in an API key's prefix: the formats, the refusal of the other
 * environment's keys (before any query, with a message saying which key it was), and the
 * configuration that chooses the environment and the test data's lifetime.
 */

const ID = '0123456789abcdef';
const SECRET = 'a'.repeat(64);
const DAY = 86_400_000;

/** A database any use of which fails the test: a key refused by its prefix asks nothing. */
const untouchable = new Proxy(
  {},
  {
    get(_target, property) {
      throw new Error(`the database was asked (${String(property)})`);
    },
  },
) as Kysely<Database>;

const storeIn = (environment: KeyEnvironment) =>
  new KeyStore({ db: untouchable, databaseUrl: 'postgresql:///x', environment });

describe('API key tokens and their environment', () => {
  it('are dp_live_ in production and dp_test_ in the test environment, with the id after', () => {
    for (const [environment, prefix] of [
      ['production', 'dp_live_'],
      ['test', 'dp_test_'],
    ] as const) {
      expect(keyTokenPrefix(environment)).toBe(prefix);
      const made = Array.from({ length: 20 }, () => newToken(environment));
      for (const { id, token } of made) {
        expect(token).toMatch(new RegExp(`^${prefix}[0-9a-f]{16}_[0-9a-f]{64}$`));
        expect(token.slice(prefix.length, prefix.length + 16)).toBe(id);
        expect(tokenId(token)).toBe(id);
        expect(tokenEnvironment(token)).toBe(environment);
      }
      expect(new Set(made.map((m) => m.token)).size).toBe(20);
    }
    // Without an environment: production's, as every caller before environments meant.
    expect(newToken().token.startsWith('dp_live_')).toBe(true);
  });

  it('read a key made before environments (dp_<id>_<secret>) as a production key', () => {
    const legacy = `dp_${ID}_${SECRET}`;
    expect(tokenId(legacy)).toBe(ID);
    expect(tokenEnvironment(legacy)).toBe('production');
  });

  it('give neither id nor environment for anything that is not exactly a key', () => {
    for (const bad of [
      `dp_prod_${ID}_${SECRET}`,
      `dp_TEST_${ID}_${SECRET}`,
      `dp_test__${ID}_${SECRET}`,
      `dp_test_${ID}_${SECRET}a`,
      `dp_test_${ID.slice(1)}_${SECRET}`,
      `dp_live_test_${ID}_${SECRET}`,
      `dp-test_${ID}_${SECRET}`,
      `dp_test_${ID}`,
      `dp_live_${ID}_${SECRET} `,
    ]) {
      expect(tokenId(bad), bad).toBeUndefined();
      expect(tokenEnvironment(bad), bad).toBeUndefined();
    }
  });
});

describe('a key store of one environment', () => {
  it('refuses the other environment’s keys by their prefix, without asking the database', async () => {
    const test = `dp_test_${ID}_${SECRET}`;
    const live = `dp_live_${ID}_${SECRET}`;
    const legacy = `dp_${ID}_${SECRET}`;
    expect(await storeIn('production').verify(test)).toEqual({
      ok: false,
      reason: 'test-key-in-production',
    });
    expect(await storeIn('test').verify(live)).toEqual({
      ok: false,
      reason: 'production-key-in-test',
    });
    expect(await storeIn('test').verify(legacy)).toEqual({
      ok: false,
      reason: 'production-key-in-test',
    });
    // Its own environment's keys are looked up: here, in a database that must not be asked.
    await expect(storeIn('production').verify(live)).rejects.toThrow(/the database was asked/);
    await expect(storeIn('production').verify(legacy)).rejects.toThrow(/the database was asked/);
    await expect(storeIn('test').verify(test)).rejects.toThrow(/the database was asked/);
  });

  it('is production unless told otherwise', () => {
    expect(new KeyStore({ db: untouchable, databaseUrl: 'postgresql:///x' }).environment).toBe(
      'production',
    );
  });
});

describe('the authentication hooks and a key of the other environment', () => {
  async function app(environment: KeyEnvironment) {
    const a = createHttpApp({ bodyLimit: 1024 });
    const keys = storeIn(environment);
    a.get('/v3/api/whoami', { onRequest: authenticateV3(keys) }, () => ({ ok: true }));
    a.get('/api/v2/whoami', { onRequest: authenticateV2(keys) }, () => ({ ok: true }));
    await a.ready();
    return a;
  }
  const get = async (a: Awaited<ReturnType<typeof app>>, url: string, token: string) => {
    const res = await a.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${token}` },
    });
    return {
      status: res.statusCode,
      challenge: res.headers['www-authenticate'],
      body: res.json<{ errors: { description: string }[] } & Record<string, unknown>>(),
    };
  };

  it('answers a test key on production 401 invalid-token, saying it is a test key and what to do', async () => {
    const a = await app('production');
    const v3 = await get(a, '/v3/api/whoami', `dp_test_${ID}_${SECRET}`);
    expect(v3).toEqual({
      status: 401,
      challenge: 'Bearer realm="docpipe", error="invalid_token"',
      body: {
        error: 'invalid-token',
        details: [
          {
            field: 'Authorization',
            message:
              'this is a test key (dp_test_...), and this is the production environment: use a production key (dp_live_...) here, or send the request to the test environment',
          },
        ],
      },
    });
    const v2 = await get(a, '/api/v2/whoami', `dp_test_${ID}_${SECRET}`);
    expect(v2.status).toBe(401);
    expect(v2.body).toEqual({
      errors: [
        {
          code: 401,
          message: 'Unauthorized',
          description:
            'Bearer token not valid: this is a test key (dp_test_), and this is the production environment. Use a production key (dp_live_) here, or send the request to the test environment',
        },
      ],
    });
    await a.close();
  });

  it('answers a production key, new or from before, on the test environment the other way round', async () => {
    const a = await app('test');
    for (const token of [`dp_live_${ID}_${SECRET}`, `dp_${ID}_${SECRET}`]) {
      const v3 = await get(a, '/v3/api/whoami', token);
      expect(v3.status).toBe(401);
      expect(v3.body).toEqual({
        error: 'invalid-token',
        details: [
          {
            field: 'Authorization',
            message:
              'this is a production key, and this is the test environment: use a test key (dp_test_...) made in the test environment here, or send the request to production',
          },
        ],
      });
      const v2 = await get(a, '/api/v2/whoami', token);
      expect(v2.status).toBe(401);
      expect(v2.body.errors[0]!.description).toMatch(
        /^Bearer token not valid: this is a production key, and this is the test environment\./,
      );
    }
    await a.close();
  });
});

describe('DOCPIPE_ENVIRONMENT and DOCPIPE_TEST_DATA_RETENTION', () => {
  it('are production, with no test data retention, by default', () => {
    const config = loadConfig({});
    expect(config.environment).toBe('production');
    expect(config.testDataRetentionMs).toBeUndefined();
  });

  it('are test with 30 days, or the duration given, or off', () => {
    expect(loadConfig({ DOCPIPE_ENVIRONMENT: 'test' })).toMatchObject({
      environment: 'test',
      testDataRetentionMs: 30 * DAY,
    });
    expect(
      loadConfig({ DOCPIPE_ENVIRONMENT: 'test', DOCPIPE_TEST_DATA_RETENTION: '7d' })
        .testDataRetentionMs,
    ).toBe(7 * DAY);
    expect(
      loadConfig({ DOCPIPE_ENVIRONMENT: 'test', DOCPIPE_TEST_DATA_RETENTION: '12h' })
        .testDataRetentionMs,
    ).toBe(12 * 3_600_000);
    expect(
      loadConfig({ DOCPIPE_ENVIRONMENT: 'test', DOCPIPE_TEST_DATA_RETENTION: 'off' })
        .testDataRetentionMs,
    ).toBeUndefined();
  });

  it('never clear production data, whatever the retention says', () => {
    const config = loadConfig({
      DOCPIPE_ENVIRONMENT: 'production',
      DOCPIPE_TEST_DATA_RETENTION: '1d',
    });
    expect(config.testDataRetentionMs).toBeUndefined();
  });

  function problems(env: Record<string, string>): string[] {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as ConfigError).problems;
    }
    throw new Error('the configuration was accepted');
  }

  it('name an unknown environment and a bad duration, each as a problem', () => {
    expect(problems({ DOCPIPE_ENVIRONMENT: 'staging' })).toEqual([
      'DOCPIPE_ENVIRONMENT must be production or test (got "staging"): each is an installation of its own, with its own database and keys',
    ]);
    expect(problems({ DOCPIPE_ENVIRONMENT: 'Test', DOCPIPE_TEST_DATA_RETENTION: '30' })).toEqual([
      'DOCPIPE_ENVIRONMENT must be production or test (got "Test"): each is an installation of its own, with its own database and keys',
      'DOCPIPE_TEST_DATA_RETENTION: "30" is not a duration: give a whole number and a unit, d (days), h (hours) or m (minutes), such as 90d, or off',
    ]);
    // A mistyped lifetime is refused in production too, where it does nothing yet.
    expect(problems({ DOCPIPE_TEST_DATA_RETENTION: '0d' })).toEqual([
      'DOCPIPE_TEST_DATA_RETENTION: "0d" is no time at all: give at least 1d, or off',
    ]);
  });
});

describe('the retention sweep of test cases', () => {
  const storage = () => new LocalStorage(testDir('key-environment-storage'));

  it('exists only in the test environment, with a retention and a database', () => {
    const db = untouchable;
    const production = loadConfig({ DOCPIPE_TEST_DATA_RETENTION: '1d' });
    expect(testDataSweep(production, db, storage())).toBeUndefined();
    const off = loadConfig({ DOCPIPE_ENVIRONMENT: 'test', DOCPIPE_TEST_DATA_RETENTION: 'off' });
    expect(testDataSweep(off, db, storage())).toBeUndefined();
    const test = loadConfig({ DOCPIPE_ENVIRONMENT: 'test' });
    expect(testDataSweep(test, undefined, storage())).toBeUndefined();
    expect(testDataSweep(test, db, storage())?.what).toBe('test cases and web-flows');
  });

  it('runs on the sweeper’s schedule even with storage’s retention off, and is told to stop', async () => {
    const base = {
      storage: storage(),
      redisUrl: 'redis://127.0.0.1:9',
      prefix: 'unused',
      logger: createLogger('silent', 'test'),
    };
    const storageOff = { uploadsMs: undefined, rendersMs: undefined, sweepEveryMs: 3_600_000 };
    expect(RetentionSweeper.start({ ...base, retention: storageOff })).toBeUndefined();
    const signals: AbortSignal[] = [];
    const outcome = new Promise<RecordSweepOutcome | Error>((resolve) => {
      const sweeper = RetentionSweeper.start({
        ...base,
        retention: storageOff,
        firstDelayMs: 0,
        records: {
          what: 'test cases',
          run(signal) {
            signals.push(signal);
            return Promise.resolve({ removed: 2, failures: [] });
          },
        },
        onRecordSweep: (o) => {
          resolve(o);
          void sweeper?.close();
        },
      });
      expect(sweeper).toBeDefined();
    });
    // No Redis answers at 127.0.0.1:9: storage's sweep was not tried, or this would be an Error.
    expect(await outcome).toEqual({ removed: 2, failures: [] });
    expect(signals).toHaveLength(1);
  });
});
