import { loadConfig, type DocpipeConfig } from '../../../app/config/index.js';
import { connectProducer, resolveRedisUrl } from '../../../platform/redis/index.js';
import { copyRedisKeys, type RedisKeysCopy } from '../../../service/keys/index.js';
import {
  migrateDatabase,
  migrationStatus,
  type Database,
  type MigrationStatus,
} from '../../../service/db/index.js';
import type { Kysely } from 'kysely';
import { withDatabase } from './with-database.js';
import { printJson } from '../print-json.js';

/**
 * `docpipe db migrate`, declared in commands/db.ts, which loads this module only when it runs.
 * Then copies the API keys an earlier docpipe kept in Redis (REDIS_URL's, or a running `docpipe
 * start`'s), when there is a Redis to look in.
 */
export async function migrate(flags: { json?: boolean }): Promise<void> {
  // The whole configuration, checked before the database is looked for: copying the keys needs
  // its Redis and queue prefix.
  const config = loadConfig();
  await withDatabase(async (db, url) => {
    const outcome = await migrateDatabase(db);
    const keys = await copyKeys(config, db, url);
    if (flags.json) printJson(keys ? { ...outcome, keysFromRedis: keys } : outcome);
    else {
      if (outcome.applied.length === 0)
        process.stdout.write(
          `the database is up to date: ${plural(outcome.already, 'migration')} applied, none pending\n`,
        );
      else for (const name of outcome.applied) process.stdout.write(`applied ${name}\n`);
      if (keys && keys.copied > 0)
        process.stdout.write(
          `copied ${plural(keys.copied, 'API key')} of an earlier docpipe from Redis` +
            (keys.companiesCreated.length > 0
              ? `, and made their companies ${keys.companiesCreated.join(', ')}`
              : '') +
            '\n',
        );
    }
  });
}

/**
 * The keys of the installation's Redis copied into the database; undefined when no Redis is set
 * (no REDIS_URL, no running `docpipe start`): `start`, `serve` and `worker` copy them at start.
 * Redis not answering is the queue's outage (exit 3), since the keys there would be missed.
 */
async function copyKeys(
  config: DocpipeConfig,
  db: Kysely<Database>,
  databaseUrl: string,
): Promise<RedisKeysCopy | undefined> {
  const redisUrl = await resolveRedisUrl(config);
  if (!redisUrl) return undefined;
  const redis = await connectProducer(redisUrl);
  try {
    return await copyRedisKeys(redis, config.queue.prefix, db, { redisUrl, databaseUrl });
  } finally {
    redis.disconnect();
  }
}

/** `docpipe db status`, declared in commands/db.ts, which loads this module only when it runs. */
export async function status(flags: { json?: boolean }): Promise<void> {
  await withDatabase(async (db) => {
    const found = await migrationStatus(db);
    if (flags.json) printJson(found);
    else process.stdout.write(table(found));
  });
}

function table(found: MigrationStatus): string {
  const rows = [
    ...found.applied.map((m) => [
      found.unknown.includes(m.name) ? 'unknown' : 'applied',
      m.appliedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      m.name,
    ]),
    ...found.pending.map((name) => ['pending', '-', name]),
  ];
  const lines = [['STATE', 'APPLIED', 'MIGRATION'], ...rows];
  const widths = [0, 1].map((c) => Math.max(...lines.map((r) => r[c]!.length)));
  const summary =
    `${plural(found.applied.length, 'migration')} applied, ${found.pending.length} pending` +
    (found.unknown.length > 0
      ? `, ${found.unknown.length} unknown to this docpipe (a newer one applied them)`
      : '') +
    (found.pending.length > 0 ? ': apply them with "docpipe db migrate"' : '');
  return (
    lines
      .map((r) => `${r[0]!.padEnd(widths[0]!)}  ${r[1]!.padEnd(widths[1]!)}  ${r[2]}`)
      .join('\n') + `\n${summary}\n`
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
