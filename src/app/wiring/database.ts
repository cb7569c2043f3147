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
import { connectProducer } from '../../platform/redis/index.js';
import { migrateDatabase, type Database } from '../../service/db/index.js';
import { copyRedisKeys } from '../../service/keys/index.js';

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
 * each migration once), and given the API keys an earlier docpipe kept in the Redis at
 * `redisUrl` (copyRedisKeys). Undefined when there is none to use (`serve` or `worker` with no
 * DATABASE_URL and no `docpipe start` on the data folder).
 */
export async function openServiceDatabase(
  config: DocpipeConfig,
  logger: Logger,
  options: {
    embed: boolean;
    /** The Redis of the installation, whose API keys from before PostgreSQL are copied. */
    redisUrl?: string;
  },
): Promise<ServiceDatabase | undefined> {
  let embedded: EmbeddedPostgres | undefined;
  let url: string | undefined;
  if (options.embed && !config.databaseUrl) {
    embedded = await EmbeddedPostgres.start({
      dir: join(config.dataDir, 'postgres'),
      clustersDir: config.postgresClustersDir,
    });
    url = embedded.url;
    logger.info(
      { databaseUrl: url, dir: embedded.dir, postgresPid: embedded.pid, runsAs: embedded.user },
      `embedded PostgreSQL ${embedded.version} started (no DATABASE_URL)`,
    );
    if (embedded.movedBecause)
      logger.warn(
        { dir: embedded.dir, shutOutBy: embedded.movedBecause },
        `the embedded PostgreSQL runs as "${embedded.user}", whom ${embedded.movedBecause} shuts out, so its cluster lives in ${embedded.dir} (linked from the data folder); set DOCPIPE_DATA_DIR to a folder that user can reach (such as /var/lib/docpipe) to keep it beside the rest of the data. Removing the data folder leaves the cluster there: "docpipe postgres clean" removes the clusters whose data folder is gone`,
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
    if (options.redisUrl)
      await copyKeysOfRedis(config, logger, db, { redisUrl: options.redisUrl, databaseUrl: url });
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

/**
 * The API keys an earlier docpipe kept in Redis, copied into the database (see copyRedisKeys):
 * keys already copied are left as they are, so this costs one read of Redis at each start.
 */
export async function copyKeysOfRedis(
  config: DocpipeConfig,
  logger: Logger,
  db: Kysely<Database>,
  where: { redisUrl: string; databaseUrl: string },
): Promise<Awaited<ReturnType<typeof copyRedisKeys>>> {
  const redis = await connectProducer(where.redisUrl);
  try {
    const copy = await copyRedisKeys(redis, config.queue.prefix, db, where);
    if (copy.copied > 0)
      logger.info(
        { keys: copy.copied, companiesCreated: copy.companiesCreated },
        `API keys of an earlier docpipe copied from Redis into the database: ${copy.copied}`,
      );
    return copy;
  } finally {
    redis.disconnect();
  }
}
