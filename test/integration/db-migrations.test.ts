import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { openDatabase } from '../../src/platform/postgres/index.js';
import {
  MIGRATIONS,
  MIGRATION_TABLE,
  migrateDatabase,
  migrationStatus,
  type Database,
} from '../../src/service/db/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { caseSearchText } from '../../src/service/cases/index.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { testDir } from '../helpers/test-dir.js';

/**
 * The service's migrations on a real PostgreSQL (the worker's test server, a database per
 * test): applied once when several processes migrate at once, and `docpipe db migrate` and
 * `docpipe db status` as an operator runs them, through the built CLI.
 */

const root = projectRoot();
const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
const NAMES = Object.keys(MIGRATIONS).sort();
const opened: TestDatabase[] = [];

afterAll(async () => {
  for (const d of opened) await d.close();
});

async function emptyDatabase(): Promise<TestDatabase> {
  const d = await testDatabase({ migrated: false });
  opened.push(d);
  return d;
}

function docpipe(env: Record<string, string | undefined>, ...args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'db', ...args], {
    encoding: 'utf8',
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: undefined,
      DOCPIPE_DATA_DIR: testDir('docpipe-db-'),
      ...env,
    },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('migrations', () => {
  it('are applied once when four migrators race, each on its own connections', async () => {
    const { url } = await emptyDatabase();
    const migrators = [0, 1, 2, 3].map(() => openDatabase<Database>(url));
    onTestFinished(async () => {
      for (const db of migrators) await db.destroy();
    });
    const outcomes = await Promise.all(migrators.map((db) => migrateDatabase(db)));
    // One applied them all; the three others waited on the lock and found nothing to do.
    expect(outcomes.map((o) => o.applied).sort()).toEqual([[], [], [], NAMES]);
    expect(outcomes.filter((o) => o.already === NAMES.length)).toHaveLength(3);
    const { rows } = await sql<{ name: string }>`
      SELECT name FROM ${sql.table(MIGRATION_TABLE)} ORDER BY name`.execute(migrators[0]!);
    expect(rows.map((r) => r.name)).toEqual(NAMES);
  });

  it('make the tables schema.ts describes, which typed queries then use', async () => {
    const { db } = await emptyDatabase();
    await migrateDatabase(db);
    await db
      .insertInto('companies')
      .values({ id: 'acme', name: 'Acme', signing_domain: null, default_language: 'da' })
      .execute();
    const user = await db
      .insertInto('users')
      .values({ company_id: 'acme', email: 'Ann@Acme.example', name: 'Ann' })
      .returning(['id', 'admin'])
      .executeTakeFirstOrThrow();
    expect(user.admin).toBe(false);
    // E-mail addresses are unique in a company whatever their case.
    await expect(
      db
        .insertInto('users')
        .values({ company_id: 'acme', email: 'ann@acme.example', name: 'A' })
        .execute(),
    ).rejects.toThrow(/users_company_email/);
    await db
      .insertInto('api_keys')
      .values({
        id: '0123456789abcdef',
        company_id: 'acme',
        user_id: user.id,
        name: 'ci',
        hash: Buffer.alloc(32, 1),
      })
      .execute();
    await db.deleteFrom('users').where('id', '=', user.id).execute();
    // The key stays and has no user: `key-has-no-user`.
    expect(await db.selectFrom('api_keys').select(['id', 'user_id']).execute()).toEqual([
      { id: '0123456789abcdef', user_id: null },
    ]);
    await db
      .insertInto('folders')
      .values({ company_id: 'acme', name: 'Main', is_default: true })
      .execute();
    await expect(
      db
        .insertInto('folders')
        .values({ company_id: 'acme', name: 'Other', is_default: true })
        .execute(),
    ).rejects.toThrow(/folders_one_default/);
  });

  it("fill 0016's search text of the cases written before it, folded as the case writer folds", async () => {
    const { db } = await emptyDatabase();
    const upTo = async (last: string) => {
      const names = NAMES.filter((n) => n <= last);
      const { error } = await new Migrator({
        db,
        provider: {
          getMigrations: () =>
            Promise.resolve(Object.fromEntries(names.map((n) => [n, MIGRATIONS[n]!]))),
        },
        migrationTableName: MIGRATION_TABLE,
      }).migrateToLatest();
      expect(error).toBeUndefined();
    };
    await upTo('0015-case-state-index');
    await sql`insert into companies (id, name) values ('old', 'Old')`.execute(db);
    const { rows } = await sql<{ id: string }>`
      with f as (insert into folders (company_id, name) values ('old', 'Archive') returning id)
      insert into cases (company_id, title, state, folder_id, reference_id, settings, language,
        signing_schemas, expires_at, sender_name, sender_email)
      select 'old', 'ÆBLEGÅRDEN Lease', 'open', f.id, 'REF-Ø1', '{}', 'da', '["draw"]',
        now() + interval '30 days', 'S', 's@example.com' from f
      returning id`.execute(db);
    const id = rows[0]!.id;
    const recipients = [
      { name: 'Søren ØSTERGAARD', email: 'Soren@Example.DK' },
      { name: 'Åse Ærø', email: null },
    ];
    for (const [position, r] of recipients.entries())
      await sql`insert into recipients (company_id, case_id, uid, position, name, email, type,
          signing, "group", details, status, signing_token_hash)
        values ('old', ${id}, ${`u${position}`}, ${position}, ${r.name}, ${r.email}, 'email', true,
          0, '{}', 'pending', sha256(${`t${position}`}::bytea))`.execute(db);
    await migrateDatabase(db);
    const row = await db
      .selectFrom('cases')
      .select('search_text')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.search_text).toBe(
      caseSearchText({ title: 'ÆBLEGÅRDEN Lease', referenceId: 'REF-Ø1', recipients }),
    );
    expect(row.search_text).toContain('søren østergaard');
  });

  it('status lists what is applied and what is pending, and changes nothing', async () => {
    const { db } = await emptyDatabase();
    expect(await migrationStatus(db)).toEqual({ applied: [], pending: NAMES, unknown: [] });
    expect(await migrationStatus(db)).toEqual({ applied: [], pending: NAMES, unknown: [] });
  });
});

describe('docpipe db', () => {
  it('status lists the pending migrations, migrate applies them, status then lists them applied', async () => {
    const { url } = await emptyDatabase();
    const env = { DATABASE_URL: url };

    const before = docpipe(env, 'status', '--json');
    expect(before.status, before.stderr).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual({ applied: [], pending: NAMES, unknown: [] });
    const text = docpipe(env, 'status');
    expect(text.stdout).toContain(`pending  -        ${NAMES[0]}`);
    expect(text.stdout).toContain(
      `0 migrations applied, ${NAMES.length} pending: apply them with "docpipe db migrate"`,
    );

    const migrated = docpipe(env, 'migrate', '--json');
    expect(migrated.status, migrated.stderr).toBe(0);
    expect(JSON.parse(migrated.stdout)).toEqual({ applied: NAMES, already: 0 });

    const after = docpipe(env, 'status', '--json');
    const found = JSON.parse(after.stdout) as {
      applied: { name: string; appliedAt: string }[];
      pending: string[];
    };
    expect(found.applied.map((m) => m.name)).toEqual(NAMES);
    expect(Date.parse(found.applied[0]!.appliedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(found.pending).toEqual([]);

    const again = docpipe(env, 'migrate');
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toBe(
      `the database is up to date: ${NAMES.length} migration${NAMES.length === 1 ? '' : 's'} applied, none pending\n`,
    );
  });

  it('names a database a newer docpipe migrated, and refuses to migrate it (exit 1)', async () => {
    const { url, db } = await emptyDatabase();
    await migrateDatabase(db);
    await sql`INSERT INTO ${sql.table(MIGRATION_TABLE)} (name, timestamp) VALUES ('9999-future', '2099-01-01T00:00:00Z')`.execute(
      db,
    );
    const status = docpipe({ DATABASE_URL: url }, 'status', '--json');
    expect(JSON.parse(status.stdout)).toMatchObject({ pending: [], unknown: ['9999-future'] });
    const r = docpipe({ DATABASE_URL: url }, 'migrate');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/does not know \(9999-future\): a newer docpipe migrated it/);
  });

  it('says where to find a database when there is none (exit 2), and when it does not answer (exit 3)', () => {
    const none = docpipe({}, 'status');
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(
      /no PostgreSQL: DATABASE_URL is not set, and no "docpipe start" runs on the data folder/,
    );

    const down = docpipe(
      { DATABASE_URL: `postgresql://docpipe@/docpipe?host=${testDir('docpipe-db-none-')}` },
      'status',
    );
    expect(down.status).toBe(3);
    expect(down.stderr).toMatch(/cannot reach PostgreSQL at .*\. Start it/);
  });
});
