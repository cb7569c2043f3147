import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isAbsolute } from 'node:path';

export type NetworkIsolation = 'auto' | 'namespace' | 'profile';

/** Options of the office pool. Every number is a named, documented knob. */
export interface OfficePoolOptions {
  /**
   * Office processes. LibreOffice converts one document at a time per process and uses one core
   * while it does.
   * @defaultValue os.availableParallelism()
   */
  processes?: number;
  /**
   * Deadline of one conversion attempt. Past it the process and its whole process group are
   * killed and replaced; the conversion is tried once more on a fresh process.
   * @defaultValue 30 000 ms
   */
  conversionTimeoutMs?: number;
  /** How long a fresh office process may take to accept connections. @defaultValue 30 000 ms */
  startTimeoutMs?: number;
  /** How long a request may wait for a free process before it fails. @defaultValue 60 000 ms */
  queueTimeoutMs?: number;
  /**
   * Conversions after which a process is replaced, against slow leaks that stay under
   * `maxRssBytes`. Not too often: a restart takes 0.9 s (0.75 s of it CPU) in which the process
   * converts nothing; every 200 conversions, that was a seventh of a process's time. On
   * this machine, 1500 W1 conversions in one process kept it at 172 MiB and 26 ms each.
   * @defaultValue 2000
   */
  maxConversionsPerProcess?: number;
  /**
   * Conversions handed to one process at once: the one it converts and the rest waiting in its
   * bridge, which starts the next the moment the last is written, without a round trip through
   * docpipe (about 5% more documents a second on this machine). Only when every process is busy
   * does a conversion queue behind another; 1 turns this off, so that a conversion never waits
   * behind a long one while another process frees up.
   * @defaultValue 2
   */
  queueDepth?: number;
  /** Resident memory past which a process is replaced after its current conversion. @defaultValue 1 GiB */
  maxRssBytes?: number;
  /**
   * `namespace` runs each office process in a network namespace without interfaces (unshare),
   * `profile` relies on the hardened profile alone, `auto` uses a namespace when the host allows.
   * @defaultValue 'auto'
   */
  network?: NetworkIsolation;
  /** @defaultValue '/usr/lib/libreoffice/program/soffice.bin' */
  sofficePath?: string;
  /** Python with Debian's uno module (not a pyenv one). @defaultValue '/usr/bin/python3' */
  pythonPath?: string;
  /** Where profiles and in-flight files live. @defaultValue /dev/shm when writable, else os.tmpdir() */
  workDir?: string;
  /**
   * The malloc soffice.bin runs with: `auto` preloads jemalloc when it is installed (Debian's
   * libjemalloc2), `system` keeps glibc's, anything else is the path of a malloc library to
   * preload. LibreOffice spends about a tenth of a conversion in glibc's malloc and free.
   * @defaultValue 'auto'
   */
  allocator?: string;
}

export type FilledOfficePoolOptions = Required<OfficePoolOptions>;

export const DEFAULT_OFFICE_POOL_OPTIONS: Readonly<
  Omit<FilledOfficePoolOptions, 'processes' | 'workDir'>
> = Object.freeze({
  conversionTimeoutMs: 30_000,
  startTimeoutMs: 30_000,
  queueTimeoutMs: 60_000,
  maxConversionsPerProcess: 2000,
  queueDepth: 2,
  maxRssBytes: 1024 * 1024 * 1024,
  network: 'auto' as NetworkIsolation,
  sofficePath: '/usr/lib/libreoffice/program/soffice.bin',
  pythonPath: '/usr/bin/python3',
  allocator: 'auto',
});

/** Fills defaults and checks every option, reporting every problem together. */
export function fillOfficePoolOptions(
  options: OfficePoolOptions,
  tmp: string,
): FilledOfficePoolOptions {
  const filled: FilledOfficePoolOptions = {
    ...DEFAULT_OFFICE_POOL_OPTIONS,
    processes: availableParallelism(),
    workDir: tmp,
    ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
  };
  const problems: string[] = [];
  for (const key of [
    'processes',
    'conversionTimeoutMs',
    'startTimeoutMs',
    'queueTimeoutMs',
    'maxConversionsPerProcess',
    'queueDepth',
    'maxRssBytes',
  ] as const) {
    if (!Number.isSafeInteger(filled[key]) || filled[key] <= 0)
      problems.push(`${key} must be a positive integer (got ${String(filled[key])})`);
  }
  if (
    !['auto', 'system'].includes(filled.allocator) &&
    !(isAbsolute(filled.allocator) && existsSync(filled.allocator))
  )
    // A typo here would otherwise only show as a slower office.
    problems.push(
      `allocator must be auto, system or the path of an existing malloc library (got ${filled.allocator})`,
    );
  if (!['auto', 'namespace', 'profile'].includes(filled.network))
    problems.push(`network must be auto, namespace or profile (got ${filled.network})`);
  if (problems.length > 0) throw new Error(`invalid office pool options: ${problems.join('; ')}`);
  return filled;
}
