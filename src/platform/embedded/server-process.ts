import { spawn, type ChildProcess } from 'node:child_process';

/** How to run one embedded server process and how to tell it is ready. */
export interface ServerProcessSpec {
  /** The program as messages name it, e.g. 'redis-server', 'postgres'. */
  program: string;
  /** The file to run. @defaultValue `program`, found on PATH */
  binary?: string;
  args: string[];
  /** Whether the server answers (a connection that is up, a ping that comes back). */
  answers(): Promise<boolean>;
  /** @defaultValue 10 000 ms */
  startTimeoutMs?: number;
  /**
   * The signal that stops it cleanly. @defaultValue 'SIGTERM' (redis-server flushes and exits;
   * postgres wants SIGINT, its fast shutdown: SIGTERM waits for every client to leave)
   */
  stopSignal?: NodeJS.Signals;
  /** Run as this user and group (a server that refuses root); @defaultValue this process's */
  uid?: number;
  gid?: number;
  /** @defaultValue this process's environment */
  env?: NodeJS.ProcessEnv;
  /** @defaultValue this process's working folder */
  cwd?: string;
  /**
   * Written to its standard input, which is then closed: settings that must not show on its
   * command line, which every local user can read in /proc (redis-server reads a configuration
   * from `-`). @defaultValue none: standard input is /dev/null
   */
  input?: string;
  /**
   * The umask it runs with, so that the files it makes get no more than the folder they are in
   * allows (redis-server makes its append-only files with what the umask leaves of 0666).
   * @defaultValue this process's
   */
  umask?: number;
}

/** How long stop() waits after the stop signal (a server flushes what it holds) before SIGKILL. */
export const STOP_GRACE_MS = 5000;

/**
 * One server process docpipe runs as its child, in its own session, so that Ctrl-C in docpipe's
 * terminal reaches docpipe only and docpipe stops it last. Knows nothing of ports or folders:
 * SupervisedServer (loopback port) and EmbeddedPostgres (Unix socket) put those around it.
 */
export class ServerProcess {
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    readonly program: string,
    private readonly stopSignal: NodeJS.Signals,
  ) {
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Starts the process and resolves once it answers; rejects with its stderr when it cannot. */
  static async start(spec: ServerProcessSpec): Promise<ServerProcess> {
    const binary = spec.binary ?? spec.program;
    // A shell that sets the umask and is replaced by the server (the same pid, and its own
    // command line in /proc once exec'd): Node sets no umask for a child of its own.
    const [file, args] =
      spec.umask === undefined
        ? [binary, spec.args]
        : [
            '/bin/sh',
            [
              '-c',
              `umask ${spec.umask.toString(8).padStart(3, '0')} && exec "$@"`,
              'sh',
              binary,
              ...spec.args,
            ],
          ];
    const child = spawn(file, args, {
      stdio: [spec.input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
      // Its own session: a terminal's Ctrl-C goes to docpipe's process group, not to the server.
      detached: true,
      ...(spec.uid === undefined ? {} : { uid: spec.uid }),
      ...(spec.gid === undefined ? {} : { gid: spec.gid }),
      ...(spec.env === undefined ? {} : { env: spec.env }),
      ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
    });
    // Only the last of it is kept (for the message of a failed start), but all of it is read:
    // a server that logs to a full pipe would block.
    if (spec.input !== undefined) {
      // A server that exits before reading it closes the pipe: its exit is what is reported.
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(spec.input);
    }
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
    const server = new ServerProcess(child, spec.program, spec.stopSignal ?? 'SIGTERM');
    try {
      await server.waitReady(spec, spec.startTimeoutMs ?? 10_000, () => stderr);
    } catch (err) {
      await server.stop();
      throw err;
    }
    return server;
  }

  private async waitReady(
    spec: ServerProcessSpec,
    timeoutMs: number,
    stderr: () => string,
  ): Promise<void> {
    const until = Date.now() + timeoutMs;
    let exited: string | undefined;
    this.child.once(
      'exit',
      (code, signal) => (exited = `${spec.program} exited (${signal ?? code})`),
    );
    this.child.once('error', (err) => (exited = `${spec.program} did not start: ${err.message}`));
    for (;;) {
      if (exited) throw new Error(`${exited}: ${stderr().trim()}`);
      if (await spec.answers()) return;
      if (Date.now() > until)
        throw new Error(`${spec.program} not ready within ${timeoutMs} ms: ${stderr().trim()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * Stops the process and resolves once it has exited: the stop signal (it flushes what it
   * holds), SIGKILL after `graceMs`. Its files may be removed as soon as this resolves.
   */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    if (this.child.pid === undefined) return;
    if (this.child.exitCode === null && this.child.signalCode === null)
      this.child.kill(this.stopSignal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Kills without warning: for fault tests of what survives on disk. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }
}
