import { randomBytes } from 'node:crypto';
import { chmod, link, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CPR_KEY_BYTES, CPR_KEY_VARIABLE, parseCprKey } from './cpr-config.js';

/**
 * The CPR key of a one-machine installation: with no DOCPIPE_CPR_KEY, `docpipe start` makes one
 * on its first start and keeps it in `DOCPIPE_DATA_DIR/cpr.key` (mode 0600: only docpipe's user
 * reads it), so that the numbers it encrypted decrypt after a restart; a `docpipe serve` on the
 * same data folder reads the same file. It lives beside the database it protects, so it guards
 * against a copy of the database alone (a dump, a backup), not against one of the data folder:
 * set DOCPIPE_CPR_KEY, kept elsewhere, for that (docs/forms.md).
 */
export const CPR_KEY_FILE = 'cpr.key';

/** The key file's path in the data folder. */
export function cprKeyPath(dataDir: string): string {
  return join(dataDir, CPR_KEY_FILE);
}

/** The key the data folder keeps, or undefined when it keeps none. A damaged file is an error. */
export async function readCprKeyFile(dataDir: string): Promise<Buffer | undefined> {
  const path = cprKeyPath(dataDir);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const parsed = parseCprKey(text);
  if ('problem' in parsed)
    throw new Error(
      `${path} is not a CPR key: it ${parsed.problem}. Restore it from a backup, or set ${CPR_KEY_VARIABLE}; a new key cannot read the CPR numbers stored so far`,
    );
  return parsed.key;
}

/**
 * The data folder's key, made when there is none: written whole to a temporary file with mode
 * 0600 and linked into place, so that no reader ever sees half a key; a link (unlike a rename)
 * never replaces a key already there, so of two starts racing (the data folder's lock lets only
 * one through anyway) the first key wins and both use it.
 */
export async function ensureCprKeyFile(dataDir: string): Promise<Buffer> {
  const found = await readCprKeyFile(dataDir);
  if (found) return found;
  const path = cprKeyPath(dataDir);
  const temporary = `${path}.${process.pid}.tmp`;
  const key = randomBytes(CPR_KEY_BYTES);
  const file = await open(temporary, 'wx', 0o600);
  try {
    await file.writeFile(`${key.toString('base64')}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
  // The umask cannot widen it, but a mode set explicitly says so to the reader of this code.
  await chmod(temporary, 0o600);
  try {
    await link(temporary, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return (await readCprKeyFile(dataDir))!;
  } finally {
    await rm(temporary, { force: true });
  }
  return key;
}
