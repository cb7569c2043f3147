import { spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  EmbeddedPostgres,
  openDatabase,
  POSTGRES_SYSTEM_USER,
  serverUser,
} from '../../src/platform/postgres/index.js';
import { DataFolderInUseError } from '../../src/platform/embedded/index.js';
import { sourceChildArgs, sourceModule } from '../helpers/source-child.js';
import { testDir } from '../helpers/test-dir.js';
import { untilOutput } from '../helpers/child-output.js';
import { waitUntil } from '../helpers/wait.js';

/**
 * docpipe's own PostgreSQL, as `docpipe start` runs it: Debian's server on a Unix socket in the
 * data folder, as the postgres user when docpipe is root, locked to one owner, and started again
 * after a crash of the server or of its owner.
 */

const asRoot = process.getuid?.() === 0;

/** Starts a server on a fresh data folder of the test's own, stopped when the test ends. */
async function startOnFreshFolder(): Promise<{ data: string; server: EmbeddedPostgres }> {
  const data = testDir('docpipe-pg-');
  const server = await EmbeddedPostgres.start({ dir: join(data, 'postgres') });
  onTestFinished(() => server.stop());
  return { data, server };
}

function uidOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^Uid:\s+(\d+)/m.exec(status)![1]);
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the embedded PostgreSQL', () => {
  it("runs as the postgres user when docpipe is root (else as docpipe's user), on a socket in its folder, with no TCP", async () => {
    const { data, server } = await startOnFreshFolder();
    const user = await serverUser();
    expect(user.switched).toBe(asRoot);
    if (asRoot) expect(server.user).toBe(POSTGRES_SYSTEM_USER);
    expect(uidOf(server.pid!)).toBe(user.uid);
    const folder = statSync(join(data, 'postgres'));
    expect(folder.uid).toBe(user.uid);
    expect(folder.mode & 0o777).toBe(0o700);
    expect(existsSync(join(data, 'postgres', '.s.PGSQL.5432'))).toBe(true);
    expect(server.url).toBe(`postgresql://docpipe@/docpipe?host=${data}/postgres`);

    const db = openDatabase<unknown>(server.url);
    onTestFinished(() => db.destroy());
    const { rows } = await sql<{
      user: string;
      database: string;
      listen: string;
      encoding: string;
      collate: string;
    }>`SELECT current_user AS user, current_database() AS database,
              current_setting('listen_addresses') AS listen,
              pg_encoding_to_char(encoding) AS encoding, datcollate AS collate
         FROM pg_database WHERE datname = current_database()`.execute(db);
    expect(rows).toEqual([
      { user: 'docpipe', database: 'docpipe', listen: '', encoding: 'UTF8', collate: 'C' },
    ]);
  });

  it('refuses a second start on the same data folder and leaves the first running', async () => {
    const { data, server } = await startOnFreshFolder();
    const second = EmbeddedPostgres.start({ dir: join(data, 'postgres') });
    await expect(second).rejects.toBeInstanceOf(DataFolderInUseError);
    await expect(second).rejects.toThrow(/already running on/);
    const db = openDatabase<unknown>(server.url);
    onTestFinished(() => db.destroy());
    expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });

  it('starts again after the server was killed (kill -9), with what was committed', async () => {
    const data = testDir('docpipe-pg-');
    const dir = join(data, 'postgres');
    const first = await EmbeddedPostgres.start({ dir });
    const db = openDatabase<unknown>(first.url);
    await sql`CREATE TABLE kept (n int)`.execute(db);
    await sql`INSERT INTO kept VALUES (42)`.execute(db);
    await db.destroy();
    const killedPid = first.pid!;
    await first.kill();
    // What a crash leaves: the pid file of a server that is gone.
    expect(existsSync(join(dir, 'postmaster.pid'))).toBe(true);
    expect(running(killedPid)).toBe(false);

    const second = await EmbeddedPostgres.start({ dir });
    onTestFinished(() => second.stop());
    expect(second.pid).not.toBe(killedPid);
    const again = openDatabase<unknown>(second.url);
    onTestFinished(() => again.destroy());
    expect((await sql<{ n: number }>`SELECT n FROM kept`.execute(again)).rows).toEqual([{ n: 42 }]);
  });

  it('stops the server a killed owner left running, then starts its own', async () => {
    const data = testDir('docpipe-pg-');
    const dir = join(data, 'postgres');
    // An owner in a process of its own, killed with SIGKILL: its server, in its own session, lives on.
    const owner = spawn(
      process.execPath,
      [
        ...sourceChildArgs,
        '--input-type=module',
        '-e',
        `const { EmbeddedPostgres } = await import(${JSON.stringify(sourceModule('src/platform/postgres/index.ts'))});
         const s = await EmbeddedPostgres.start({ dir: ${JSON.stringify(dir)} });
         console.log('started ' + s.pid);
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    owner.stdout.on('data', (c: Buffer) => (out += c.toString()));
    owner.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const leftPid = Number(
      await untilOutput(
        owner,
        () => /started (\d+)/.exec(out)?.[1],
        60_000,
        'the owner started its server',
        () => out,
      ),
    );
    owner.kill('SIGKILL');
    await new Promise((r) => owner.once('exit', r));
    expect(running(leftPid)).toBe(true);

    const server = await EmbeddedPostgres.start({ dir });
    onTestFinished(() => server.stop());
    expect(server.pid).not.toBe(leftPid);
    await waitUntil(() => !running(leftPid), 10_000, 'the left server gone');
    const db = openDatabase<unknown>(server.url);
    onTestFinished(() => db.destroy());
    expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });

  it('stops cleanly: the fast shutdown leaves no pid file and lets go of the folder', async () => {
    const data = testDir('docpipe-pg-');
    const dir = join(data, 'postgres');
    const server = await EmbeddedPostgres.start({ dir });
    const pid = server.pid!;
    await server.stop();
    expect(running(pid)).toBe(false);
    expect(existsSync(join(dir, 'postmaster.pid'))).toBe(false);
    expect(existsSync(join(data, 'postgres.lock'))).toBe(false);
  });

  // Only root switches users: as any other user the server runs as that user, who reaches the folder.
  it.runIf(asRoot)(
    'as root, keeps the cluster under the clusters folder (/var/lib/docpipe/postgres), linked from the data folder, when a folder above shuts the postgres user out',
    async () => {
      const outer = testDir('docpipe-pg-shut-'); // mode 0700, as /root is
      const data = join(outer, 'data');
      // A clusters folder of the test's own: the machine's /var/lib/docpipe is left alone.
      const clusters = testDir('docpipe-pg-clusters-');
      chmodSync(clusters, 0o755);
      const clustersDir = join(clusters, 'postgres');
      const first = await EmbeddedPostgres.start({ dir: join(data, 'postgres'), clustersDir });
      expect(first.movedBecause).toBe(outer);
      expect(first.dir.startsWith(`${clustersDir}/`)).toBe(true);
      expect(lstatSync(join(data, 'postgres')).isSymbolicLink()).toBe(true);
      const db = openDatabase(first.url);
      await sql`create table kept (n int)`.execute(db);
      await sql`insert into kept values (7)`.execute(db);
      await db.destroy();
      await first.stop();
      // The next start finds the same cluster through the link.
      const again = await EmbeddedPostgres.start({ dir: join(data, 'postgres'), clustersDir });
      onTestFinished(() => again.stop());
      expect(again.dir).toBe(first.dir);
      const db2 = openDatabase(again.url);
      onTestFinished(() => db2.destroy());
      const { rows } = await sql<{ n: number }>`select n from kept`.execute(db2);
      expect(rows).toEqual([{ n: 7 }]);
    },
  );

  it('refuses a data folder whose socket path would be too long, saying what to do', async () => {
    const outer = testDir('docpipe-pg-');
    // Reachable for the postgres user: a folder that shut it out would move the cluster (above).
    chmodSync(outer, 0o711);
    const data = join(outer, 'x'.repeat(90));
    await expect(EmbeddedPostgres.start({ dir: join(data, 'postgres') })).rejects.toThrow(
      /bytes long, and a Unix socket path may have at most 107: set DOCPIPE_DATA_DIR to a folder/,
    );
    expect(existsSync(data)).toBe(false);
  });
});
