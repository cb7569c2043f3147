import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/base/paths/index.js';
import type { DocumentInput } from '../../src/jobs/queue/index.js';
import { untilOutput } from './child-output.js';
import { lease, leaseTags } from './lease.js';

export const cli = join(projectRoot(), 'dist', 'src', 'surfaces', 'cli', 'main.js');

/** The environment of a docpipe command on `dataDir`, frugal with the machine's two cores. */
export function docpipeEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DOCPIPE_DATA_DIR: dataDir,
    DOCPIPE_ENGINE_THREADS: '1',
    DOCPIPE_OFFICE_PROCESSES: '1',
    // A free port each: test files run docpipe start side by side.
    DOCPIPE_HTTP_PORT: '0',
    ...extra,
  };
  delete env.REDIS_URL;
  return env;
}

/** A docpipe command run to its end. */
export function docpipe(env: NodeJS.ProcessEnv, ...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    cwd: projectRoot(),
    env,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * {@link docpipe} without blocking the test's process: commands can run side by side, and the
 * test's own timers and sockets go on meanwhile.
 */
export function docpipeAsync(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: projectRoot(), env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * `docpipe start` as a terminal runs it: in a process group of its own, so that a Ctrl-C
 * (SIGINT to the whole group) reaches whatever shares its group, as a terminal's would.
 */
export class StartedDocpipe {
  log = '';
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    args: string[] = [],
  ) {
    this.child = spawn(process.execPath, [cli, 'start', ...args], {
      cwd: projectRoot(),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.child.stdout!.on('data', (c: Buffer) => (this.log += c.toString()));
    this.child.stderr!.on('data', (c: Buffer) => (this.log += c.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Once `text` is in its log; fails if it ends first or after `ms`. */
  async waitFor(text: string, ms = 90_000): Promise<void> {
    await untilOutput(
      this.child,
      () => (this.log.includes(text) ? true : undefined),
      ms,
      `docpipe start: "${text}"`,
      () => this.log,
    );
  }

  /** Ctrl-C in its terminal: SIGINT to its whole process group. */
  ctrlC(): void {
    process.kill(-this.pid, 'SIGINT');
  }

  /** Ends it without warning, leaving what runs in other sessions (its Redis) behind. */
  async kill(): Promise<void> {
    if (this.running) this.child.kill('SIGKILL');
    await this.exited;
  }

  /** Cleanup after a test: it and the Redis and PostgreSQL it left, if any. */
  async killAll(): Promise<void> {
    await this.kill();
    const dataDir = this.env.DOCPIPE_DATA_DIR!;
    try {
      const pid = redisPid(dataDir);
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('redis-server'))
        process.kill(pid, 'SIGKILL');
    } catch {
      // No Redis left.
    }
    // The embedded PostgreSQL runs as its own user in a session of its own: the group's SIGKILL
    // does not reach it. SIGQUIT is its immediate shutdown (backends end with it).
    try {
      const pid = Number(
        readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      if (pid > 0 && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres'))
        process.kill(pid, 'SIGQUIT');
    } catch {
      // No PostgreSQL left (or an external one).
    }
  }

  /** Log lines as objects (pino's JSON lines). */
  lines(): { msg: string; [k: string]: unknown }[] {
    return this.log
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string });
  }
}

/** The pid in the embedded Redis's pidfile under `dataDir`. */
export function redisPid(dataDir: string): number {
  return Number(readFileSync(join(dataDir, 'redis', 'redis.pid'), 'utf8').trim());
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The sample lease with a contract number of its own, so that no two documents (and no two test
 * runs) are answered from the cache.
 */
export function leaseDocument(i: number, run: string): DocumentInput {
  return {
    name: `Lease ${i}`,
    content: lease,
    tags: leaseTags.map((t) => (t.tag === 'contract_no' ? { ...t, value: `${run}-${i}` } : t)),
  };
}
