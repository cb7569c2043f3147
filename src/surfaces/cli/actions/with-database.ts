import type { Kysely } from 'kysely';
import { loadConfig, type DocpipeConfig } from '../../../app/config/index.js';
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
 */
export async function withDatabase(
  work: (db: Kysely<Database>, url: string, config: DocpipeConfig) => Promise<void>,
): Promise<void> {
  const config = loadConfig();
  const url = await requireDatabaseUrl(config);
  const db = openDatabase<Database>(url, { maxConnections: 1 });
  try {
    await checkDatabase(db, url);
    await work(db, url, config);
  } catch (err) {
    if (!(err instanceof DatabaseUnavailableError || err instanceof MigrationError)) throw err;
    process.stderr.write(`docpipe: ${err.message}\n`);
    process.exitCode = err instanceof MigrationError ? EXIT.failed : EXIT.unavailable;
  } finally {
    await db.destroy();
  }
}
