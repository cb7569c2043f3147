import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { silentLogger, type Logger } from '../../base/log/index.js';
import { BridgeFrames } from './bridge-frames.js';
import {
  BridgeProtocolError,
  encodeRequest,
  parseReply,
  type BridgeFailureKind,
  type BridgeReply,
  type BridgeRequest,
  type ConvertedReply,
  type FailedReply,
} from './bridge-protocol.js';
import type { FilledOfficePoolOptions } from './convert-options.js';
import {
  allocatorLibrary,
  extractedFontFiles,
  officeEnvironment,
  officeTempDir,
  writeHardenedProfile,
} from './office-profile.js';
import { officePipeSockets } from './osl-pipes.js';

/** Why an attempt failed; `timeout`, `crashed` and `office-gone` are the process's fault and retried. */
export type OfficeFailureKind = BridgeFailureKind | 'timeout' | 'crashed' | 'queue-timeout';

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
/**
 * How long a dead bridge's last output is waited for. Its stdout closes as soon as the kill lands;
 * this only bounds a pipe that something else still holds open.
 */
const LAST_WORDS_MS = 1000;
/** How much of the bridge's stderr is kept, to say why a start failed. */
const STDERR_TAIL_CHARS = 2000;

/**
 * One warm LibreOffice: soffice.bin listening on a private named pipe, with its own process group
 * and a freshly written hardened profile, driven by a python3-uno bridge (bridge-protocol.ts).
 * Converts one document at a time, in the order given; more can wait in the bridge. It ends once,
 * by whichever cause comes first (end()); ending kills both process groups.
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
  /** The first cause of its end; set once, and never cleared. */
  private endedBy: string | undefined;
  private readonly exitListeners: ((reason: string) => void)[] = [];
  /** Settles start(): set from the start until the bridge is ready or the process ends. */
  private starting?: { resolve: () => void; reject: (err: OfficeFailure) => void };
  private stderrTail = '';
  private relaunched = false;

  private constructor(
    readonly id: string,
    readonly isolated: boolean,
    private readonly dir: string,
    /** Its sockets in /tmp, which a killed office leaves behind (osl-pipes.ts). */
    readonly sockets: readonly string[],
    private soffice: ChildProcess,
    private readonly bridge: ChildProcess,
    private readonly relaunch: () => ChildProcess,
    private readonly logger: Logger,
  ) {}

  static async start(
    options: FilledOfficePoolOptions,
    bridgeScript: string,
    isolated: boolean,
    logger: Logger = silentLogger,
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
    const office = new OfficeProcess(id, isolated, dir, sockets, soffice, bridge, launch, logger);
    const ready = office.waitReady(options.startTimeoutMs);
    office.watch();
    try {
      await ready;
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
    return this.endedBy === undefined;
  }

  /** Called once, when the process ends, with the first cause. */
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
    if (!this.alive)
      return Promise.reject(new OfficeFailure('office-gone', 'the office process is gone', false));
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, deadlineMs, started: false });
      this.send({ kind: 'convert', id, ...job });
    });
  }

  /** Ends the process (kills both process groups), unless it has ended already. */
  kill(reason = 'killed'): void {
    this.end(reason);
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

  /**
   * The font files LibreOffice extracted from documents this process converted (see
   * extractedFontFiles): once there, they stay registered with the process until it exits.
   */
  extractedFonts(): string[] {
    return extractedFontFiles(join(this.dir, 'profile'));
  }

  /**
   * The one way a process ends, whatever notices first: soffice's exit, the bridge's exit or its
   * broken pipe, a deadline, a reply outside the protocol, the office gone, kill() or dispose().
   * The first cause kills both process groups, fails the start or what is pending, and tells the
   * listeners, once; the causes that follow from the same death are only logged.
   */
  private end(cause: string): void {
    if (this.endedBy !== undefined) {
      this.logger.debug(
        { officePid: this.pid, cause, endedBy: this.endedBy },
        'office process had already ended; later cause ignored',
      );
      return;
    }
    this.endedBy = cause;
    for (const child of [this.soffice, this.bridge]) {
      if (child.pid === undefined) continue;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    this.failStart(cause);
    this.afterLastWords(() => this.failPending(cause));
    for (const listener of this.exitListeners) listener(cause);
  }

  /**
   * What the bridge wrote before it died may still be in the pipe: a reply for a conversion that
   * finished, the word that the next one began. Read to the end first, so that a finished
   * conversion is not failed and the one under way is told from those that never began.
   */
  private afterLastWords(then: () => void): void {
    const stdout = this.bridge.stdout;
    if (!stdout || stdout.destroyed || stdout.readableEnded) {
      then();
      return;
    }
    const timer = setTimeout(then, LAST_WORDS_MS);
    stdout.once('close', () => {
      clearTimeout(timer);
      then();
    });
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
  }

  private failStart(cause: string): void {
    const starting = this.starting;
    this.starting = undefined;
    const said = this.stderrTail.trim().split('\n').pop();
    starting?.reject(new OfficeFailure('crashed', said ? `${cause}: ${said}` : cause));
  }

  private waitReady(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.starting = undefined;
        this.end('start timeout');
        reject(new OfficeFailure('crashed', `office process not ready within ${timeoutMs} ms`));
      }, timeoutMs);
      this.starting = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
    });
  }

  /** Every cause of an end, and the bridge's replies, for the process's whole life. */
  private watch(): void {
    this.bridge.stderr!.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL_CHARS);
    });
    this.watchOffice(this.soffice);
    this.bridge.on('error', (err) => this.end(`UNO bridge did not start: ${err.message}`));
    this.bridge.on('exit', (code, signal) => this.end(`UNO bridge exited (${signal ?? code})`));
    // A write to a bridge that just died must not crash docpipe.
    this.bridge.stdin!.on('error', () => this.end('UNO bridge pipe closed'));
    const frames = new BridgeFrames((header, payload) => this.receive(header, payload));
    this.bridge.stdout!.on('data', (chunk: Buffer) => frames.push(chunk));
  }

  private watchOffice(soffice: ChildProcess): void {
    soffice.on('exit', (code, signal) => {
      // 81: soffice.bin initialised the fresh profile and asks to be started again (the soffice
      // wrapper script would do this). The bridge keeps trying to connect meanwhile.
      if (code === RESTART_REQUESTED && !this.relaunched && this.alive) {
        this.relaunched = true;
        this.soffice = this.relaunch();
        if (this.soffice.pid !== undefined) this.send({ kind: 'watch', pid: this.soffice.pid });
        this.watchOffice(this.soffice);
        return;
      }
      this.end(`soffice exited (${signal ?? code})`);
    });
    soffice.on('error', (err) => this.end(`soffice did not start: ${err.message}`));
  }

  private send(request: BridgeRequest): void {
    for (const chunk of encodeRequest(request)) this.bridge.stdin!.write(chunk);
  }

  private receive(header: Record<string, unknown>, payload: Buffer): void {
    let reply: BridgeReply;
    try {
      reply = parseReply(header, payload);
    } catch (err) {
      if (!(err instanceof BridgeProtocolError)) throw err;
      // A bridge that says what it should not cannot be trusted with the next document either.
      this.end(err.message);
      return;
    }
    switch (reply.kind) {
      case 'ready':
        this.healthyAt = performance.now();
        this.starting?.resolve();
        this.starting = undefined;
        return;
      case 'started':
        return this.began(reply.id);
      case 'converted':
        return this.converted(reply);
      case 'failed':
        return this.failed(reply);
    }
  }

  private began(id: number): void {
    const p = this.pending.get(id);
    if (!p) return;
    p.started = true;
    // The bridge began it: its deadline counts from now, not from when it was handed over.
    if (!this.alive) return;
    p.timer = setTimeout(() => {
      this.pending.delete(id);
      const why = `conversion passed its ${p.deadlineMs} ms deadline`;
      this.end(why);
      p.reject(new OfficeFailure('timeout', why));
    }, p.deadlineMs);
  }

  private converted(reply: ConvertedReply): void {
    const p = this.answered(reply.id);
    if (!p) return;
    this.conversions++;
    this.healthyAt = performance.now();
    p.resolve(reply.pdf);
  }

  private failed(reply: FailedReply): void {
    const p = this.answered(reply.id);
    if (!p) return;
    p.reject(new OfficeFailure(reply.error, reply.message));
    // The conversions waiting behind it never begin; they fail as not started.
    if (reply.error === 'office-gone') this.end('office gone');
  }

  /** Takes the answered conversion off the pending list; undefined for one already settled. */
  private answered(id: number): Pending | undefined {
    const p = this.pending.get(id);
    if (!p) return undefined;
    clearTimeout(p.timer);
    this.pending.delete(id);
    return p;
  }
}
