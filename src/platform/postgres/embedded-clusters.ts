import { lstat, readFile, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readClusterOwner } from './cluster-owner.js';

/**
 * Why a cluster under the clusters folder is kept or may go: `running`, its server runs;
 * `in-use`, its data folder exists; `orphaned`, its data folder is gone (it may be removed);
 * `unrecorded`, it names no data folder (made by a docpipe before the record, or its record is
 * lost), so whether its data folder exists cannot be told.
 */
export type ClusterState = 'running' | 'in-use' | 'orphaned' | 'unrecorded';

export interface EmbeddedCluster {
  /** The cluster's folder: `<clusters folder>/<hash of its data folder's path>`. */
  dir: string;
  /** The data folder it belongs to, when its record says. */
  dataFolder?: string;
  state: ClusterState;
  /** The pid of its server, when it runs. */
  pid?: number;
  /** The bytes of its files. */
  bytes: number;
}

/** The folders of clusters are named by 16 hex digits (cluster-place.ts). */
const CLUSTER_NAME = /^[0-9a-f]{16}$/;

/**
 * The clusters `docpipe start` keeps under `clustersDir` for data folders the server's user
 * cannot reach, each with its state; none when the folder does not exist. Sorted by folder.
 */
export async function listClusters(clustersDir: string): Promise<EmbeddedCluster[]> {
  const names = await readdir(clustersDir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  const clusters: EmbeddedCluster[] = [];
  for (const name of names.filter((n) => CLUSTER_NAME.test(n)).sort()) {
    const dir = join(clustersDir, name);
    if (!(await lstat(dir)).isDirectory()) continue;
    clusters.push(await clusterOf(dir));
  }
  return clusters;
}

async function clusterOf(dir: string): Promise<EmbeddedCluster> {
  const owner = await readClusterOwner(dir);
  const bytes = await sizeOf(dir);
  const pid = await serverPid(dir);
  const dataFolder = owner?.dataFolder;
  const base = { dir, ...(dataFolder === undefined ? {} : { dataFolder }), bytes };
  if (pid !== undefined) return { ...base, state: 'running', pid };
  if (dataFolder === undefined) return { ...base, state: 'unrecorded' };
  return { ...base, state: (await exists(dataFolder)) ? 'in-use' : 'orphaned' };
}

export interface CleanOptions {
  /** List what would be removed, remove nothing. */
  dryRun?: boolean;
  /** Remove `unrecorded` clusters too (whose server does not run). */
  unrecorded?: boolean;
}

export interface CleanOutcome {
  /** Removed (or, with dryRun, to be removed). */
  removed: EmbeddedCluster[];
  kept: EmbeddedCluster[];
  /** To be removed, and removing failed. */
  failed: { cluster: EmbeddedCluster; error: string }[];
}

/**
 * Removes the clusters under `clustersDir` whose data folder is gone: never one whose server
 * runs, nor one whose data folder exists. Each is looked at again just before it goes, and moved
 * aside first (a rename), so that a `docpipe start` on its data folder meanwhile makes a new
 * cluster rather than start on half of an old one.
 */
export async function cleanClusters(
  clustersDir: string,
  options: CleanOptions = {},
): Promise<CleanOutcome> {
  const outcome: CleanOutcome = { removed: [], kept: [], failed: [] };
  const removable = (c: EmbeddedCluster) =>
    c.state === 'orphaned' || (options.unrecorded === true && c.state === 'unrecorded');
  for (const listed of await listClusters(clustersDir)) {
    if (!removable(listed) || options.dryRun) {
      (removable(listed) ? outcome.removed : outcome.kept).push(listed);
      continue;
    }
    try {
      const cluster = await clusterOf(listed.dir);
      if (!removable(cluster)) {
        outcome.kept.push(cluster);
        continue;
      }
      const aside = join(clustersDir, `.${Date.now()}-${process.pid}.removing`);
      await rename(cluster.dir, aside);
      await rm(aside, { recursive: true, force: true });
      outcome.removed.push(cluster);
    } catch (err) {
      outcome.failed.push({ cluster: listed, error: (err as Error).message });
    }
  }
  return outcome;
}

/** The pid of a postgres that runs on `dir` (its postmaster.pid names a live postgres). */
async function serverPid(dir: string): Promise<number | undefined> {
  const text = await readFile(join(dir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const pid = Number(text.split('\n', 1)[0]);
  if (!Number.isSafeInteger(pid) || pid <= 1) return undefined;
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  return cmdline?.includes('postgres') ? pid : undefined;
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    (err: NodeJS.ErrnoException) => err.code !== 'ENOENT',
  );
}

async function sizeOf(path: string): Promise<number> {
  const s = await lstat(path).catch(() => undefined);
  if (s === undefined) return 0;
  if (!s.isDirectory()) return s.size;
  let bytes = 0;
  for (const name of await readdir(path).catch(() => [] as string[]))
    bytes += await sizeOf(join(path, name));
  return bytes;
}
