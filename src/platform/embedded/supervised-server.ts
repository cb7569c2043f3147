import { readFile } from 'node:fs/promises';
import { makeTreePrivate, mkdirPrivate, replaceFile } from '../../base/files/index.js';
import { freePort, freeWithin } from './loopback-port.js';
import { ServerProcess, STOP_GRACE_MS } from './server-process.js';
import { stopStale } from './stale-server.js';

/** What an embedded server on a loopback port (redis-server) is and how to tell it is ready. */
export interface ServerSpec {
  /** The program as messages name it and /proc/<pid>/cmdline shows it, e.g. 'redis-server'. */
  program: string;
  /** @defaultValue `program`, found on PATH */
  binary?: string;
  /** The server's own folder: its data, the pid file it writes, the port file. Created if missing. */
  dir: string;
  /** Where the server writes its pid (first line): a server left over from a killed owner is stopped. */
  pidFile: string;
  /** Where the port of the last server on `dir` is kept, so that a restart takes the same one. */
  portFile: string;
  /** Arguments that make the server listen on 127.0.0.1:`port` and stay in the foreground. */
  args(port: number): string[];
  /** Whether the server on `port` answers (a connection that is up, a ping that comes back). */
  answers(port: number): Promise<boolean>;
  /**
   * @defaultValue the port of the last server on `dir` when it is free (clients still connected
   * to it reconnect by themselves), else a free one
   */
  port?: number;
  /** @defaultValue 10 000 ms */
  startTimeoutMs?: number;
  /** Written to its standard input (ServerProcessSpec.input). */
  input?: string;
  /** The umask it runs with (ServerProcessSpec.umask). */
  umask?: number;
}

/**
 * How long the last port may stay taken before the server moves: the connections of a server
 * that was killed linger a moment (FIN-WAIT) and keep its port from being bound.
 */
const LAST_PORT_WAIT_MS = 3000;

/**
 * A server docpipe runs as its child for running without an external one: on a loopback port
 * (the last one again when free), in its own session (a ServerProcess), so that Ctrl-C in
 * docpipe's terminal reaches docpipe only and docpipe stops it last; stopped by its pid, a
 * leftover of a killed owner first. Any server that takes a port and a data folder on its
 * command line fits.
 */
export class SupervisedServer {
  private constructor(
    private readonly process: ServerProcess,
    readonly port: number,
    /** The port the last server on this folder had, when it was taken and this one had to move. */
    readonly movedFrom: number | undefined,
  ) {}

  get program(): string {
    return this.process.program;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /** Starts the server and resolves once it answers; rejects with its stderr when it cannot. */
  static async start(spec: ServerSpec): Promise<SupervisedServer> {
    // Its folder is its own: an earlier docpipe's, left open, is closed first.
    await mkdirPrivate(spec.dir);
    await makeTreePrivate(spec.dir);
    await stopStale(spec.pidFile, spec.program, STOP_GRACE_MS);
    if (spec.port !== undefined) return SupervisedServer.launch(spec, spec.port, undefined);
    const last = await readPort(spec.portFile);
    if (last !== undefined && (await freeWithin(last, LAST_PORT_WAIT_MS))) {
      try {
        return await SupervisedServer.launch(spec, last, undefined);
      } catch (err) {
        // Taken between the check and the server's bind: a new port is better than no server.
        if (!/already in use/i.test((err as Error).message)) throw err;
      }
    }
    return SupervisedServer.launch(spec, await freePort(), last);
  }

  private static async launch(
    spec: ServerSpec,
    port: number,
    movedFrom: number | undefined,
  ): Promise<SupervisedServer> {
    const process = await ServerProcess.start({
      program: spec.program,
      binary: spec.binary,
      args: spec.args(port),
      answers: () => spec.answers(port),
      startTimeoutMs: spec.startTimeoutMs,
      input: spec.input,
      umask: spec.umask,
    });
    await replaceFile(spec.portFile, Buffer.from(`${port}\n`));
    return new SupervisedServer(process, port, movedFrom);
  }

  /**
   * Stops the server and resolves once it has exited: SIGTERM (it flushes what it holds),
   * SIGKILL after `graceMs`. Its folder may be removed as soon as this resolves.
   */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    await this.process.stop(graceMs);
  }

  /** Kills without warning: for fault tests of what survives on disk. */
  async kill(): Promise<void> {
    await this.process.kill();
  }
}

/** The port the last server on a folder listened on: written when it was ready. */
async function readPort(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const port = Number(text.trim());
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined;
}
