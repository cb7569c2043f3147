import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { DatabaseUnavailableError, isConnectionFailure } from '../../platform/postgres/index.js';
import { QueueUnavailableError } from '../../platform/redis/index.js';
import type { Database } from '../db/index.js';
import { isCompanyId } from '../tenancy/index.js';
import { isKeyId } from './key-token.js';

/** What a copy did. */
export interface RedisKeysCopy {
  /** Keys found in Redis that were not in PostgreSQL yet, now copied. */
  copied: number;
  /** Keys found in Redis that PostgreSQL already had (an earlier copy): left as they are. */
  already: number;
  /** Companies made for the copied keys (named after their id), as they did not exist. */
  companiesCreated: string[];
}

/** One key as an earlier docpipe kept it in Redis. */
interface RedisKey {
  id: string;
  company: string;
  name: string;
  hash: Buffer;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/**
 * Copies the API keys an earlier docpipe kept in Redis into PostgreSQL, so that they keep
 * working: run with the migrations (`docpipe db migrate`, and `start`, `serve` and `worker` at
 * start). Redis held them under `<prefix>:apikeys:` (`prefix` is DOCPIPE_QUEUE_PREFIX): a hash
 * per key at `key:<id>` (hash as hex, company, name, createdAt, expiresAt, revokedAt; times in
 * ms) and the ids by creation in the sorted set `ids`.
 *
 * Each key keeps its id, its hash (the SHA-256 of the key, so the same key verifies), its
 * company, name, times and revocation. It gets no user, as it had none, and is marked with when
 * it was copied: such a key works without a user (a key made here whose user is removed does
 * not). A company that PostgreSQL does not have yet is made for it, named after its id.
 *
 * Idempotent: a key PostgreSQL has already is left as it is there (a revocation made since
 * stays), so the copy may run at every start. Redis keeps its copy, so that the earlier docpipe
 * could still be run on it; a key it makes or revokes after the copy is not copied again.
 */
export async function copyRedisKeys(
  redis: Redis,
  prefix: string,
  db: Kysely<Database>,
  options: { redisUrl: string; databaseUrl: string; now?: () => number },
): Promise<RedisKeysCopy> {
  const keys = await readRedisKeys(redis, `${prefix}:apikeys`, options.redisUrl);
  if (keys.length === 0) return { copied: 0, already: 0, companiesCreated: [] };
  const copiedAt = new Date((options.now ?? Date.now)());
  try {
    return await db.transaction().execute(async (tx) => {
      const companies = [...new Set(keys.map((k) => k.company))];
      const made = await tx
        .insertInto('companies')
        .values(companies.map((id) => ({ id, name: id })))
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .execute();
      const inserted = await tx
        .insertInto('api_keys')
        .values(
          keys.map((k) => ({
            id: k.id,
            company_id: k.company,
            user_id: null,
            name: k.name,
            hash: k.hash,
            created_at: k.createdAt,
            expires_at: k.expiresAt,
            revoked_at: k.revokedAt,
            copied_from_redis_at: copiedAt,
          })),
        )
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .execute();
      return {
        copied: inserted.length,
        already: keys.length - inserted.length,
        companiesCreated: made.map((c) => c.id).sort(),
      };
    });
  } catch (err) {
    if (isConnectionFailure(err)) throw new DatabaseUnavailableError(options.databaseUrl, err);
    throw err;
  }
}

/** Every whole key record under `base`; a partial or garbled one is left out, as the earlier store did. */
async function readRedisKeys(redis: Redis, base: string, redisUrl: string): Promise<RedisKey[]> {
  try {
    const ids = await redis.zrange(`${base}:ids`, 0, -1);
    if (ids.length === 0) return [];
    const pipeline = redis.pipeline();
    for (const id of ids) pipeline.hgetall(`${base}:key:${id}`);
    const replies = (await pipeline.exec()) ?? [];
    return ids.flatMap((id, i) => {
      const [err, fields] = replies[i] ?? [];
      if (err) throw err;
      const key = redisKeyOf(id, fields as Record<string, string>);
      return key ? [key] : [];
    });
  } catch (err) {
    if ((err as Error).name === 'ReplyError') throw err;
    throw QueueUnavailableError.unreachable(redisUrl, undefined, err);
  }
}

function redisKeyOf(id: string, fields: Record<string, string>): RedisKey | undefined {
  const { company, name, hash } = fields;
  const createdAt = time(fields.createdAt);
  if (!isKeyId(id) || !isCompanyId(company) || name === undefined || createdAt === null)
    return undefined;
  if (hash === undefined || !/^[0-9a-f]{64}$/.test(hash)) return undefined;
  return {
    id,
    company,
    name,
    hash: Buffer.from(hash, 'hex'),
    createdAt,
    expiresAt: time(fields.expiresAt),
    revokedAt: time(fields.revokedAt),
  };
}

function time(ms: string | undefined): Date | null {
  if (ms === undefined || !/^\d+$/.test(ms)) return null;
  return new Date(Number(ms));
}
