import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** A free TCP port on loopback, found by letting the kernel choose one. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Whether nothing listens on `port` on loopback (Node, like redis-server, binds with SO_REUSEADDR). */
export async function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function freeWithin(port: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await isPortFree(port)) return true;
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface EmbeddedRedisOptions {
  /** Where the append-only file lives; it survives restarts, so no job is lost with the process. */
  dir: string;
  /**
   * @defaultValue the port of the last server on `dir` when it is free (clients still connected
   * to it reconnect by themselves), else a free one
   */
  port?: number;
  /** @defaultValue 'redis-server' (Debian's package) */
  binary?: string;
  /** @defaultValue 10 000 ms */
  startTimeoutMs?: number;
}

/**
 * How long the last port may stay taken before the server moves: the connections of a server
 * that was killed linger a moment (FIN-WAIT) and keep its port from being bound.
 */
const LAST_PORT_WAIT_MS = 3000;

/** How long stop() waits after SIGTERM (redis-server flushes its append-only file) before SIGKILL. */
const STOP_GRACE_MS = 5000;

/**
 * docpipe's own redis-server for running without REDIS_URL: loopback only, append-only
 * persistence (fsync every second), noeviction as BullMQ requires. It runs in its own session, so
 * that Ctrl-C in docpipe's terminal reaches docpipe only: docpipe stops it last, after the jobs
 * that were running when Ctrl-C came have finished.
 */
export class EmbeddedRedis {
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly dir: string,
    /** The port the last server on this folder had, when it was taken and this one had to move. */
    readonly movedFrom: number | undefined,
  ) {
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  static async start(options: EmbeddedRedisOptions): Promise<EmbeddedRedis> {
    await mkdir(options.dir, { recursive: true });
    await stopStale(join(options.dir, 'redis.pid'));
    if (options.port !== undefined) return EmbeddedRedis.launch(options, options.port, undefined);
    const last = await readLastPort(options.dir);
    if (last !== undefined && (await freeWithin(last, LAST_PORT_WAIT_MS))) {
      try {
        return await EmbeddedRedis.launch(options, last, undefined);
      } catch (err) {
        // Taken between the check and redis-server's bind: a new port is better than no Redis.
        if (!/already in use/i.test((err as Error).message)) throw err;
      }
    }
    return EmbeddedRedis.launch(options, await freePort(), last);
  }

  private static async launch(
    options: EmbeddedRedisOptions,
    port: number,
    movedFrom: number | undefined,
  ): Promise<EmbeddedRedis> {
    const child = spawn(options.binary ?? 'redis-server', serverArgs(options.dir, port), {
      stdio: ['ignore', 'ignore', 'pipe'],
      // Its own session: a terminal's Ctrl-C goes to docpipe's process group, not to Redis.
      detached: true,
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
    const redis = new EmbeddedRedis(child, port, options.dir, movedFrom);
    try {
      await redis.waitReady(options.startTimeoutMs ?? 10_000, () => stderr);
    } catch (err) {
      await redis.stop();
      throw err;
    }
    await writeLastPort(options.dir, port);
    return redis;
  }

  private async waitReady(timeoutMs: number, stderr: () => string): Promise<void> {
    const until = Date.now() + timeoutMs;
    let exited: string | undefined;
    this.child.once('exit', (code, signal) => (exited = `redis-server exited (${signal ?? code})`));
    this.child.once('error', (err) => (exited = `redis-server did not start: ${err.message}`));
    for (;;) {
      if (exited) throw new Error(`${exited}: ${stderr().trim()}`);
      if (await answersPing(this.port)) return;
      if (Date.now() > until)
        throw new Error(`redis-server not ready within ${timeoutMs} ms: ${stderr().trim()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * Stops the server and resolves once it has exited: SIGTERM (it flushes the append-only file),
   * SIGKILL after `graceMs`. Its folder may be removed as soon as this resolves.
   */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    if (this.child.pid === undefined) return;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Kills without warning: for fault tests of what survives in the append-only file. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }
}

function serverArgs(dir: string, port: number): string[] {
  return [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--protected-mode',
    'yes',
    '--dir',
    dir,
    '--appendonly',
    'yes',
    '--appendfsync',
    'everysec',
    '--save',
    '',
    '--maxmemory-policy',
    'noeviction',
    '--daemonize',
    'no',
    '--pidfile',
    join(dir, 'redis.pid'),
    '--loglevel',
    'warning',
  ];
}

/** Whether a Redis on `port` answers PONG (while it loads its append-only file it answers LOADING). */
async function answersPing(port: number): Promise<boolean> {
  const probe = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** The port the last server on this folder listened on: written when it was ready. */
async function readLastPort(dir: string): Promise<number | undefined> {
  const text = await readFile(join(dir, 'redis.port'), 'utf8').catch(() => '');
  const port = Number(text.trim());
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined;
}

async function writeLastPort(dir: string, port: number): Promise<void> {
  const file = join(dir, 'redis.port');
  await writeFile(`${file}.${process.pid}`, `${port}\n`);
  await rename(`${file}.${process.pid}`, file);
}

/**
 * An embedded Redis whose owner was killed keeps running (it has its own session); two servers on
 * one append-only file would corrupt it. The one named in the pidfile, if it is still a
 * redis-server, is stopped first, and waited for, so that its port is free again.
 */
async function stopStale(pidfile: string): Promise<void> {
  let pid: number;
  try {
    pid = Number((await readFile(pidfile, 'utf8')).trim());
  } catch {
    return;
  }
  if (!Number.isSafeInteger(pid) || pid <= 1) return;
  try {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    if (!cmdline.includes('redis-server')) return;
  } catch {
    return;
  }
  signal(pid, 'SIGTERM');
  if (await gone(pid, STOP_GRACE_MS)) return;
  signal(pid, 'SIGKILL');
  await gone(pid, STOP_GRACE_MS);
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (!(await running(pid))) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** Alive and not a zombie: where nothing reaps orphans (pid 1 in a container), a dead one lingers. */
async function running(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return !/^\d+ \(.*\) Z /s.test(stat);
}
