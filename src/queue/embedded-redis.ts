import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
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

export interface EmbeddedRedisOptions {
  /** Where the append-only file lives; it survives restarts, so no job is lost with the process. */
  dir: string;
  /** @defaultValue a free port */
  port?: number;
  /** @defaultValue 'redis-server' (Debian's package) */
  binary?: string;
  /** @defaultValue 10 000 ms */
  startTimeoutMs?: number;
}

/**
 * docpipe's own redis-server for running without REDIS_URL: loopback only, append-only
 * persistence (fsync every second), noeviction as BullMQ requires.
 */
export class EmbeddedRedis {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly dir: string,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  static async start(options: EmbeddedRedisOptions): Promise<EmbeddedRedis> {
    await mkdir(options.dir, { recursive: true });
    const pidfile = join(options.dir, 'redis.pid');
    await stopStale(pidfile);
    const port = options.port ?? (await freePort());
    const child = spawn(
      options.binary ?? 'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--protected-mode',
        'yes',
        '--dir',
        options.dir,
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
        pidfile,
        '--loglevel',
        'warning',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
    const redis = new EmbeddedRedis(child, port, options.dir);
    await redis.waitReady(options.startTimeoutMs ?? 10_000, () => stderr);
    return redis;
  }

  private async waitReady(timeoutMs: number, stderr: () => string): Promise<void> {
    const until = Date.now() + timeoutMs;
    let exited: string | undefined;
    this.child.once('exit', (code, signal) => (exited = `redis-server exited (${signal ?? code})`));
    this.child.once('error', (err) => (exited = `redis-server did not start: ${err.message}`));
    for (;;) {
      if (exited) throw new Error(`${exited}: ${stderr().trim()}`);
      const probe = new Redis({
        port: this.port,
        host: '127.0.0.1',
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        // Loading the append-only file answers LOADING until done; wait for a real PONG.
        if ((await probe.ping()) === 'PONG') return;
      } catch {
        // Not up yet.
      } finally {
        probe.disconnect();
      }
      if (Date.now() > until) {
        this.child.kill('SIGKILL');
        throw new Error(`redis-server not ready within ${timeoutMs} ms: ${stderr().trim()}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Stops the server: SIGTERM (it flushes the append-only file), SIGKILL after a grace period. */
  async stop(graceMs = 5000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }

  /** Kills without warning: for fault tests of what survives in the append-only file. */
  kill(): void {
    this.child.kill('SIGKILL');
  }
}

/**
 * An embedded Redis whose owner was killed keeps running; two servers on one append-only file
 * would corrupt it. The one named in the pidfile, if it is still a redis-server, is stopped first.
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
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  process.kill(pid, 'SIGKILL');
}
