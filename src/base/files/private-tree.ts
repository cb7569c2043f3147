import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Group and other permissions: what a private file or folder has none of. */
const OPEN_BITS = 0o077;

/**
 * Takes every group and other permission off `path` and, where a folder had any, off what is
 * under it; answers how many files and folders it changed. A folder that is private already is
 * not entered: docpipe makes what it writes private from the start (PRIVATE_MODES), so only a
 * tree written with open modes (by an earlier docpipe) is walked, once. Symbolic links are
 * neither followed nor changed; a path that is gone is nothing to do.
 */
export async function makeTreePrivate(path: string): Promise<number> {
  const s = await lstat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (s === undefined || s.isSymbolicLink() || (s.mode & OPEN_BITS) === 0) return 0;
  // The folder is closed first: nothing under it is reachable while the rest is changed.
  await chmod(path, s.mode & 0o7700 & ~OPEN_BITS);
  if (!s.isDirectory()) return 1;
  let changed = 1;
  for (const name of await readdir(path)) changed += await makeTreePrivate(join(path, name));
  return changed;
}

/**
 * Makes the folder `dir` with mode 0700 when it is missing, and the folders above it that are
 * missing with the usual mode: those are not docpipe's (/var/lib/docpipe holds the clusters that
 * the postgres user must reach, and a data folder beside them).
 */
export async function mkdirPrivate(dir: string): Promise<void> {
  await mkdir(dirname(dir), { recursive: true });
  await mkdir(dir, { mode: 0o700 }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
}
