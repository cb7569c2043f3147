import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { DocpipeConfig } from '../config/index.js';
import type { Logger } from '../../base/log/index.js';
import {
  checkDatabase,
  databaseUrlFile,
  EmbeddedPostgres,
  openDatabase,
  resolveDatabaseUrl,
} from '../../platform/postgres/index.js';
import { migrateDatabase, type Database } from '../../service/db/index.js';

/** The service's database, migrated, and the embedded server it runs on when docpipe runs one. */
export interface ServiceDatabase {
  url: string;
  db: Kysely<Database>;
  embedded?: EmbeddedPostgres;
  /** Writes the URL down for commands in other terminals (the embedded server's only). */
  publish(): Promise<void>;
  /** Closes the connections, then stops the embedded server (fast shutdown). */
  close(): Promise<void>;
}

/**
 * The database of the service: DATABASE_URL; or, with `embed` (`docpipe start`), its own
 * PostgreSQL under DOCPIPE_DATA_DIR/postgres; or the one a running `docpipe start` wrote down.
 * Migrated before it is handed out (under an advisory lock: processes that start at once apply
 * each migration once). Undefined when there is none to use (`serve` or `worker` with no
 * DATABASE_URL and no `docpipe start` on the data folder).
 */
export async function openServiceDatabase(
  config: DocpipeConfig,
  logger: Logger,
  options: { embed: boolean },
): Promise<ServiceDatabase | undefined> {
  let embedded: EmbeddedPostgres | undefined;
  let url: string | undefined;
  if (options.embed && !config.databaseUrl) {
    embedded = await EmbeddedPostgres.start({ dir: join(config.dataDir, 'postgres') });
    url = embedded.url;
    logger.info(
      { databaseUrl: url, dir: embedded.dir, postgresPid: embedded.pid, runsAs: embedded.user },
      `embedded PostgreSQL ${embedded.version} started (no DATABASE_URL)`,
    );
  } else {
    url = await resolveDatabaseUrl(config);
    if (!url) return undefined;
  }
  const db = openDatabase<Database>(url);
  const urlFile = databaseUrlFile(config.dataDir);
  const close = async () => {
    await db.destroy();
    if (embedded) {
      await urlFile.remove();
      await embedded.stop();
    }
  };
  try {
    await checkDatabase(db, url);
    const outcome = await migrateDatabase(db);
    if (outcome.applied.length > 0)
      logger.info({ migrations: outcome.applied }, 'database migrated');
  } catch (err) {
    await close();
    throw err;
  }
  return {
    url,
    db,
    embedded,
    async publish() {
      if (embedded) await urlFile.write(url);
    },
    close,
  };
}
