import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DocpipeError } from '../../src/base/errors/index.js';
import { KeyStore } from '../../src/service/keys/index.js';
import {
  DatabaseUnavailableError,
  openDatabase,
  socketUrl,
} from '../../src/platform/postgres/index.js';
import type { Database } from '../../src/service/db/index.js';
import { rejectionOf } from '../helpers/failure.js';
import { addKeyOwner, type KeyOwner } from '../helpers/key-owner.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * The key store on a real PostgreSQL (a database of this file's own): each test on companies of
 * its own, since they share the file's database.
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await testDatabase();
});
afterAll(() => t.close());

let n = 0;
/** A fresh company with one user, and a store on a clock the test moves by hand. */
async function fresh(start = 1_700_000_000_000) {
  const clock = { t: start };
  const keys = new KeyStore({ db: t.db, databaseUrl: t.url, now: () => clock.t });
  const owner = await addKeyOwner(t.db, `store-${++n}`);
  return { clock, keys, owner };
}

const key = (owner: KeyOwner, name?: string, expiresInMs?: number) => ({
  company: owner.company,
  user: owner.email,
  ...(name === undefined ? {} : { name }),
  ...(expiresInMs === undefined ? {} : { expiresInMs }),
});

describe('KeyStore on PostgreSQL', () => {
  it('creates a dp_live_<id>_<secret> key of a user that verifies as its company, name and user', async () => {
    const { keys, owner } = await fresh();
    const created = await keys.create(key(owner, 'billing server'));
    expect(created.key).toMatch(/^dp_live_[0-9a-f]{16}_[0-9a-f]{64}$/);
    expect(created.key.slice(8, 24)).toBe(created.id);
    expect(created).toEqual({
      id: created.id,
      company: owner.company,
      name: 'billing server',
      userId: owner.userId,
      user: owner.email,
      createdAt: new Date(1_700_000_000_000),
      key: created.key,
    });
    expect(await keys.verify(created.key)).toEqual({
      ok: true,
      identity: {
        id: created.id,
        company: owner.company,
        name: 'billing server',
        userId: owner.userId,
      },
    });
  });

  it('finds the user by e-mail in any case, and names a key made without a name "API key"', async () => {
    const { keys, owner } = await fresh();
    const created = await keys.create({ company: owner.company, user: owner.email.toUpperCase() });
    expect(created.name).toBe('API key');
    expect(created.userId).toBe(owner.userId);
  });

  it('stores only a SHA-256 of the key: neither the key nor its secret is in the table', async () => {
    const { keys, owner } = await fresh();
    const a = await keys.create(key(owner, 'a'));
    const b = await keys.create(key(owner, 'b', 60_000));
    await keys.revoke(b.id);
    const rows = await t.db
      .selectFrom('api_keys')
      .selectAll()
      .where('company_id', '=', owner.company)
      .orderBy('name')
      .execute();
    expect(rows.map((r) => r.id)).toEqual([a.id, b.id]);
    const everything = JSON.stringify(rows.map((r) => ({ ...r, hash: r.hash.toString('hex') })));
    for (const k of [a.key, b.key]) {
      expect(everything).not.toContain(k.slice(20)); // the secret
      expect(everything).not.toContain(k.slice(20, 36)); // nor a piece of it
    }
    expect(rows[0]!.hash).toEqual(createHash('sha256').update(a.key).digest());
  });

  it("lists keys oldest first with their user and times, the company's alone when asked", async () => {
    const { clock, keys, owner } = await fresh(1_000_000);
    const other = await addKeyOwner(t.db, `store-other-${n}`);
    const first = await keys.create(key(owner, 'first', 5_000));
    clock.t = 2_000_000;
    const second = await keys.create(key(other, 'second'));
    clock.t = 3_000_000;
    await keys.revoke(first.id);
    const mine = await keys.list({ company: owner.company });
    expect(mine).toEqual([
      {
        id: first.id,
        company: owner.company,
        name: 'first',
        userId: owner.userId,
        user: owner.email,
        createdAt: new Date(1_000_000),
        expiresAt: new Date(1_005_000),
        revokedAt: new Date(3_000_000),
      },
    ]);
    const all = await keys.list();
    expect(all.map((k) => k.id)).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(all.findIndex((k) => k.id === first.id)).toBeLessThan(
      all.findIndex((k) => k.id === second.id),
    );
    expect(JSON.stringify(all)).not.toContain('hash');
  });

  it('revokes once: the key stops working, a second revocation keeps the first time', async () => {
    const { clock, keys, owner } = await fresh(10_000);
    const k = await keys.create(key(owner, 'ci'));
    clock.t = 20_000;
    expect(await keys.revoke(k.id)).toEqual({
      found: true,
      alreadyRevoked: false,
      revokedAt: new Date(20_000),
    });
    expect(await keys.verify(k.key)).toEqual({ ok: false, reason: 'revoked' });
    clock.t = 30_000;
    expect(await keys.revoke(k.id)).toEqual({
      found: true,
      alreadyRevoked: true,
      revokedAt: new Date(20_000),
    });
  });

  it('says when there is no key to revoke', async () => {
    const { keys } = await fresh();
    expect(await keys.revoke('0123456789abcdef')).toEqual({ found: false });
    expect(await keys.revoke('not-an-id')).toEqual({ found: false });
  });

  it('expires a key at its expiry, to the millisecond, and gives the cache its expiry', async () => {
    const { clock, keys, owner } = await fresh(1_000);
    const k = await keys.create(key(owner, 'short', 1_000));
    expect(k.expiresAt).toEqual(new Date(2_000));
    clock.t = 1_999;
    expect((await keys.check(k.key)).expiresAt).toEqual(new Date(2_000));
    clock.t = 2_000;
    expect(await keys.verify(k.key)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses the key of a disabled company (company-disabled), and takes it back when enabled', async () => {
    const { keys, owner } = await fresh();
    const k = await keys.create(key(owner));
    const disable = (disabled: boolean) =>
      t.db.updateTable('companies').set({ disabled }).where('id', '=', owner.company).execute();
    await disable(true);
    expect(await keys.verify(k.key)).toEqual({ ok: false, reason: 'company-disabled' });
    await disable(false);
    expect((await keys.verify(k.key)).ok).toBe(true);
  });

  it('refuses the key of a removed user (no-user), for good', async () => {
    const { keys, owner } = await fresh();
    const k = await keys.create(key(owner));
    await t.db.deleteFrom('users').where('id', '=', owner.userId).execute();
    expect(await keys.verify(k.key)).toEqual({ ok: false, reason: 'no-user' });
    // A new user with the same e-mail is another person: the key stays without a user.
    await addKeyOwner(t.db, owner.company, owner.email);
    expect(await keys.verify(k.key)).toEqual({ ok: false, reason: 'no-user' });
    expect((await keys.list({ company: owner.company }))[0]).not.toHaveProperty('userId');
  });

  it("tells a key's state only to the right secret: anyone else gets invalid", async () => {
    const { clock, keys, owner } = await fresh(1_000);
    const revoked = await keys.create(key(owner, 'r'));
    const expired = await keys.create(key(owner, 'e', 1));
    await keys.revoke(revoked.id);
    const other = await fresh();
    const disabled = await other.keys.create(key(other.owner));
    await t.db
      .updateTable('companies')
      .set({ disabled: true })
      .where('id', '=', other.owner.company)
      .execute();
    clock.t = 5_000;
    const wrongSecret = (k: string) => `${k.slice(0, 20)}${'0'.repeat(64)}`;
    for (const k of [revoked.key, expired.key, disabled.key])
      expect(await keys.verify(wrongSecret(k))).toEqual({ ok: false, reason: 'invalid' });
    expect(await keys.verify(revoked.key)).toEqual({ ok: false, reason: 'revoked' });
    expect(await keys.verify(expired.key)).toEqual({ ok: false, reason: 'expired' });
    expect(await keys.verify(disabled.key)).toEqual({ ok: false, reason: 'company-disabled' });
  });

  it('answers invalid for unknown ids and anything that is not a key', async () => {
    const { keys, owner } = await fresh();
    const k = await keys.create(key(owner, 'x'));
    const tokens = [
      `dp_0123456789abcdef_${'a'.repeat(64)}`,
      k.key.toUpperCase(),
      `${k.key}0`,
      k.key.slice(0, -1),
      k.key.replace(/^dp_/, 'xx_'),
      k.id,
      '',
    ];
    for (const token of tokens)
      expect(await keys.verify(token), token).toEqual({ ok: false, reason: 'invalid' });
    expect((await keys.verify(k.key)).ok).toBe(true);
  });

  it('refuses a bad company, user, name and lifetime, every problem at once', async () => {
    const { keys, owner } = await fresh();
    const err = await rejectionOf(
      keys.create({ company: 'acme corp/1', user: 'nobody', name: ' ', expiresInMs: 0 }),
      DocpipeError,
    );
    expect(err.slug).toBe('validation-failed');
    expect(err.details.map((d) => d.field)).toEqual(['company', 'user', 'name', 'expiresInMs']);
    expect(
      (await rejectionOf(keys.create({ ...key(owner), name: 'two\nlines' }), DocpipeError)).message,
    ).toMatch(/control characters/);
    expect(await keys.list({ company: owner.company })).toEqual([]);
  });

  it('refuses a company that does not exist or is disabled, and a user not in the company', async () => {
    const { keys, owner } = await fresh();
    const other = await addKeyOwner(t.db, `store-elsewhere-${n}`);
    const cases: [Parameters<KeyStore['create']>[0], string, RegExp][] = [
      [{ company: 'no-such-co', user: 'a@b.c' }, 'company', /^no company no-such-co: create it/],
      [{ company: owner.company, user: 'x@y.z' }, 'user', /^no user x@y\.z in company store-/],
      // A user of another company is not one of this company's.
      [{ company: owner.company, user: other.email }, 'user', /^no user /],
    ];
    for (const [input, field, message] of cases) {
      const err = await rejectionOf(keys.create(input), DocpipeError);
      expect(err.details, JSON.stringify(input)).toEqual([
        { field, message: expect.stringMatching(message) },
      ]);
    }
    await t.db
      .updateTable('companies')
      .set({ disabled: true })
      .where('id', '=', owner.company)
      .execute();
    const disabled = await rejectionOf(keys.create(key(owner)), DocpipeError);
    expect(disabled.details[0]!.message).toMatch(/is disabled/);
    expect(await keys.list({ company: owner.company })).toEqual([]);
  });

  it('is DatabaseUnavailableError when PostgreSQL does not answer, on connect and later', async () => {
    const nowhere = socketUrl(testDir('docpipe-no-pg-'), 'docpipe', 'docpipe');
    const refused = await rejectionOf(KeyStore.connect(nowhere), DatabaseUnavailableError);
    expect(refused.outage).toBe('database-unavailable');
    expect(refused.message).toMatch(/^cannot reach PostgreSQL at /);

    // A server that stops answering after the store was made.
    const db = openDatabase<Database>(nowhere, { connectTimeoutMs: 1000 });
    onTestFinished(() => db.destroy());
    const keys = new KeyStore({ db, databaseUrl: nowhere });
    const { owner } = await fresh();
    for (const op of [
      keys.verify(`dp_0123456789abcdef_${'a'.repeat(64)}`),
      keys.list(),
      keys.revoke('0123456789abcdef'),
      keys.create(key(owner)),
    ])
      expect((await rejectionOf(op, DatabaseUnavailableError)).outage).toBe('database-unavailable');
  });

  it('leaves a failure of the database that is not an outage as it is', async () => {
    // A pool on a database that does not exist: the server answers, and says so.
    const url = t.url.replace(`/${t.name}?`, '/no_such_database?');
    const db = openDatabase<Database>(url);
    onTestFinished(() => db.destroy());
    const err = await rejectionOf(
      new KeyStore({ db, databaseUrl: url }).verify(`dp_0123456789abcdef_${'a'.repeat(64)}`),
      Error,
    );
    expect(err).not.toBeInstanceOf(DatabaseUnavailableError);
    expect((err as Error & { code?: string }).code).toBe('3D000'); // invalid_catalog_name
  });
});
