import { chown, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { replaceFile } from '../../base/files/index.js';
import type { ServerUser } from './server-user.js';

/**
 * The file in a cluster kept under the clusters folder (cluster-place.ts) that names the data
 * folder it belongs to: the folder's name is a hash of that path, which cannot be read back, so
 * without it `docpipe postgres clean` could not tell a cluster whose data folder is gone.
 */
export const CLUSTER_OWNER_FILE = 'docpipe-data-folder.json';

export interface ClusterOwner {
  /** The data folder (DOCPIPE_DATA_DIR) whose `postgres` link leads to the cluster. */
  dataFolder: string;
}

/**
 * Writes down which data folder the cluster `dir` belongs to, at every start (a cluster made by
 * an earlier docpipe gets its record then). The server's user owns it, as everything in its
 * cluster (a backup with pg_basebackup reads every file there).
 */
export async function recordClusterOwner(
  dir: string,
  dataFolder: string,
  user: ServerUser,
): Promise<void> {
  const path = join(dir, CLUSTER_OWNER_FILE);
  const owner: ClusterOwner = { dataFolder: resolve(dataFolder) };
  const text = `${JSON.stringify(owner)}\n`;
  if ((await readFile(path, 'utf8').catch(() => undefined)) === text) return;
  await replaceFile(path, Buffer.from(text));
  if (user.switched) await chown(path, user.uid, user.gid);
}

/** The data folder the cluster `dir` belongs to, or undefined when it has no record of it. */
export async function readClusterOwner(dir: string): Promise<ClusterOwner | undefined> {
  try {
    const v = JSON.parse(await readFile(join(dir, CLUSTER_OWNER_FILE), 'utf8')) as unknown;
    const dataFolder = (v as Partial<ClusterOwner> | null)?.dataFolder;
    return typeof dataFolder === 'string' && dataFolder.startsWith('/')
      ? { dataFolder }
      : undefined;
  } catch {
    return undefined;
  }
}
