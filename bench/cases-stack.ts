/**
 * The stack the case benchmarks measure, as a deployment runs it: a private Redis and an embedded
 * PostgreSQL, then real `docpipe serve` and `docpipe worker` processes (the CLI, with the worker's
 * office processes) on them, sharing one data folder. The service and the worker are processes of
 * their own, so that their memory can be read apart and the benchmark's caller (this process)
 * does not count in either. The company, its user and its key are made through the service's own
 * repositories and key store, as `docpipe companies create`, `users add` and `keys create` do.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { EmbeddedPostgres, openDatabase } from '../src/platform/postgres/index.js';
import { EmbeddedRedis } from '../src/platform/redis/index.js';
import { CompanyRepository, UserRepository } from '../src/service/companies/index.js';
import { migrateDatabase, type Database } from '../src/service/db/index.js';
import { KeyStore } from '../src/service/keys/index.js';

const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;

export const BENCH_COMPANY = 'bench';

export interface CasesStack {
  /** The service's base URL (`http://127.0.0.1:<port>`). */
  url: string;
  /** An API key of the company's user. */
  key: string;
  company: string;
  /** The company's default folder (its id), for rows written straight into the database. */
  defaultFolder: { id: string; name: string };
  user: { id: string; name: string; email: string };
  keyId: string;
  /** The stack's Redis and data folder (its storage is `<dataDir>/storage`), for probes. */
  redisUrl: string;
  dataDir: string;
  /** The benchmark's own connection to the service's database (seeding, counting). */
  db: Kysely<Database>;
  servePid: number;
  workerPid: number;
  /** The PostgreSQL server and all its backends and helpers, as they are now. */
  postgresPids(): number[];
  redisPid: number;
  stop(): Promise<void>;
}

/** One `docpipe serve` or `docpipe worker`, started and stopped by this benchmark alone. */
class CliProcess {
  private tail = '';
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    readonly name: string,
  ) {
    // The log is read only for the start line and, if it fails, the reason; the rest is dropped.
    const keep = (c: Buffer) => (this.tail = (this.tail + c.toString()).slice(-20_000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  get pid(): number {
    return this.child.pid!;
  }

  static async start(
    root: string,
    command: 'serve' | 'worker',
    env: NodeJS.ProcessEnv,
    startedLine: string,
  ): Promise<CliProcess> {
    const cli = join(root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
    // BENCH_CASES_PROFILE=<folder>: each process writes a V8 CPU profile there when it stops.
    const profile = process.env.BENCH_CASES_PROFILE;
    const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
    const child = spawn(process.execPath, [...flags, cli, command], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const p = new CliProcess(child, `docpipe ${command}`);
    try {
      const until = Date.now() + START_TIMEOUT_MS;
      while (!p.tail.includes(startedLine)) {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`${p.name} ended before it started:\n${p.tail}`);
        if (Date.now() > until)
          throw new Error(`${p.name} not started within ${START_TIMEOUT_MS} ms:\n${p.tail}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } catch (err) {
      await p.stop();
      throw err;
    }
    return p;
  }

  /** As an operator stops it (SIGTERM), and at once if it hangs. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await this.exited;
    clearTimeout(timer);
  }
}

/** A TCP port nothing listens on now, for `serve` to take. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The direct children of `pid` (PostgreSQL's backends and helpers are the postmaster's). */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command may hold spaces and parentheses: the fields after its last ')' are fixed.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/**
 * CPU time (ms) `pid` and its descendants have used, the children they waited for included
 * (utime, stime, cutime and cstime of /proc/<pid>/stat): a worker's office processes and their
 * bridges, recycled ones too; PostgreSQL's backends, ended ones too.
 */
export function treeCpuMs(pid: number): number {
  let ticks = 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 to 17 of stat; the slice starts at field 3.
    ticks = fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0);
  } catch {
    return 0;
  }
  return (ticks * 1000) / CLOCK_TICKS + childPids(pid).reduce((ms, c) => ms + treeCpuMs(c), 0);
}

/** USER_HZ: 100 on Linux for every architecture Node runs on. */
const CLOCK_TICKS = 100;

export async function startCasesStack(options: {
  root: string;
  /** The worker's office processes. @defaultValue 2 */
  officeProcesses?: number;
}): Promise<CasesStack> {
  const work = mkdtempSync(join(tmpdir(), 'docpipe-bench-cases-'));
  // PostgreSQL runs as its own user (root here): it must pass through the folder to its own.
  chmodSync(work, 0o711);
  const dataDir = join(work, 'data');
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const redis = await EmbeddedRedis.start({ dir: join(work, 'redis') });
    stops.push(() => redis.stop());
    const postgres = await EmbeddedPostgres.start({ dir: join(work, 'postgres') });
    stops.push(() => postgres.stop());
    const db = openDatabase<Database>(postgres.url);
    stops.push(() => db.destroy());
    await migrateDatabase(db);
    const { defaultFolder } = await new CompanyRepository(db).create({
      id: BENCH_COMPANY,
      name: 'Bench',
    });
    const user = await new UserRepository(db).add(BENCH_COMPANY, {
      email: 'owner@bench.example',
      name: 'Bench Owner',
    });
    const keys = new KeyStore({ db, databaseUrl: postgres.url });
    const created = await keys.create({ company: BENCH_COMPANY, user: user.email, name: 'bench' });
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      REDIS_URL: redis.url,
      DATABASE_URL: postgres.url,
      DOCPIPE_DATA_DIR: dataDir,
      DOCPIPE_SIGNING_SECRET: 'a-benchmark-signing-secret-32chars',
      DOCPIPE_HTTP_HOST: '127.0.0.1',
      DOCPIPE_HTTP_PORT: String(port),
      DOCPIPE_PUBLIC_URL: url,
      // The convert baseline runs past v2's 100 requests a minute; v3 has no limit by default.
      DOCPIPE_RATE_LIMIT_V2: '0',
      DOCPIPE_OFFICE_PROCESSES: String(options.officeProcesses ?? 2),
      DOCPIPE_LOG_FORMAT: 'json',
    };
    const worker = await CliProcess.start(options.root, 'worker', env, '"msg":"worker started');
    stops.push(() => worker.stop());
    const serve = await CliProcess.start(options.root, 'serve', env, 'docpipe serving HTTP');
    stops.push(() => serve.stop());
    const postmaster = postgres.pid!;
    return {
      url,
      key: created.key,
      company: BENCH_COMPANY,
      defaultFolder: { id: defaultFolder.id, name: defaultFolder.name },
      user: { id: user.id, name: user.name, email: user.email },
      keyId: created.id,
      redisUrl: redis.url,
      dataDir,
      db,
      servePid: serve.pid,
      workerPid: worker.pid,
      postgresPids: () => [postmaster, ...childPids(postmaster)],
      redisPid: redis.pid!,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
