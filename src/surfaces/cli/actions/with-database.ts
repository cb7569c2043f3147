import type { Kysely } from 'kysely';
import { databaseSettingFrom } from '../../../app/env/index.js';
import {
  checkDatabase,
  DatabaseUnavailableError,
  openDatabase,
  requireDatabaseUrl,
} from '../../../platform/postgres/index.js';
import { MigrationError, type Database } from '../../../service/db/index.js';
import { EXIT } from '../exit-codes.js';

/**
 * The database of DATABASE_URL or of a running `docpipe start`, checked to answer; closed when
 * `work` ends. Its outage is exit status 3 and a failed migration 1, each with its message.
 * Only the database's settings are read (not loadConfig): a records command loads none of the
 * queue, sealing or mail code, which took most of its start-up.
 */
export async function withDatabase(
  work: (db: Kysely<Database>, url: string) => Promise<void>,
): Promise<void> {
  const url = await requireDatabaseUrl(databaseSettingFrom(process.env));
  const db = openDatabase<Database>(url, { maxConnections: 1 });
  try {
    await checkDatabase(db, url);
    await work(db, url);
  } catch (err) {
    if (!(err instanceof DatabaseUnavailableError || err instanceof MigrationError)) throw err;
    process.stderr.write(`docpipe: ${err.message}\n`);
    process.exitCode = err instanceof MigrationError ? EXIT.failed : EXIT.unavailable;
  } finally {
    await db.destroy();
  }
}
