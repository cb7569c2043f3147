import { spawn, type ChildProcess } from 'node:child_process';
import { projectRoot } from '../../src/base/paths/index.js';
import { untilOutput } from './child-output.js';
import { cli } from './docpipe-start.js';

/** One of pino's JSON log lines. */
export interface LogLine {
  msg: string;
  [field: string]: unknown;
}

/**
 * A long-running docpipe command (`serve`, `worker`) in a process of its own, as one machine of a
 * deployment runs it, with its log (DOCPIPE_LOG_FORMAT=json) kept for the test to read.
 */
export class DocpipeProcess {
  log = '';
  readonly child: ChildProcess;
  readonly exited: Promise<void>;

  private constructor(
    readonly command: string,
    env: NodeJS.ProcessEnv,
  ) {
    this.child = spawn(process.execPath, [cli, command], {
      cwd: projectRoot(),
      env: { ...env, DOCPIPE_LOG_FORMAT: 'json' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (c: Buffer) => (this.log += c.toString()));
    this.child.stderr!.on('data', (c: Buffer) => (this.log += c.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
  }

  static start(command: 'serve' | 'worker', env: NodeJS.ProcessEnv): DocpipeProcess {
    return new DocpipeProcess(command, env);
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The log's JSON lines; anything else (a crash's stack trace) stays in `log`. */
  lines(): LogLine[] {
    return (
      this.log
        .split('\n')
        // The last piece is a line still being written (or nothing, after the final newline).
        .slice(0, -1)
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as LogLine)
    );
  }

  /** The first line whose message starts with `message`, once it is logged. */
  waitForLine(message: string, ms = 90_000): Promise<LogLine> {
    return untilOutput(
      this.child,
      () => this.lines().find((l) => l.msg.startsWith(message)),
      ms,
      `docpipe ${this.command}: "${message}"`,
      () => this.log,
    );
  }

  /** How many lines carry exactly `message`. */
  count(message: string): number {
    return this.lines().filter((l) => l.msg === message).length;
  }

  /** Ends it without warning (as a machine that loses power), and waits until it is gone. */
  async kill(): Promise<void> {
    if (this.running) this.child.kill('SIGKILL');
    await this.exited;
  }
}
