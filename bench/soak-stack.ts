/**
 * The soak's stack (bench/soak.ts): cases-stack.ts's deployment (a private Redis, an embedded
 * PostgreSQL, real `docpipe serve` and `docpipe worker` processes with their office processes),
 * with two things more that the soak needs and the case stack does not give: every line the
 * worker logs (its office pool says there why it replaced an office process, and the worker has
 * no /metrics of its own: serve's counts no office restarts in this split), and a webhook of the
 * company for every case trigger, pointing at a receiver in a process of its own
 * (delivery-receiver.ts), so that each case's events are delivered for real.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { EmbeddedPostgres, openDatabase } from '../src/platform/postgres/index.js';
import { EmbeddedRedis } from '../src/platform/redis/index.js';
import { CompanyRepository, UserRepository } from '../src/service/companies/index.js';
import { migrateDatabase, type Database } from '../src/service/db/index.js';
import { KeyStore } from '../src/service/keys/index.js';
import { WEBHOOK_TRIGGERS, WebhookRepository } from '../src/service/webhooks/index.js';
import { childPids } from './cases-stack.js';
import { ReceiverProcess } from './delivery-stack.js';

const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;
const COMPANY = 'soak';

/** One pino JSON line of a process's log. */
export interface LogLine {
  msg: string;
  level?: number;
  time?: number;
  [field: string]: unknown;
}

/** A `docpipe serve` or `docpipe worker`, its log parsed line by line as it comes. */
class LoggedProcess {
  readonly lines: LogLine[] = [];
  private partial = '';
  private tail = '';
  private readonly exited: Promise<void>;

  constructor(
    private readonly child: ChildProcess,
    readonly name: string,
  ) {
    const take = (c: Buffer) => {
      const text = this.partial + c.toString();
      this.tail = (this.tail + c.toString()).slice(-20_000);
      const parts = text.split('\n');
      this.partial = parts.pop() ?? '';
      for (const line of parts) {
        if (!line.startsWith('{')) continue;
        try {
          this.lines.push(JSON.parse(line) as LogLine);
        } catch {
          // A line that is not pino's: kept in the tail only.
        }
      }
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async until(text: string): Promise<void> {
    const until = Date.now() + START_TIMEOUT_MS;
    while (!this.lines.some((l) => l.msg.includes(text))) {
      if (!this.running) throw new Error(`${this.name} ended before it started:\n${this.tail}`);
      if (Date.now() > until)
        throw new Error(`${this.name} not started within ${START_TIMEOUT_MS} ms:\n${this.tail}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await this.exited;
    clearTimeout(timer);
  }
}

export interface SoakStack {
  url: string;
  key: string;
  db: Kysely<Database>;
  servePid: number;
  workerPid: number;
  redisPid: number;
  postgresPids(): number[];
  /** The worker's log so far (grows while it runs). */
  workerLog: readonly LogLine[];
  /** Whether serve and the worker still run (a soak that lost one measured nothing). */
  running(): { serve: boolean; worker: boolean };
  receiver: ReceiverProcess;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export async function startSoakStack(options: {
  root: string;
  officeProcesses: number;
}): Promise<SoakStack> {
  const work = mkdtempSync(join(tmpdir(), 'docpipe-bench-soak-'));
  // PostgreSQL runs as its own user (root here): it must pass through the folder to its own.
  chmodSync(work, 0o711);
  const stops: (() => Promise<unknown>)[] = [];
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
    await new CompanyRepository(db).create({ id: COMPANY, name: 'Soak' });
    const user = await new UserRepository(db).add(COMPANY, {
      email: 'owner@soak.example',
      name: 'Soak Owner',
    });
    const key = (
      await new KeyStore({ db, databaseUrl: postgres.url }).create({
        company: COMPANY,
        user: user.email,
        name: 'soak',
      })
    ).key;
    const receiver = await ReceiverProcess.start();
    stops.push(() => receiver.stop());
    await new WebhookRepository(db).add(COMPANY, {
      url: `${receiver.url}/hook`,
      triggers: [...WEBHOOK_TRIGGERS],
    });
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      REDIS_URL: redis.url,
      DATABASE_URL: postgres.url,
      DOCPIPE_DATA_DIR: join(work, 'data'),
      DOCPIPE_SIGNING_SECRET: 'a-benchmark-signing-secret-32chars',
      DOCPIPE_HTTP_HOST: '127.0.0.1',
      DOCPIPE_HTTP_PORT: String(port),
      DOCPIPE_PUBLIC_URL: url,
      // Thousands of converts a run, past v2's 100 a minute.
      DOCPIPE_RATE_LIMIT_V2: '0',
      DOCPIPE_OFFICE_PROCESSES: String(options.officeProcesses),
      // The receiver listens on 127.0.0.1, which webhooks refuse by default.
      DOCPIPE_WEBHOOK_ALLOW_PRIVATE: 'true',
      DOCPIPE_LOG_FORMAT: 'json',
    };
    const cli = join(options.root, 'dist', 'src', 'surfaces', 'cli', 'main.js');
    const launch = (command: 'serve' | 'worker') =>
      new LoggedProcess(
        spawn(process.execPath, [cli, command], {
          cwd: options.root,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
        `docpipe ${command}`,
      );
    const worker = launch('worker');
    stops.push(() => worker.stop());
    await worker.until('worker started');
    const serve = launch('serve');
    stops.push(() => serve.stop());
    await serve.until('docpipe serving HTTP');
    const postmaster = postgres.pid!;
    return {
      url,
      key,
      db,
      servePid: serve.pid,
      workerPid: worker.pid,
      redisPid: redis.pid!,
      postgresPids: () => [postmaster, ...childPids(postmaster)],
      workerLog: worker.lines,
      running: () => ({ serve: serve.running, worker: worker.running }),
      receiver,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
