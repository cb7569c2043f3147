import { execFile } from 'node:child_process';
import { chown, mkdir, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { acquireDataLock, ServerProcess, stopStale, type DataLock } from '../embedded/index.js';
import { clusterPlace, linkCluster } from './cluster-place.js';
import { recordClusterOwner } from './cluster-owner.js';
import { findPostgresBinaries, type PostgresBinaries } from './postgres-binaries.js';
import { makeReachable } from './reachable-folder.js';
import { serverUser, type ServerUser } from './server-user.js';
import { checkSocketPath, SOCKET_PORT } from './socket-path.js';
import { socketUrl } from './postgres-url.js';

export interface EmbeddedPostgresOptions {
  /**
   * PostgreSQL's own folder (its data directory and its socket): `DOCPIPE_DATA_DIR/postgres`.
   * Made with initdb on the first start. Its parent is the data folder, where the lock lives.
   */
  dir: string;
  /** The database docpipe uses, made on the first start. @defaultValue 'docpipe' */
  database?: string;
  /** Where initdb and postgres are. @defaultValue the newest of Debian's /usr/lib/postgresql/<v>/bin */
  binDir?: string;
  /** @defaultValue 30 000 ms: after a kill, the server replays its write-ahead log first */
  startTimeoutMs?: number;
  /**
   * Where the cluster goes when the server's user cannot reach the data folder (cluster-place.ts).
   * @defaultValue ROOT_CLUSTERS_DIR (/var/lib/docpipe/postgres)
   */
  clustersDir?: string;
}

/** The role initdb makes, whichever system user runs the server: URLs name it. */
export const EMBEDDED_ROLE = 'docpipe';

/** How long a stop waits for the fast shutdown (a checkpoint) before SIGKILL. */
const STOP_GRACE_MS = 10_000;

/**
 * A server killed with SIGKILL leaves its children a moment (they leave once they notice), and
 * they keep its shared memory: a new server refuses to start meanwhile. Tries, and the pause
 * between them.
 */
const SHARED_MEMORY_TRIES = 5;
const SHARED_MEMORY_PAUSE_MS = 300;

/**
 * docpipe's own PostgreSQL for running without DATABASE_URL: Debian's server, its data in
 * `DOCPIPE_DATA_DIR/postgres`, listening on a Unix socket in that folder and on no TCP port. The
 * folder is mode 0700 and belongs to the server's user, so only that user and root reach the
 * socket: that is why local connections may be trusted without a password. As root it runs as
 * the `postgres` user (PostgreSQL refuses root). A ServerProcess in its own session, so that
 * Ctrl-C in docpipe's terminal reaches docpipe only; docpipe stops it last, with SIGINT (fast
 * shutdown). Locked by `postgres.lock` in the data folder: a second start on the folder is
 * refused while the first lives, and the server a killed owner left behind is stopped first.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly server: ServerProcess,
    private readonly lock: DataLock,
    readonly dir: string,
    readonly database: string,
    readonly version: number,
    /** The system user the server runs as. */
    readonly user: string,
    /**
     * The folder above the data folder that shut the server's user out, when the cluster lives
     * under /var/lib/docpipe/postgres for it (cluster-place.ts); `dir` is then that folder.
     */
    readonly movedBecause?: string,
  ) {}

  /** A `postgresql://` URL for the Unix socket, as DATABASE_URL would hold it. */
  get url(): string {
    return socketUrl(this.dir, this.database, EMBEDDED_ROLE);
  }

  /** The URL of another database on this server (the test helper makes one per test file). */
  urlFor(database: string): string {
    return socketUrl(this.dir, database, EMBEDDED_ROLE);
  }

  get pid(): number | undefined {
    return this.server.pid;
  }

  static async start(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
    const dataDir = dirname(options.dir);
    const database = options.database ?? 'docpipe';
    const user = await serverUser();
    const place = await clusterPlace(options.dir, user, dataDir, options.clustersDir);
    const dir = place.dir;
    checkSocketPath(dir);
    const lock = await acquireDataLock(dataDir, {
      name: `${basename(options.dir)}.lock`,
      holder: 'an embedded PostgreSQL',
    });
    try {
      await linkCluster(options.dir, place);
      const version = await clusterVersion(dir);
      const binaries = await findPostgresBinaries({
        binDir: options.binDir,
        forVersion: version,
      });
      if (version === undefined) await initCluster(dir, binaries, user);
      await makeReachable(dir, user, dataDir);
      await handOver(dir, user);
      if (place.movedBecause) await recordClusterOwner(dir, dataDir, user);
      // Under the lock, a server still running on the folder was left by a killed owner.
      const pidFile = join(dir, 'postmaster.pid');
      await stopStale(pidFile, 'postgres', STOP_GRACE_MS, 'SIGINT');
      await removeDeadPidFile(pidFile);
      const server = await launch(dir, binaries, user, options.startTimeoutMs ?? 30_000);
      const embedded = new EmbeddedPostgres(
        server,
        lock,
        dir,
        database,
        binaries.version,
        user.name,
        place.movedBecause,
      );
      try {
        await createDatabase(embedded.urlFor('postgres'), database);
      } catch (err) {
        await embedded.stop();
        throw err;
      }
      return embedded;
    } catch (err) {
      await lock.release();
      throw err;
    }
  }

  /**
   * Stops the server and resolves once it has exited: SIGINT, its fast shutdown (clients are
   * disconnected, a checkpoint is written), SIGKILL after `graceMs`. Then the lock is released.
   */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    await this.server.stop(graceMs);
    await this.lock.release();
  }

  /**
   * Kills without warning, as a crash would, and lets go of the folder: for fault tests of what
   * the next start finds (a stale postmaster.pid, a write-ahead log to replay).
   */
  async kill(): Promise<void> {
    await this.server.kill();
    await this.lock.release();
  }
}

/** The major version a folder's cluster was made by, or undefined when there is none yet. */
async function clusterVersion(dir: string): Promise<number | undefined> {
  const text = await readFile(join(dir, 'PG_VERSION'), 'utf8').catch(() => undefined);
  if (text === undefined) {
    const left = await readdir(dir).catch(() => [] as string[]);
    if (left.length > 0)
      throw new Error(
        `${dir} is not empty and holds no PostgreSQL cluster (no PG_VERSION): docpipe makes its ` +
          'PostgreSQL there on the first start. Move what is in it aside, or set DOCPIPE_DATA_DIR ' +
          'to another folder',
      );
    return undefined;
  }
  return Number(text.trim());
}

/**
 * initdb into a folder beside `dir`, renamed into place when complete: a start killed midway
 * leaves no half cluster that the next start would take for a whole one. UTF8 and the C locale
 * (byte order: the same sort on every machine); trust on the Unix socket (reachable only through
 * a folder of mode 0700), and no TCP at all.
 */
async function initCluster(
  dir: string,
  binaries: PostgresBinaries,
  user: ServerUser,
): Promise<void> {
  const parent = dirname(dir);
  await mkdir(parent, { recursive: true });
  await makeReachable(dir, user, parent);
  const building = join(parent, `.${basename(dir)}.initdb-${process.pid}`);
  await rm(building, { recursive: true, force: true });
  await mkdir(building, { mode: 0o700 });
  if (user.switched) await chown(building, user.uid, user.gid);
  try {
    await promisify(execFile)(
      binaries.initdb,
      [
        '--pgdata',
        building,
        '--encoding',
        'UTF8',
        '--locale',
        'C',
        '--username',
        EMBEDDED_ROLE,
        '--auth-local',
        'trust',
        '--auth-host',
        'reject',
      ],
      { ...asUser(user), cwd: building, env: serverEnv() },
    );
  } catch (err) {
    await rm(building, { recursive: true, force: true });
    const { stderr, message } = err as { stderr?: string; message: string };
    throw new Error(
      `initdb of the embedded PostgreSQL in ${dir} failed: ${stderr?.trim() || message}`,
    );
  }
  await rm(dir, { recursive: true, force: true });
  await rename(building, dir);
}

/** The folder belongs to the server's user (a copy restored as root would not). */
async function handOver(dir: string, user: ServerUser): Promise<void> {
  if (!user.switched || (await stat(dir)).uid === user.uid) return;
  await promisify(execFile)('chown', ['-R', `${user.uid}:${user.gid}`, dir]);
}

/**
 * postmaster.pid of a server that is gone, whose pid now belongs to another process: postgres
 * would take that process for a server still running and refuse to start. (A pid that is free
 * postgres handles itself.)
 */
async function removeDeadPidFile(pidFile: string): Promise<void> {
  const text = await readFile(pidFile, 'utf8').catch(() => undefined);
  if (text === undefined) return;
  const pid = Number(text.split('\n', 1)[0]);
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  if (cmdline === undefined || !cmdline.includes('postgres')) await rm(pidFile, { force: true });
}

async function launch(
  dir: string,
  binaries: PostgresBinaries,
  user: ServerUser,
  startTimeoutMs: number,
): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ServerProcess.start({
        program: 'postgres',
        binary: binaries.postgres,
        args: ['-D', dir, '-k', dir, '-p', String(SOCKET_PORT), '-c', 'listen_addresses='],
        answers: () => answers(socketUrl(dir, 'postgres', EMBEDDED_ROLE)),
        startTimeoutMs,
        stopSignal: 'SIGINT',
        ...asUser(user),
        cwd: dir,
        env: serverEnv(),
      });
    } catch (err) {
      if (attempt >= SHARED_MEMORY_TRIES || !/still in use/.test((err as Error).message))
        throw new Error(
          `the embedded PostgreSQL in ${dir} did not start: ${(err as Error).message}`,
        );
      await new Promise((r) => setTimeout(r, SHARED_MEMORY_PAUSE_MS));
    }
  }
}

/** Whether the server takes a connection and answers a query (not "starting up"). */
async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Makes the database unless it is there; two starts at once both succeed. */
async function createDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0)
      // CREATE DATABASE takes no parameters: the name is quoted as an identifier.
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((err) => {
        if ((err as { code?: string }).code !== '42P04') throw err; // duplicate_database
      });
  } finally {
    await client.end();
  }
}

function asUser(user: ServerUser): { uid?: number; gid?: number } {
  return user.switched ? { uid: user.uid, gid: user.gid } : {};
}

/**
 * The server's environment: none of docpipe's (PGDATA, PGPORT and the like would override what
 * the command line says), the C locale so that messages are the same everywhere.
 */
function serverEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', LANG: 'C' };
}
