import { readFileSync, unlinkSync } from 'node:fs';
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError, mkdirPrivate, PRIVATE_MODES } from '../../base/files/index.js';

/** Who holds a data folder: enough to tell a live holder from a reused process id. */
interface Holder {
  pid: number;
  /** Start time of the process in clock ticks since boot (/proc/<pid>/stat), when known. */
  startTicks?: number;
  since: string;
}

export interface DataLock {
  readonly file: string;
  /** Removes the lock if it is still this process's. */
  release(): Promise<void>;
}

/**
 * `docpipe start` on this data folder is held by another live process. An InputError, so that the
 * CLI answers it as bad usage (exit status 2) with its message: the user picks another folder.
 */
export class DataFolderInUseError extends InputError {
  override readonly name = 'DataFolderInUseError';

  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
    message: string,
  ) {
    super(message);
  }
}

/** The lock file of `docpipe start` in a data folder. */
export const dataLockFile = (dataDir: string, name = 'docpipe.lock') => join(dataDir, name);

/**
 * The lock files this process holds. A holder whose pid is this process's is otherwise taken for
 * a stale one (a container's docpipe is pid 1 on every run): this tells the two apart.
 */
const heldHere = new Set<string>();

export interface DataLockOptions {
  /** The lock file's name in the folder. @defaultValue 'docpipe.lock' (`docpipe start`'s) */
  name?: string;
  /** What holds the folder, as the refusal names it. @defaultValue 'docpipe start' */
  holder?: string;
}

/**
 * Makes this process the one `docpipe start` on `dataDir`: the lock every embedded server on the
 * folder (Redis now, PostgreSQL next) lives under. A second one would stop the first's embedded
 * servers (they take the same files) and leave the first logging connection errors; so while the
 * holder lives, this refuses with a DataFolderInUseError saying what to do. A lock
 * whose holder is dead (killed, machine restarted) is stale and taken over.
 */
export async function acquireDataLock(
  dataDir: string,
  options: DataLockOptions = {},
): Promise<DataLock> {
  await mkdirPrivate(dataDir);
  const file = dataLockFile(dataDir, options.name);
  const what = options.holder ?? 'docpipe start';
  if (heldHere.has(file))
    throw lockedError(dataDir, { pid: process.pid, since: 'earlier in this process' }, what);
  const text = `${JSON.stringify(ownHolder())}\n`;
  // Written whole, then linked into place: link fails if the lock exists, so no reader ever sees
  // a half-written lock, and of two starts at once exactly one wins.
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text, { mode: PRIVATE_MODES.file });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await link(tmp, file);
        return heldLock(file, text);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const found = await readFile(file, 'utf8').catch(() => undefined);
      if (found === undefined) continue;
      const holder = parseHolder(found);
      if (holder && isAlive(holder)) throw lockedError(dataDir, holder, what);
      await removeStale(file, found);
    }
    throw new InputError(`cannot take ${file}: other processes keep changing it`);
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

function heldLock(file: string, text: string): DataLock {
  heldHere.add(file);
  const releaseSync = () => {
    heldHere.delete(file);
    try {
      if (readFileSync(file, 'utf8') === text) unlinkSync(file);
    } catch {
      // Already gone.
    }
  };
  // Also when the process ends through an uncaught error: a stale lock is harmless (the next
  // start takes it over), but a clean folder is clearer.
  process.once('exit', releaseSync);
  return {
    file,
    release() {
      process.removeListener('exit', releaseSync);
      releaseSync();
      return Promise.resolve();
    },
  };
}

/**
 * Moves the stale lock aside and removes it, unless what was moved is no longer the stale lock
 * (another start took it over meanwhile): that one is put back.
 */
async function removeStale(file: string, stale: string): Promise<void> {
  const aside = `${file}.${process.pid}.stale`;
  try {
    await rename(file, aside);
  } catch {
    return;
  }
  if ((await readFile(aside, 'utf8').catch(() => stale)) !== stale)
    await link(aside, file).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

function lockedError(dataDir: string, holder: Holder, what: string): DataFolderInUseError {
  return new DataFolderInUseError(
    dataDir,
    holder.pid,
    `${what} is already running on ${dataDir} (process ${holder.pid}, since ${holder.since}); ` +
      `this one did not start and left it untouched. Stop that one first (Ctrl-C in its terminal, ` +
      `or kill ${holder.pid}), or start this one on another folder with DOCPIPE_DATA_DIR. ` +
      `To add a worker to the running one, use "docpipe worker".`,
  );
}

function ownHolder(): Holder {
  const startTicks = startTicksOf(readStat(process.pid));
  return {
    pid: process.pid,
    ...(startTicks === undefined ? {} : { startTicks }),
    since: new Date().toISOString(),
  };
}

function parseHolder(text: string): Holder | undefined {
  try {
    const v = JSON.parse(text) as Partial<Holder>;
    if (!Number.isSafeInteger(v.pid) || (v.pid ?? 0) <= 0) return undefined;
    return { pid: v.pid!, startTicks: v.startTicks, since: String(v.since ?? 'an unknown time') };
  } catch {
    return undefined;
  }
}

/**
 * The holder's process still runs: the same id, and (where /proc tells) the same start time, so
 * that a process that got the id later (after a reboot, in a container where docpipe is always
 * pid 1) is not taken for it.
 */
function isAlive(holder: Holder): boolean {
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = readStat(holder.pid);
  if (stat === undefined || holder.startTicks === undefined) return true;
  return startTicksOf(stat) === holder.startTicks;
}

function readStat(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/<pid>/stat, counted after the command name, which may hold spaces. */
function startTicksOf(stat: string | undefined): number | undefined {
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[19]);
  return Number.isSafeInteger(ticks) ? ticks : undefined;
}
