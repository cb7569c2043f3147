import { basename, join } from 'node:path';
import { InputError } from '../../base/files/index.js';
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

/**
 * No Redis to use: REDIS_URL is not set, and no `docpipe start` runs on the data folder that was
 * searched. It names that folder, since a `docpipe start` on another DOCPIPE_DATA_DIR is the
 * usual cause. An InputError: the CLI answers it as bad usage (exit status 2).
 */
export class NoRedisError extends InputError {
  override readonly name = 'NoRedisError';

  constructor(
    readonly dataDir: string,
    /** The URL file that was looked for. */
    readonly urlFile: string,
  ) {
    super(
      `no Redis: REDIS_URL is not set, and no "docpipe start" runs on the data folder ${dataDir} ` +
        `(it has no ${basename(urlFile)}). Set REDIS_URL, or run ` +
        `"docpipe start" first; to use one that runs on another folder, set DOCPIPE_DATA_DIR to it`,
    );
  }
}

/** resolveRedisUrl for a command that cannot do without Redis: NoRedisError when there is none. */
export async function requireRedisUrl(where: RedisWhere): Promise<string> {
  const url = await resolveRedisUrl(where);
  if (url) return url;
  throw new NoRedisError(where.dataDir, redisUrlFile(where.dataDir).path);
}
