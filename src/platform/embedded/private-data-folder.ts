import { chmod, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTreePrivate, mkdirPrivate } from '../../base/files/index.js';

export interface PrivateDataFolderOptions {
  /**
   * The group that may keep search permission (only that) on the data folder itself: the
   * embedded PostgreSQL's user's, which must pass through to its cluster when docpipe runs as
   * root (postgres/reachable-folder.ts grants it).
   */
  searchGroup?: number;
}

/**
 * Makes the data folder its owner's alone: the folder 0700, everything in it 0700 and 0600. The
 * data folder holds every company's documents, the Redis password and append-only file (with the
 * jobs and, without DOCPIPE_SIGNING_SECRET, the signing secret), the CPR key and the sealing key:
 * no other local user may read any of it. What docpipe writes now is private from the start; this
 * closes a folder an earlier docpipe left open (0755 folders, 0644 files), at each `docpipe
 * start`, before any server on it starts. `postgres` is PostgreSQL's own (initdb makes it 0700,
 * and the server refuses to start on a wider one) and is left alone. Answers how many files and
 * folders it changed.
 */
export async function makeDataFolderPrivate(
  dataDir: string,
  options: PrivateDataFolderOptions = {},
): Promise<number> {
  await mkdirPrivate(dataDir);
  let changed = 0;
  for (const name of await readdir(dataDir)) {
    if (name === 'postgres') continue;
    changed += await makeTreePrivate(join(dataDir, name));
  }
  // The folder itself last: a start killed midway finds it open still, and walks it again.
  const s = await stat(dataDir);
  const search = options.searchGroup !== undefined && s.gid === options.searchGroup;
  const mode = (s.mode & 0o7700) | (search ? s.mode & 0o010 : 0);
  if ((s.mode & 0o7777) !== mode) {
    await chmod(dataDir, mode);
    changed++;
  }
  return changed;
}
