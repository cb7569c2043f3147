import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocpipeConfig } from '../config/index.js';

/** Where `docpipe start` writes the URL of its embedded Redis, for commands in other terminals. */
export const redisUrlFile = (config: DocpipeConfig) => join(config.dataDir, 'redis.url');

/** The Redis to use: REDIS_URL, or the one a running `docpipe start` wrote down. */
export async function resolveRedisUrl(config: DocpipeConfig): Promise<string | undefined> {
  if (config.redisUrl) return config.redisUrl;
  return (await readFile(redisUrlFile(config), 'utf8').catch(() => '')).trim() || undefined;
}

/** Replaces the URL file whole, so that a client reading it never sees half of it. */
export async function writeUrlFile(config: DocpipeConfig, redisUrl: string): Promise<void> {
  const file = redisUrlFile(config);
  await writeFile(`${file}.${process.pid}`, `${redisUrl}\n`);
  await rename(`${file}.${process.pid}`, file);
}

/** Removes the URL file when the embedded Redis stops: no client should find a dead one. */
export async function removeUrlFile(config: DocpipeConfig): Promise<void> {
  await rm(redisUrlFile(config), { force: true });
}
