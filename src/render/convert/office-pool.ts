import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocpipeError } from '../../base/errors/index.js';
import { silentLogger, type Logger } from '../../base/log/index.js';
import { projectRoot } from '../../base/paths/index.js';
import { startsAsPdf } from '../../formats/sniff/index.js';
import {
  fillOfficePoolOptions,
  type FilledOfficePoolOptions,
  type OfficePoolOptions,
} from './convert-options.js';
import type { ConvertRequest, Converter } from './converter.js';
import { usesNetworkNamespace } from './network-isolation.js';
import { OfficeFailure, OfficeProcess, type ConvertJob } from './office-process.js';
import { extractedFontFamilies } from './office-profile.js';

interface Slot {
  index: number;
  process?: OfficeProcess;
  /** Conversions handed to the process and not answered yet: one converting, the rest queued. */
  inFlight: number;
  /** Due for replacement (conversions, memory): takes no more work, replaced once it is idle. */
  retiring: boolean;
  retireReason: string;
  retireCause: OfficeRestartCause;
  starting?: Promise<void>;
  /** Failed starts in a row, for the restart backoff. */
  failedStarts: number;
}

interface Waiter {
  /** Only a process healthy since then will do (performance.now() clock); 0 for any. */
  healthySince: number;
  /** Its conversion's place (ConvertRequest.place): the line is kept in this order. */
  place: number;
  grant: (slot: Slot) => void;
  fail: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/** Restart backoff after failed starts: 0.1 s doubling up to 5 s, so a crash loop cannot spin. */
const RESTART_BACKOFF_MS = (failures: number) =>
  Math.min(5000, 100 * 2 ** Math.max(0, failures - 1));
/** Attempts of one conversion at most, counting those that failed before they started. */
const MAX_ATTEMPTS = 4;

/**
 * Why an office process was replaced, a small fixed set for metrics: it crashed (or its bridge
 * went away) during a conversion, passed the conversion deadline, did its N conversions, grew
 * past the RSS limit, exited on its own while no conversion was at fault, or loaded fonts a
 * document embedded (which it would keep using for every later document).
 */
export type OfficeRestartCause =
  'crashed' | 'timeout' | 'recycled' | 'memory' | 'exited' | 'embedded-fonts';

export interface OfficePoolStats {
  processes: number;
  ready: number;
  busy: number;
  waiting: number;
  conversions: number;
  restarts: number;
  /** The same restarts, by cause. */
  restartsByCause: Record<OfficeRestartCause, number>;
  isolation: 'namespace' | 'profile';
}

/**
 * A pool of warm, isolated LibreOffice processes. Ready before the first request; requests wait
 * in order with a queue-wait deadline; a process that crashes, passes the deadline, has done its
 * N conversions or grows past the RSS limit is killed with its process group and replaced.
 */
export class OfficePool implements Converter {
  readonly name = 'office-pool';
  private readonly slots: Slot[];
  private readonly queue: Waiter[] = [];
  private closed = false;
  private conversions = 0;
  private restarts = 0;
  private readonly restartsByCause: Record<OfficeRestartCause, number> = {
    crashed: 0,
    timeout: 0,
    recycled: 0,
    memory: 0,
    exited: 0,
    'embedded-fonts': 0,
  };

  private constructor(
    private readonly options: FilledOfficePoolOptions,
    private readonly isolated: boolean,
    /** Holds each process's profile and the documents its bridge is converting. */
    private readonly baseDir: string,
    private readonly logger: Logger,
  ) {
    this.slots = Array.from({ length: options.processes }, (_, index) => ({
      index,
      inFlight: 0,
      retiring: false,
      retireReason: '',
      retireCause: 'recycled',
      failedStarts: 0,
    }));
  }

  static async start(
    options: OfficePoolOptions = {},
    logger: Logger = silentLogger,
  ): Promise<OfficePool> {
    const base = await mkdtemp(join(options.workDir ?? defaultWorkDir(), 'docpipe-office-'));
    const filled = fillOfficePoolOptions({ ...options, workDir: base }, base);
    const isolated = await usesNetworkNamespace(filled.network);
    logger.info(
      { isolation: isolated ? 'namespace' : 'profile', processes: filled.processes },
      isolated
        ? 'office processes run in a network namespace without interfaces, with a hardened profile'
        : 'office processes rely on the hardened profile (proxies at a closed port): this host cannot create network namespaces',
    );
    const pool = new OfficePool(filled, isolated, base, logger);
    // Warm: every process is up before the first request is taken.
    const started = await Promise.allSettled(pool.slots.map((slot) => pool.startSlot(slot)));
    const failure = started.find((r) => r.status === 'rejected');
    if (failure) {
      await pool.close();
      throw failure.reason;
    }
    return pool;
  }

  stats(): OfficePoolStats {
    return {
      processes: this.slots.length,
      ready: this.slots.filter((s) => s.process?.alive).length,
      busy: this.slots.filter((s) => s.inFlight > 0).length,
      waiting: this.queue.length,
      conversions: this.conversions,
      restarts: this.restarts,
      restartsByCause: { ...this.restartsByCause },
      isolation: this.isolated ? 'namespace' : 'profile',
    };
  }

  /** The pids of the live office processes, for operators (and fault tests). */
  pids(): number[] {
    return this.slots.flatMap((s) => (s.process?.alive && s.process.pid ? [s.process.pid] : []));
  }

  /** The pids of the live office processes converting now: which one a fault test must hit. */
  busyPids(): number[] {
    return this.slots.flatMap((s) =>
      s.inFlight > 0 && s.process?.alive && s.process.pid ? [s.process.pid] : [],
    );
  }

  async convert(request: ConvertRequest): Promise<Buffer> {
    if (this.closed) throw new Error('the office pool is closed');
    let pdf: Buffer;
    let healthySince = 0;
    let charged = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        // The title goes in through the document's properties only for PDF/A, whose metadata
        // pdf-lib must not rewrite; plain PDFs get it from pdf-lib afterwards.
        pdf = await this.attempt(
          {
            docx: request.docx,
            title: request.pdfa ? request.title : undefined,
            pdfa: request.pdfa,
          },
          healthySince,
          request.place ?? Number.MAX_SAFE_INTEGER,
        );
        break;
      } catch (err) {
        if (!(err instanceof OfficeFailure)) throw err;
        // A conversion that never started (queued behind one that took its process down) was
        // not at fault: that failure does not use up its one retry.
        if (err.started) charged++;
        const retry = err.processFault && charged <= 1 && attempt < MAX_ATTEMPTS;
        this.logger.warn(
          { field: request.field, kind: err.kind, attempt, retry },
          `conversion attempt failed: ${err.message}`,
        );
        if (!retry) throw conversionFailed(request.field, err);
        healthySince = performance.now();
      }
    }
    // LibreOffice can report success without writing anything for a file it could not load.
    if (pdf.length === 0)
      throw conversionFailed(
        request.field,
        new OfficeFailure('convert-failed', 'LibreOffice wrote no PDF'),
      );
    if (!startsAsPdf(pdf)) {
      throw conversionFailed(
        request.field,
        new OfficeFailure('convert-failed', 'LibreOffice wrote something that is not a PDF'),
      );
    }
    this.conversions++;
    return pdf;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.queue.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.fail(new Error('the office pool is closing'));
    }
    // Starts in flight finish first (and dispose of what they started), so nothing outlives close.
    await Promise.allSettled(this.slots.flatMap((s) => (s.starting ? [s.starting] : [])));
    await Promise.all(this.slots.flatMap((s) => (s.process ? [s.process.dispose()] : [])));
    await rm(this.baseDir, { recursive: true, force: true });
  }

  private async attempt(job: ConvertJob, healthySince: number, place: number): Promise<Buffer> {
    // Nothing awaits between acquire() and convert(): the process acquire() saw alive is the one
    // the document goes to.
    const slot = await this.acquire(healthySince, place);
    const office = slot.process!;
    try {
      return await office.convert(job, this.options.conversionTimeoutMs);
    } catch (err) {
      // Every conversion queued at a process that died fails; the first to hear replaces it.
      if (err instanceof OfficeFailure && err.processFault && slot.process === office)
        this.replace(slot, err.message, err.kind === 'timeout' ? 'timeout' : 'crashed');
      throw err;
    } finally {
      this.release(slot);
    }
  }

  private acquire(healthySince: number, place: number): Promise<Slot> {
    // A retry after close() killed the processes must not wait for one that never comes.
    if (this.closed) return Promise.reject(new Error('the office pool is closing'));
    const free = this.freeSlot(healthySince);
    if (free) {
      free.inFlight++;
      return Promise.resolve(free);
    }
    return new Promise<Slot>((grant, fail) => {
      const waiter: Waiter = {
        healthySince,
        place,
        grant,
        fail,
        timer: setTimeout(() => {
          this.queue.splice(this.queue.indexOf(waiter), 1);
          fail(
            new OfficeFailure(
              'queue-timeout',
              `no office process was free within ${this.options.queueTimeoutMs} ms`,
            ),
          );
        }, this.options.queueTimeoutMs),
      };
      // After every waiter placed at or before it: arrival order among equals.
      const after = this.queue.findIndex((w) => w.place > waiter.place);
      this.queue.splice(after < 0 ? this.queue.length : after, 0, waiter);
    });
  }

  private release(slot: Slot): void {
    slot.inFlight--;
    const office = slot.process;
    // A process that died with all its conversions answered (their replies were still in the
    // pipe) has nobody else to replace it: its exit came while they were in flight.
    if (office && !office.alive && slot.inFlight === 0)
      this.replace(slot, 'office process exited after answering its conversions', 'exited');
    else if (office?.alive) {
      this.retireIfFontsLoaded(slot, office);
      if (!slot.retiring) {
        const rss = office.rssBytes() ?? 0;
        if (office.conversions >= this.options.maxConversionsPerProcess) {
          slot.retiring = true;
          slot.retireReason = `recycled after ${office.conversions} conversions`;
          slot.retireCause = 'recycled';
        } else if (rss > this.options.maxRssBytes) {
          slot.retiring = true;
          slot.retireReason = `recycled at ${Math.round(rss / 1048576)} MiB resident`;
          slot.retireCause = 'memory';
        }
      }
      // Conversions still queued at it finish first.
      if (slot.retiring && slot.inFlight === 0)
        this.replace(slot, slot.retireReason, slot.retireCause);
    }
    this.dispatch();
  }

  /**
   * Defence in depth behind src/harden, which removes embedded fonts before conversion: a process
   * that extracted one anyway has registered it until it exits and would draw later customers'
   * text in it, so it takes no more work. The conversion that brought the font keeps its PDF (the
   * font was its own). Whatever other reason it was retiring for, this one is the one counted.
   */
  private retireIfFontsLoaded(slot: Slot, office: OfficeProcess): void {
    if (slot.retiring && slot.retireCause === 'embedded-fonts') return;
    const files = office.extractedFonts();
    if (files.length === 0) return;
    const fonts = extractedFontFamilies(files);
    slot.retiring = true;
    slot.retireCause = 'embedded-fonts';
    slot.retireReason = `it loaded fonts embedded in a document (${fonts.join(', ')})`;
    this.logger.warn(
      { slot: slot.index, officePid: office.pid, fonts },
      'office process loaded fonts embedded in a document although they are removed before conversion; retiring it once its queued conversions are done',
    );
  }

  /** Waiters in order, each to the first free process it accepts. */
  private dispatch(): void {
    for (let i = 0; i < this.queue.length;) {
      const waiter = this.queue[i]!;
      const free = this.freeSlot(waiter.healthySince);
      if (!free) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      clearTimeout(waiter.timer);
      free.inFlight++;
      waiter.grant(free);
    }
  }

  /**
   * The least loaded process that can take one more conversion: an idle one first, and only when
   * every process is converting, one with room in its queue (`queueDepth`).
   */
  private freeSlot(healthySince: number): Slot | undefined {
    let best: Slot | undefined;
    for (const s of this.slots) {
      if (s.retiring || s.inFlight >= this.options.queueDepth) continue;
      if (!s.process?.alive || s.process.healthyAt < healthySince) continue;
      if (!best || s.inFlight < best.inFlight) best = s;
    }
    return best;
  }

  private replace(slot: Slot, reason: string, cause: OfficeRestartCause): void {
    const old = slot.process;
    slot.process = undefined;
    slot.retiring = false;
    if (old) {
      this.logger.info(
        { slot: slot.index, officePid: old.pid, conversions: old.conversions },
        `replacing office process: ${reason}`,
      );
      void old.dispose();
    }
    if (!this.closed && !slot.starting) {
      this.restarts++;
      this.restartsByCause[cause]++;
      void this.startSlot(slot).catch(() => undefined);
    }
  }

  private startSlot(slot: Slot): Promise<void> {
    const starting = this.launch(slot).finally(() => {
      if (slot.starting === starting) slot.starting = undefined;
    });
    slot.starting = starting;
    return starting;
  }

  private async launch(slot: Slot): Promise<void> {
    try {
      const office = await OfficeProcess.start(
        this.options,
        join(projectRoot(), 'workers', 'uno-bridge.py'),
        this.isolated,
        this.logger,
      );
      if (this.closed) {
        await office.dispose();
        return;
      }
      slot.process = office;
      slot.failedStarts = 0;
      office.onExit((why) => {
        // Called once per process. One that dies while idle is replaced at once; a busy one by
        // attempt() when a conversion fails with it, or by release() when none did.
        if (!this.closed && slot.process === office && slot.inFlight === 0)
          this.replace(slot, `office process exited while idle (${why})`, 'exited');
      });
      this.logger.debug({ slot: slot.index, officePid: office.pid }, 'office process ready');
      this.dispatch();
    } catch (err) {
      slot.failedStarts++;
      this.logger.error(
        { slot: slot.index, failures: slot.failedStarts },
        `office process failed to start: ${(err as Error).message}`,
      );
      if (!this.closed) {
        setTimeout(() => {
          if (!this.closed && !slot.process) void this.startSlot(slot).catch(() => undefined);
        }, RESTART_BACKOFF_MS(slot.failedStarts)).unref();
      }
      throw err;
    }
  }
}

/**
 * /dev/shm when there is one: documents in flight and the office profiles live in memory, never
 * waiting on a disk.
 */
function defaultWorkDir(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

function conversionFailed(field: string, err: OfficeFailure): DocpipeError {
  // A load failure says all there is to say; for the others the office's own words help.
  const message = err.kind === 'load-failed' ? describe(err) : `${describe(err)}: ${err.message}`;
  // A busy converter is worth asking again later; the other failures already had their retry.
  return new DocpipeError('document-conversion-failed', [{ field, message }], {
    cause: err,
    retryable: err.kind === 'queue-timeout',
  });
}

function describe(err: OfficeFailure): string {
  switch (err.kind) {
    case 'timeout':
      return 'the conversion did not finish in time, also on a fresh office process';
    case 'crashed':
    case 'office-gone':
      return 'the office process crashed, also on a fresh one';
    case 'load-failed':
      return 'LibreOffice could not open the document (damaged, encrypted or not a Word document)';
    case 'convert-failed':
      return 'LibreOffice could not convert the document';
    case 'queue-timeout':
      return 'the converter is busy';
  }
}
