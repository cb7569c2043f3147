import { join } from 'node:path';
import { Redis } from 'ioredis';
import { SupervisedServer } from '../embedded/index.js';
import { redisPassword } from './redis-password.js';

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
 * docpipe's own redis-server for running without REDIS_URL: loopback only, a password (kept in
 * its folder, mode 0600: any local user reaches the loopback port), append-only persistence
 * (fsync every second) in a folder of mode 0700, noeviction as BullMQ requires. A SupervisedServer: in its own
 * session, so that Ctrl-C in docpipe's terminal reaches docpipe only; docpipe stops it last,
 * after the jobs that were running when Ctrl-C came have finished.
 */
export class EmbeddedRedis {
  private constructor(
    private readonly server: SupervisedServer,
    readonly dir: string,
    private readonly password: string,
  ) {}

  get port(): number {
    return this.server.port;
  }

  /** The port the last server on this folder had, when it was taken and this one had to move. */
  get movedFrom(): number | undefined {
    return this.server.movedFrom;
  }

  /** With the password: for clients, never for a log line (safeUrl leaves it out). */
  get url(): string {
    return `redis://:${this.password}@127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.server.pid;
  }

  static async start(options: EmbeddedRedisOptions): Promise<EmbeddedRedis> {
    const { dir } = options;
    const password = await redisPassword(dir);
    const server = await SupervisedServer.start({
      program: 'redis-server',
      binary: options.binary,
      dir,
      pidFile: join(dir, 'redis.pid'),
      portFile: join(dir, 'redis.port'),
      args: (port) => serverArgs(dir, port),
      answers: (port) => answersPing(port, password),
      port: options.port,
      startTimeoutMs: options.startTimeoutMs,
      // The password through standard input: on the command line every local user would read it.
      input: `requirepass ${password}\n`,
      // Its append-only files 0600, as the rest of the data folder.
      umask: 0o077,
    });
    return new EmbeddedRedis(server, dir, password);
  }

  /**
   * Stops the server and resolves once it has exited: SIGTERM (it flushes the append-only file),
   * SIGKILL after `graceMs`. Its folder may be removed as soon as this resolves.
   */
  async stop(graceMs?: number): Promise<void> {
    await this.server.stop(graceMs);
  }

  /** Kills without warning: for fault tests of what survives in the append-only file. */
  async kill(): Promise<void> {
    await this.server.kill();
  }
}

function serverArgs(dir: string, port: number): string[] {
  return [
    // The configuration on standard input first (the password), then the options.
    '-',
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
async function answersPing(port: number, password: string): Promise<boolean> {
  const probe = new Redis({
    port,
    host: '127.0.0.1',
    password,
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
