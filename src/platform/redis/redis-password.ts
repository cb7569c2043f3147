import { randomBytes } from 'node:crypto';
import { link, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdirPrivate, PRIVATE_MODES } from '../../base/files/index.js';

/** The file in the embedded Redis's folder that keeps its password. */
export const REDIS_PASSWORD_FILE = 'redis.password';

/**
 * The embedded Redis's password, made once and kept in its folder (mode 0600 in a folder of mode
 * 0700): the same on every start, so that clients still connected reconnect with it, and in no
 * other place but the URL file `docpipe start` writes for the commands of other terminals (also
 * 0600). Written whole to a temporary file and linked into place, so that no reader sees half a
 * password and of two starts racing the first one's wins.
 */
export async function redisPassword(dir: string): Promise<string> {
  const path = join(dir, REDIS_PASSWORD_FILE);
  const found = await readPassword(path);
  if (found !== undefined) return found;
  await mkdirPrivate(dir);
  const password = randomBytes(32).toString('hex');
  const temporary = `${path}.${process.pid}.tmp`;
  const file = await open(temporary, 'w', PRIVATE_MODES.file);
  try {
    await file.writeFile(`${password}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await link(temporary, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return (await readPassword(path)) ?? password;
  } finally {
    await rm(temporary, { force: true });
  }
  return password;
}

async function readPassword(path: string): Promise<string | undefined> {
  const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (text === undefined) return undefined;
  const password = text.trim();
  // Hex only: it goes into a configuration line and a URL as it is.
  if (!/^[0-9a-f]{32,}$/.test(password))
    throw new Error(
      `${path} does not hold the embedded Redis's password (64 hex digits): remove it, and the next start makes a new one`,
    );
  return password;
}
