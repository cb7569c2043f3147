import { Migrator, sql, type Kysely } from 'kysely';
import { withAdvisoryLock } from '../../platform/postgres/index.js';
import { MIGRATIONS } from './migrations.js';

/** The table where applied migrations are recorded, and the lock table Kysely keeps beside it. */
export const MIGRATION_TABLE = 'docpipe_migrations';
const MIGRATION_LOCK_TABLE = 'docpipe_migrations_lock';

/**
 * The advisory lock that one migrating process holds at a time: 'docpipe:' as an 8-byte number,
 * fixed so that every docpipe version takes the same lock.
 */
export const MIGRATION_LOCK_KEY = 0x646f63706970653an;

export interface MigrationOutcome {
  /** Migrations this call applied, in order. */
  applied: string[];
  /** Migrations that were there already. */
  already: number;
}

/**
 * A migration failed (its changes were rolled back: they run in one transaction), or the
 * database holds migrations this docpipe does not know (a newer version migrated it).
 */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

function migrator(db: Kysely<unknown>): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve({ ...MIGRATIONS }) },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  });
}

/**
 * Applies the migrations the database lacks, under an advisory lock: of several processes that
 * start at once (many `serve`), one applies them, and the others wait and find them applied.
 * Every pending migration runs in one transaction, so a failure leaves the schema as it was.
 */
export async function migrateDatabase<DB>(db: Kysely<DB>): Promise<MigrationOutcome> {
  return withAdvisoryLock(db as unknown as Kysely<unknown>, MIGRATION_LOCK_KEY, async (locked) => {
    const unknown = (await appliedMigrations(locked))
      .map((m) => m.name)
      .filter((name) => !(name in MIGRATIONS));
    if (unknown.length > 0) throw newerSchema(unknown);
    const before = (await appliedMigrations(locked)).length;
    const { error, results = [] } = await migrator(locked).migrateToLatest();
    if (error !== undefined) {
      const failed = results.find((r) => r.status === 'Error')?.migrationName;
      throw new MigrationError(
        `${failed ? `migration ${failed}` : 'migrating the database'} failed, and nothing of it was ` +
          `applied: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
        { cause: error },
      );
    }
    return {
      applied: results.filter((r) => r.status === 'Success').map((r) => r.migrationName),
      already: before,
    };
  });
}

export interface AppliedMigration {
  name: string;
  appliedAt: Date;
}

export interface MigrationStatus {
  /** Applied, oldest first. */
  applied: AppliedMigration[];
  /** Known to this docpipe and not applied yet, in the order they would apply. */
  pending: string[];
  /** Applied by a newer docpipe, unknown to this one. */
  unknown: string[];
}

/** What is applied and what is pending; changes nothing. */
export async function migrationStatus<DB>(db: Kysely<DB>): Promise<MigrationStatus> {
  const applied = await appliedMigrations(db as unknown as Kysely<unknown>);
  const names = new Set(applied.map((m) => m.name));
  return {
    applied,
    pending: Object.keys(MIGRATIONS)
      .sort()
      .filter((name) => !names.has(name)),
    unknown: applied.map((m) => m.name).filter((name) => !(name in MIGRATIONS)),
  };
}

/** The recorded migrations, oldest first; none before the first migration made the table. */
async function appliedMigrations(db: Kysely<unknown>): Promise<AppliedMigration[]> {
  const { rows } = await sql<{ name: string; timestamp: string }>`
    SELECT name, timestamp FROM ${sql.table(MIGRATION_TABLE)} ORDER BY timestamp, name
  `
    .execute(db)
    .catch((err: unknown) => {
      if ((err as { code?: string }).code === '42P01') return { rows: [] }; // undefined_table
      throw err;
    });
  return rows.map((r) => ({ name: r.name, appliedAt: new Date(r.timestamp) }));
}

function newerSchema(unknown: string[]): MigrationError {
  return new MigrationError(
    `the database holds migrations this docpipe does not know (${unknown.join(', ')}): a newer ` +
      'docpipe migrated it. Run that version (or a newer one) against it; docpipe does not ' +
      'undo migrations',
  );
}
