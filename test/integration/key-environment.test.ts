import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import { testDataSweep } from '../../src/app/wiring/index.js';
import { createLogger } from '../../src/base/log/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { RetentionSweeper, type RecordSweepOutcome } from '../../src/jobs/retention/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { caseFolder } from '../../src/service/cases/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import { KeyStore, hashToken } from '../../src/service/keys/index.js';
import { flowTemplatesFolder } from '../../src/service/webflows/index.js';
import { composedServer, type ComposedServer } from '../helpers/composed-server.js';
import { addKeyOwner, type KeyOwner } from '../helpers/key-owner.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * Spec 5.4's two environments on a real PostgreSQL, through the HTTP service as `docpipe serve`
 * composes it from its configuration: a test key on production is 401 invalid-token saying so
 * (and the reverse), a key made before keys named their environment works in production only,
 * `docpipe keys create` prints the environment's prefix, and the test environment's retention
 * sweep deletes old cases with their stored PDFs while it leaves recent ones.
 */

let redis: RedisOnly;
let t: TestDatabase;
beforeAll(async () => {
  [redis, t] = await Promise.all([startRedisOnly(), testDatabase()]);
});
afterAll(async () => {
  await Promise.all([redis?.close(), t?.close()]);
});

const DAY = 86_400_000;
let companies = 0;

interface Keys {
  owner: KeyOwner;
  live: string;
  test: string;
  legacy: string;
}

/**
 * A company of its own with three keys in the one database: one made by a production store,
 * one by a test store (so that the test key's refusal on production is by its prefix, not by
 * its absence), and one as docpipe made keys before they named their environment.
 */
async function keysOfEachKind(): Promise<Keys> {
  // Through the repositories, as `docpipe companies create` does: with its default folder.
  const company = `env-${++companies}`;
  await new CompanyRepository(t.db).create({ id: company, name: `Company ${company}` });
  const user = await new UserRepository(t.db).add(company, {
    email: `owner@${company}.example`,
    name: 'Owner',
  });
  const owner: KeyOwner = { company, email: user.email, userId: user.id };
  const input = { company: owner.company, user: owner.email };
  const store = (environment: 'production' | 'test') =>
    new KeyStore({ db: t.db, databaseUrl: t.url, environment });
  const live = (await store('production').create({ ...input, name: 'live' })).key;
  const test = (await store('test').create({ ...input, name: 'test' })).key;
  const id = randomBytes(8).toString('hex');
  const legacy = `dp_${id}_${randomBytes(32).toString('hex')}`;
  await t.db
    .insertInto('api_keys')
    .values({
      id,
      company_id: owner.company,
      user_id: owner.userId,
      name: 'from before environments',
      hash: hashToken(legacy),
      created_at: new Date(),
      expires_at: null,
    })
    .execute();
  return { owner, live, test, legacy };
}

async function list(server: ComposedServer, key: string) {
  const res = await server.app.inject({
    method: 'GET',
    url: '/v3/api/cases',
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
}

const TEST_KEY_ON_PRODUCTION = {
  error: 'invalid-token',
  details: [
    {
      field: 'Authorization',
      message:
        'this is a test key (dp_test_...), and this is the production environment: use a production key (dp_live_...) here, or send the request to the test environment',
    },
  ],
};

const PRODUCTION_KEY_ON_TEST = {
  error: 'invalid-token',
  details: [
    {
      field: 'Authorization',
      message:
        'this is a production key, and this is the test environment: use a test key (dp_test_...) made in the test environment here, or send the request to production',
    },
  ],
};

describe('keys of one environment on the other', () => {
  it('production (the default) refuses a test key 401 invalid-token, saying so; live and legacy keys work', async () => {
    const keys = await keysOfEachKind();
    const server = await composedServer(redis, t);
    expect(await list(server, keys.test)).toEqual({ status: 401, body: TEST_KEY_ON_PRODUCTION });
    expect((await list(server, keys.live)).status).toBe(200);
    expect((await list(server, keys.legacy)).status).toBe(200);
    // v2 says the same in its own shape.
    const v2 = await server.app.inject({
      method: 'GET',
      url: `/api/v2/${keys.owner.company}/cases/get`,
      headers: { authorization: `Bearer ${keys.test}` },
    });
    expect(v2.statusCode).toBe(401);
    expect(v2.json<{ errors: { description: string }[] }>().errors[0]!.description).toMatch(
      /^Bearer token not valid: this is a test key \(dp_test_\), and this is the production environment\./,
    );
    // The server's own store makes production keys.
    const made = await server.keys.create({ company: keys.owner.company, user: keys.owner.email });
    expect(made.key).toMatch(/^dp_live_[0-9a-f]{16}_[0-9a-f]{64}$/);
  });

  it('the test environment takes test keys and refuses production keys, new and legacy, saying so', async () => {
    const keys = await keysOfEachKind();
    const server = await composedServer(redis, t, { env: { DOCPIPE_ENVIRONMENT: 'test' } });
    expect((await list(server, keys.test)).status).toBe(200);
    expect(await list(server, keys.live)).toEqual({ status: 401, body: PRODUCTION_KEY_ON_TEST });
    expect(await list(server, keys.legacy)).toEqual({ status: 401, body: PRODUCTION_KEY_ON_TEST });
    const made = await server.keys.create({ company: keys.owner.company, user: keys.owner.email });
    expect(made.key).toMatch(/^dp_test_[0-9a-f]{16}_[0-9a-f]{64}$/);
  });
});

describe('docpipe keys create', () => {
  const root = projectRoot();
  const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');

  function create(owner: KeyOwner, env: Record<string, string>) {
    const data = mkdtempSync(join(tmpdir(), 'docpipe-key-env-cli-'));
    try {
      return spawnSync(
        process.execPath,
        [cli, 'keys', 'create', '--company', owner.company, '--user', owner.email],
        {
          encoding: 'utf8',
          cwd: root,
          env: {
            ...process.env,
            REDIS_URL: undefined,
            DOCPIPE_ENVIRONMENT: undefined,
            DOCPIPE_DATA_DIR: data,
            DATABASE_URL: t.url,
            ...env,
          },
        },
      );
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  }

  it('prints dp_live_ in production and dp_test_ in the test environment, which says so', async () => {
    const owner = await addKeyOwner(t.db, `env-cli-${++companies}`);
    const live = create(owner, {});
    expect(live.status, live.stderr).toBe(0);
    expect(live.stdout).toMatch(/^dp_live_[0-9a-f]{16}_[0-9a-f]{64}\n$/);
    expect(live.stderr).not.toMatch(/test/);
    const test = create(owner, { DOCPIPE_ENVIRONMENT: 'test' });
    expect(test.status, test.stderr).toBe(0);
    expect(test.stdout).toMatch(/^dp_test_[0-9a-f]{16}_[0-9a-f]{64}\n$/);
    expect(test.stderr).toMatch(/^docpipe: test API key [0-9a-f]{16} of /);
    expect(test.stderr).toContain(
      'It works only on this test environment (DOCPIPE_ENVIRONMENT=test), never in production.\n',
    );
    const store = new KeyStore({ db: t.db, databaseUrl: t.url, environment: 'test' });
    expect((await store.verify(test.stdout.trim())).ok).toBe(true);
    expect(await store.verify(live.stdout.trim())).toEqual({
      ok: false,
      reason: 'production-key-in-test',
    });
  });

  it('refuses an unknown DOCPIPE_ENVIRONMENT, naming it', async () => {
    const owner = await addKeyOwner(t.db, `env-cli-${++companies}`);
    const r = create(owner, { DOCPIPE_ENVIRONMENT: 'staging' });
    expect(r.status).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('DOCPIPE_ENVIRONMENT must be production or test (got "staging")');
  });
});

describe('the test environment’s retention sweep', () => {
  /** Draft cases made through the API with a test key, each with a stored PDF in its folder. */
  async function casesOf(server: ComposedServer, storage: LocalStorage, keys: Keys, n: number) {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/v3/api/cases',
        headers: { authorization: `Bearer ${keys.test}` },
        payload: {
          title: `Test case ${i}`,
          state: 'draft',
          senderEmail: keys.owner.email,
          recipients: [{ name: 'Signer', email: 'signer@example.com' }],
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json<{ case: { id: string } }>().case.id;
      await storage.put(
        `${caseFolder(keys.owner.company, id)}0.pdf`,
        Buffer.from('%PDF-1.7\n'),
        'application/pdf',
      );
      ids.push(id);
    }
    return ids;
  }

  /** Backdates cases, as if made at `at` (created_at is not a column the service updates). */
  async function madeAt(at: Date, ids: string[]): Promise<void> {
    await sql`update cases set created_at = ${at} where id in (${sql.join(ids)})`.execute(t.db);
  }

  async function stored(storage: LocalStorage, company: string, id: string): Promise<string[]> {
    const found: string[] = [];
    for await (const o of storage.list(caseFolder(company, id))) found.push(o.key);
    return found;
  }

  async function rowsOf(id: string) {
    const count = async (table: 'cases' | 'recipients') =>
      Number(
        (
          await t.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where(table === 'cases' ? 'id' : 'case_id', '=', id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { cases: await count('cases'), recipients: await count('recipients') };
  }

  it('deletes cases older than DOCPIPE_TEST_DATA_RETENTION with their PDFs, writes case.deleted, keeps the rest', async () => {
    const keys = await keysOfEachKind();
    const server = await composedServer(redis, t, { env: { DOCPIPE_ENVIRONMENT: 'test' } });
    const storage = new LocalStorage(testDir('key-env-sweep-'));
    const [old1, old2, recent] = await casesOf(server, storage, keys, 3);
    const now = Date.now();
    // Two made 31 days ago (past the default 30), one 29 days ago.
    await madeAt(new Date(now - 31 * DAY), [old1!, old2!]);
    await madeAt(new Date(now - 29 * DAY), [recent!]);

    const config = loadConfig({ DOCPIPE_ENVIRONMENT: 'test' });
    const records = testDataSweep(config, t.db, storage, () => now);
    expect(records).toBeDefined();
    // On the sweeper's schedule, as a worker runs it; storage's own retention off here.
    const outcome = await new Promise<RecordSweepOutcome | Error>((resolve) => {
      const sweeper = RetentionSweeper.start({
        storage,
        redisUrl: redis.url,
        prefix: 'key-env',
        retention: { uploadsMs: undefined, rendersMs: undefined, sweepEveryMs: 3_600_000 },
        logger: createLogger('silent', 'test'),
        firstDelayMs: 0,
        records,
        onRecordSweep: (o) => {
          resolve(o);
          void sweeper?.close();
        },
      });
    });
    expect(outcome).toEqual({ removed: 2, failures: [] });

    for (const id of [old1!, old2!]) {
      expect(await rowsOf(id)).toEqual({ cases: 0, recipients: 0 });
      expect(await stored(storage, keys.owner.company, id)).toEqual([]);
      const events = await t.db
        .selectFrom('case_events')
        .select('trigger')
        .where('case_id', '=', id)
        .execute();
      expect(events.map((e) => e.trigger)).toEqual(['case.deleted']);
    }
    expect(await rowsOf(recent!)).toEqual({ cases: 1, recipients: 1 });
    expect(await stored(storage, keys.owner.company, recent!)).toHaveLength(1);
    // The API agrees: only the recent case is listed.
    const listed = await list(server, keys.test);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain(recent!);
    expect(JSON.stringify(listed.body)).not.toContain(old1!);

    // A second sweep finds nothing more to delete.
    const again = await records!.run(new AbortController().signal);
    expect(again).toEqual({ removed: 0, failures: [] });
  });

  it('deletes web-flows older than DOCPIPE_TEST_DATA_RETENTION with their people and template copies, keeps the rest', async () => {
    const keys = await keysOfEachKind();
    const company = keys.owner.company;
    const storage = new LocalStorage(testDir('key-env-sweep-'));
    const now = Date.now();
    /** A flow as createWebflow writes one, made at `at`, with its own template copy stored. */
    const flowMadeAt = async (at: Date) => {
      const id = randomUUID();
      const key = `${flowTemplatesFolder(company, id)}0.docx`;
      await storage.put(key, Buffer.from('docx'), 'application/octet-stream');
      await t.db
        .insertInto('webflows')
        .values({
          id,
          company_id: company,
          form_id: 'lease',
          form: JSON.stringify({ documents: [{ name: 'Lease', kind: 'docx', storageKey: key }] }),
          title: 'Lease',
          sender_email: 'owner@example.com',
          sender_name: 'Owner',
          settings: JSON.stringify({}),
          expires_at: new Date(at.getTime() + 30 * DAY),
          created_at: at,
          updated_at: at,
        })
        .execute();
      await t.db
        .insertInto('webflow_recipients')
        .values({
          flow_id: id,
          company_id: company,
          position: 0,
          name: 'Ann',
          email: 'ann@example.com',
          token_sha256: randomBytes(32),
        })
        .execute();
      return { id, key };
    };
    const old = await flowMadeAt(new Date(now - 31 * DAY));
    const recent = await flowMadeAt(new Date(now - 29 * DAY));
    const config = loadConfig({ DOCPIPE_ENVIRONMENT: 'test' });
    const outcome = await testDataSweep(config, t.db, storage, () => now)!.run(
      new AbortController().signal,
    );
    expect(outcome.failures).toEqual([]);
    expect(outcome.removed).toBeGreaterThanOrEqual(1);
    const left = async (id: string) => ({
      flows: (await t.db.selectFrom('webflows').select('id').where('id', '=', id).execute()).length,
      people: (
        await t.db.selectFrom('webflow_recipients').select('id').where('flow_id', '=', id).execute()
      ).length,
    });
    expect(await left(old.id)).toEqual({ flows: 0, people: 0 });
    expect(await storage.get(old.key)).toBeUndefined();
    expect(await left(recent.id)).toEqual({ flows: 1, people: 1 });
    expect(await storage.get(recent.key)).toBeDefined();
  });

  it('honours a shorter DOCPIPE_TEST_DATA_RETENTION, and production sweeps no case at all', async () => {
    const keys = await keysOfEachKind();
    const server = await composedServer(redis, t, { env: { DOCPIPE_ENVIRONMENT: 'test' } });
    const storage = new LocalStorage(testDir('key-env-sweep-'));
    const [a, b] = await casesOf(server, storage, keys, 2);
    const now = Date.now();
    await madeAt(new Date(now - 3 * DAY), [a!]);
    await madeAt(new Date(now - 400 * DAY), [b!]);
    // The same old cases in production's configuration: no sweep of cases exists.
    const production = loadConfig({ DOCPIPE_TEST_DATA_RETENTION: '1d' });
    expect(testDataSweep(production, t.db, storage, () => now)).toBeUndefined();
    expect(await rowsOf(b!)).toEqual({ cases: 1, recipients: 1 });

    const week = loadConfig({ DOCPIPE_ENVIRONMENT: 'test', DOCPIPE_TEST_DATA_RETENTION: '2d' });
    const outcome = await testDataSweep(week, t.db, storage, () => now)!.run(
      new AbortController().signal,
    );
    // Other tests' old cases in this file's database may be swept too: these two are.
    expect(outcome.failures).toEqual([]);
    expect(outcome.removed).toBeGreaterThanOrEqual(2);
    for (const id of [a!, b!]) {
      expect(await rowsOf(id)).toEqual({ cases: 0, recipients: 0 });
      expect(await stored(storage, keys.owner.company, id)).toEqual([]);
    }
  });

  it('stops between cases when the process is stopping', async () => {
    const keys = await keysOfEachKind();
    const server = await composedServer(redis, t, { env: { DOCPIPE_ENVIRONMENT: 'test' } });
    const storage = new LocalStorage(testDir('key-env-sweep-'));
    const [a] = await casesOf(server, storage, keys, 1);
    await madeAt(new Date(Date.now() - 100 * DAY), [a!]);
    const stopping = new AbortController();
    stopping.abort();
    const config = loadConfig({ DOCPIPE_ENVIRONMENT: 'test' });
    const outcome = await testDataSweep(config, t.db, storage)!.run(stopping.signal);
    expect(outcome).toEqual({ removed: 0, failures: [], stopped: 'the process is stopping' });
    expect(await rowsOf(a!)).toEqual({ cases: 1, recipients: 1 });
  });
});
