import { createHash } from 'node:crypto';
import { lstat, mkdir, readlink, symlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { mkdirPrivate } from '../../base/files/index.js';
import { ROOT_CLUSTERS_DIR } from '../../base/paths/index.js';
import { blockingFolder } from './reachable-folder.js';
import type { ServerUser } from './server-user.js';

export { ROOT_CLUSTERS_DIR };

/** Where the cluster of `dir` lives, and whether it was moved out of the data folder for its user. */
export interface ClusterPlace {
  /** The cluster's own folder: `dir`, or the folder under ROOT_CLUSTERS_DIR it links to. */
  dir: string;
  /** The folder above the data folder that shut the server's user out, when it was moved. */
  movedBecause?: string;
  /** Whether the link in the data folder is still to be made (linkCluster), on the first start. */
  unlinked?: boolean;
}

/**
 * The folder the embedded PostgreSQL keeps its cluster in. Normally `dir` itself
 * (`DOCPIPE_DATA_DIR/postgres`). As root the server runs as the `postgres` user, who must pass
 * every folder above the data folder: a checkout under /root (mode 0700) shuts it out, and a
 * first `docpipe start` there would otherwise fail. Then the cluster lives under
 * ROOT_CLUSTERS_DIR, in a folder named by a hash of the data folder's path (the same one on every
 * start), and `dir` is a symbolic link to it, so that the data folder still shows where its
 * database is. docpipe changes no permission of a folder it does not own.
 *
 * A cluster already inside `dir` stays there: moving a database is the operator's decision, and
 * the start then fails with what to do (makeReachable). Changes nothing: linkCluster makes the
 * link, under the data folder's lock.
 */
export async function clusterPlace(
  dir: string,
  user: ServerUser,
  dataDir: string,
  clustersDir = ROOT_CLUSTERS_DIR,
): Promise<ClusterPlace> {
  if (!user.switched) return { dir };
  const link = await lstat(dir).catch(() => undefined);
  const target = join(
    clustersDir,
    createHash('sha256').update(resolve(dir)).digest('hex').slice(0, 16),
  );
  if (link?.isSymbolicLink() && resolve(dataDir, await readlink(dir)) === target) {
    return { dir: target, movedBecause: (await blockingFolder(dataDir, user)) ?? dataDir };
  }
  if (link !== undefined) return { dir };
  const blocked = await blockingFolder(dataDir, user);
  if (blocked === undefined) return { dir };
  return { dir: target, movedBecause: blocked, unlinked: true };
}

/** Makes the link from the data folder's `postgres` to the cluster's place, when still to be made. */
export async function linkCluster(link: string, place: ClusterPlace): Promise<void> {
  if (!place.unlinked) return;
  await mkdir(dirname(place.dir), { recursive: true, mode: 0o755 });
  await mkdirPrivate(dirname(link));
  await symlink(place.dir, link);
}
