import { join } from 'node:path';
import { UrlFile } from '../embedded/index.js';

/** Where to look for Redis: what a DocpipeConfig holds of it. */
export interface RedisWhere {
  /** REDIS_URL, when set. */
  redisUrl?: string;
  /** DOCPIPE_DATA_DIR: where `docpipe start` writes the URL of its embedded Redis. */
  dataDir: string;
}

/** Where `docpipe start` writes the URL of its embedded Redis, for commands in other terminals. */
export const redisUrlFile = (dataDir: string): UrlFile => new UrlFile(join(dataDir, 'redis.url'));

/** The Redis to use: REDIS_URL, or the one a running `docpipe start` wrote down. */
export async function resolveRedisUrl(where: RedisWhere): Promise<string | undefined> {
  if (where.redisUrl) return where.redisUrl;
  return redisUrlFile(where.dataDir).read();
}
