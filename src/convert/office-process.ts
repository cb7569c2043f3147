import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { BridgeFrames } from './bridge-frames.js';
import type { FilledOfficePoolOptions } from './convert-options.js';
import {
  allocatorLibrary,
  officeEnvironment,
  officeTempDir,
  writeHardenedProfile,
} from './office-profile.js';
import { officePipeSockets } from './osl-pipes.js';

/** Why an attempt failed; `timeout`, `crashed` and `office-gone` are the process's fault and retried. */
export type OfficeFailureKind =
  'timeout' | 'crashed' | 'office-gone' | 'load-failed' | 'convert-failed' | 'queue-timeout';

export class OfficeFailure extends Error {
  override readonly name = 'OfficeFailure';
  constructor(
    readonly kind: OfficeFailureKind,
    message: string,
    /** False for a conversion that waited in the bridge and never began: not its fault. */
    readonly started = true,
  ) {
    super(message);
  }

  /** Whether a fresh process might succeed where this one failed. */
  get processFault(): boolean {
    return this.kind === 'timeout' || this.kind === 'crashed' || this.kind === 'office-gone';
  }
}

export interface ConvertJob {
  docx: Uint8Array;
  title?: string;
  pdfa?: boolean;
}

interface Pending {
  resolve: (pdf: Buffer) => void;
  reject: (err: OfficeFailure) => void;
  deadlineMs: number;
  /** Set when the bridge says it began this conversion; its deadline is armed then. */
  started: boolean;
  timer?: NodeJS.Timeout;
}

/** soffice.bin's exit code for "restart me", after it set up a new user profile. */
const RESTART_REQUESTED = 81;

/** Decides once whether this host can give a process a network namespace without interfaces. */
let namespaceSupport: Promise<boolean> | undefined;
export function canIsolateNetwork(): Promise<boolean> {
  namespaceSupport ??= new Promise((resolve) => {
    const probe = spawn('unshare', ['--net', '--', 'true'], { stdio: 'ignore' });
    probe.on('error', () => resolve(false));
    probe.on('exit', (code) => resolve(code === 0));
  });
  return namespaceSupport;
}

/**
 * One warm LibreOffice: soffice.bin listening on a private named pipe, with its own process group
 * and a freshly written hardened profile, driven by a python3-uno bridge. Converts one document
 * at a time, in the order given; more can wait in the bridge. Killing it kills both process groups.
 */
export class OfficeProcess {
  conversions = 0;
  /**
   * When this process last proved it works (ready, or a conversion done), on the
   * performance.now() clock. A retry after a process fault waits for a process healthy since the
   * fault: several processes can die at once (an OOM kill, an operator's kill), and one whose
   * death docpipe has not heard of yet would fail the retry through no fault of the document.
   */
  healthyAt = 0;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private dead = false;
  private readonly exitListeners: ((reason: string) => void)[] = [];

  private constructor(
    readonly id: string,
    readonly isolated: boolean,
    private readonly dir: string,
    /** Its sockets in /tmp, which a killed office leaves behind (osl-pipes.ts). */
    readonly sockets: readonly string[],
    private soffice: ChildProcess,
    private readonly bridge: ChildProcess,
    private readonly relaunch: () => ChildProcess,
  ) {}

  static async start(
    options: FilledOfficePoolOptions,
    bridgeScript: string,
    isolated: boolean,
  ): Promise<OfficeProcess> {
    const id = `docpipe-${process.pid}-${randomBytes(4).toString('hex')}`;
    const dir = join(options.workDir, id);
    const profileUrl = await writeHardenedProfile(join(dir, 'profile'));
    await mkdir(officeTempDir(dir), { recursive: true });
    const args = [
      '--headless',
      '--invisible',
      '--nologo',
      '--norestore',
      '--nodefault',
      '--nolockcheck',
      '--nofirststartwizard',
      `-env:UserInstallation=${profileUrl}`,
      `--accept=pipe,name=${id};urp;StarOffice.ComponentContext`,
    ];
    const env = officeEnvironment(dir, allocatorLibrary(options.allocator));
    const sockets = officePipeSockets(profileUrl, id);
    // unshare execs soffice.bin in place, so the pid (and process group) stay the office's own.
    const [command, commandArgs] = isolated
      ? ['unshare', ['--net', '--', options.sofficePath, ...args]]
      : [options.sofficePath, args];
    const launch = () => spawn(command, commandArgs, { detached: true, stdio: 'ignore', env });
    const soffice = launch();
    const bridge = spawn(
      options.pythonPath,
      [
        bridgeScript,
        id,
        String(options.startTimeoutMs / 1000),
        String(soffice.pid ?? ''),
        join(dir, 'jobs'),
        ...sockets,
      ],
      {
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...officeEnvironment(dir), PYTHONPATH: '/usr/lib/libreoffice/program' },
      },
    );
    const office = new OfficeProcess(id, isolated, dir, sockets, soffice, bridge, launch);
    // A write to a bridge that just died must not crash docpipe: the exit handler replaces it.
    bridge.stdin!.on('error', () => office.kill('UNO bridge pipe closed'));
    try {
      await office.waitReady(options.startTimeoutMs);
    } catch (err) {
      // A start that failed leaves no profile behind (it lives in memory, under /dev/shm).
      await office.dispose();
      throw err;
    }
    return office;
  }

  get pid(): number | undefined {
    return this.soffice.pid;
  }

  get alive(): boolean {
    return !this.dead;
  }

  onExit(listener: (reason: string) => void): void {
    this.exitListeners.push(listener);
  }

  /** Resident memory of soffice.bin, from /proc; undefined once it is gone. */
  rssBytes(): number | undefined {
    try {
      const status = readFileSync(`/proc/${this.soffice.pid}/status`, 'utf8');
      const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
      return kb ? Number(kb) * 1024 : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Converts one document to the bytes LibreOffice wrote (empty when it wrote none); rejects with
   * an OfficeFailure. The deadline counts from when the bridge starts it (after the conversions
   * handed over before it); past it the process is killed.
   */
  convert(job: ConvertJob, deadlineMs: number): Promise<Buffer> {
    if (this.dead)
      return Promise.reject(new OfficeFailure('office-gone', 'the office process is gone', false));
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, deadlineMs, started: false });
      const { docx, title, pdfa } = job;
      const header = JSON.stringify({ id, bytes: docx.byteLength, title, pdfa });
      this.bridge.stdin!.write(`${header}\n`);
      this.bridge.stdin!.write(docx);
    });
  }

  private arm(id: number): void {
    const p = this.pending.get(id);
    if (!p) return;
    p.timer = setTimeout(() => {
      this.pending.delete(id);
      this.kill(`conversion passed its ${p.deadlineMs} ms deadline`);
      p.reject(new OfficeFailure('timeout', `conversion passed its ${p.deadlineMs} ms deadline`));
    }, p.deadlineMs);
  }

  /** Kills soffice and the bridge with their whole process groups. Safe to call more than once. */
  kill(reason = 'killed'): void {
    for (const child of [this.soffice, this.bridge]) {
      if (child.pid === undefined) continue;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    this.markDead(reason);
  }

  /** Kills the process and removes its profile and files. */
  async dispose(): Promise<void> {
    this.kill('disposed');
    await rm(this.dir, { recursive: true, force: true });
    await Promise.all(this.sockets.map((socket) => rm(socket, { force: true })));
  }

  get workDir(): string {
    return this.dir;
  }

  private markDead(reason: string): void {
    if (this.dead) return;
    this.dead = true;
    // What the bridge wrote before it died may still be in the pipe: a reply for a conversion
    // that finished, the word that the next one began. Read to the end first, so that a finished
    // conversion is not failed and the one under way is told from those that never began.
    const stdout = this.bridge.stdout;
    if (stdout && !stdout.destroyed && !stdout.readableEnded) {
      const settle = () => this.failPending(reason);
      const timer = setTimeout(settle, 1000);
      stdout.once('close', () => {
        clearTimeout(timer);
        settle();
      });
    } else {
      this.failPending(reason);
    }
    for (const listener of this.exitListeners) listener(reason);
  }

  private failPending(reason: string): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(
        p.started
          ? new OfficeFailure(
              'crashed',
              `the office process ended during the conversion (${reason})`,
            )
          : new OfficeFailure(
              'crashed',
              `the office process ended before the conversion began (${reason})`,
              false,
            ),
      );
      this.pending.delete(id);
    }
    for (const listener of this.exitListeners) listener(reason);
  }

  private waitReady(timeoutMs: number): Promise<void> {
    let stderr = '';
    this.bridge.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.kill('start timeout');
        reject(new OfficeFailure('crashed', `office process not ready within ${timeoutMs} ms`));
      }, timeoutMs);
      const fail = (what: string) => {
        clearTimeout(timer);
        this.kill(what);
        reject(
          new OfficeFailure(
            'crashed',
            `${what}${stderr ? `: ${stderr.trim().split('\n').pop()}` : ''}`,
          ),
        );
      };
      let relaunched = false;
      const watch = (soffice: ChildProcess) => {
        soffice.on('exit', (code, signal) => {
          // 81: soffice.bin initialised the fresh profile and asks to be started again (the
          // soffice wrapper script would do this). The bridge keeps trying to connect meanwhile.
          if (code === RESTART_REQUESTED && !relaunched && !this.dead) {
            relaunched = true;
            this.soffice = this.relaunch();
            this.bridge.stdin!.write(`${JSON.stringify({ watch: this.soffice.pid })}\n`);
            watch(this.soffice);
            return;
          }
          this.kill(`soffice exited (${signal ?? code})`);
          fail(`soffice exited (${signal ?? code})`);
        });
        soffice.on('error', (err) => fail(`soffice did not start: ${err.message}`));
      };
      watch(this.soffice);
      this.bridge.on('error', (err) => fail(`UNO bridge did not start: ${err.message}`));
      this.bridge.on('exit', (code, signal) => {
        this.kill(`UNO bridge exited (${signal ?? code})`);
        fail(`UNO bridge exited (${signal ?? code})`);
      });
      const frames = new BridgeFrames((header, pdf) => {
        const message = header as {
          ready?: boolean;
          started?: boolean;
          id?: number;
          ok?: boolean;
          error?: string;
          message?: string;
        };
        if (message.ready) {
          this.healthyAt = performance.now();
          clearTimeout(timer);
          resolve();
          return;
        }
        const p = message.id === undefined ? undefined : this.pending.get(message.id);
        if (!p || message.id === undefined) return;
        if (message.started) {
          // The bridge began it: its deadline counts from now, not from when it was handed over.
          p.started = true;
          if (!this.dead) this.arm(message.id);
          return;
        }
        clearTimeout(p.timer);
        this.pending.delete(message.id);
        if (message.ok) {
          this.conversions++;
          this.healthyAt = performance.now();
          p.resolve(pdf);
        } else {
          const kind = (message.error as OfficeFailureKind | undefined) ?? 'convert-failed';
          p.reject(new OfficeFailure(kind, message.message ?? kind));
          // The conversions waiting behind it never begin; they fail as not started.
          if (kind === 'office-gone') this.kill('office gone');
        }
      });
      this.bridge.stdout!.on('data', (chunk: Buffer) => frames.push(chunk));
    });
  }
}
