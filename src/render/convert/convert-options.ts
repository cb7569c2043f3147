import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isAbsolute } from 'node:path';

export type NetworkIsolation = 'auto' | 'namespace' | 'profile';

/** Options of the office pool. Every number is a named, documented knob. */
export interface OfficePoolOptions {
  /**
   * Office processes. LibreOffice converts one document at a time per process and uses one core
   * while it does. For libreoffice-convert: the cold soffice runs at once; more conversions wait.
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
  /**
   * How long a request may wait for a free process (for libreoffice-convert, for its turn) before
   * it fails. @defaultValue 60 000 ms
   */
  queueTimeoutMs?: number;
  /**
   * Conversions after which a process is replaced, against slow leaks that stay under
   * `maxRssBytes`. Not too often: a process converts nothing while it restarts, and memory
   * stays flat over many conversions (docs/decisions.md#recycling).
   * @defaultValue 2000
   */
  maxConversionsPerProcess?: number;
  /**
   * Conversions handed to one process at once: the one it converts and the rest waiting in its
   * bridge, which starts the next the moment the last is written, without a round trip through
   * docpipe (docs/decisions.md#queue-depth-at-the-bridge). Only when every process is busy
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
   * preload. LibreOffice spends a good part of a conversion in malloc and free
   * (docs/decisions.md#jemalloc).
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
  network: 'auto',
  sofficePath: '/usr/lib/libreoffice/program/soffice.bin',
  pythonPath: '/usr/bin/python3',
  allocator: 'auto',
});

/** The office options that libreoffice-convert uses; the others concern warm processes only. */
export type LibreOfficeConvertOptions = Pick<
  OfficePoolOptions,
  'processes' | 'conversionTimeoutMs' | 'queueTimeoutMs' | 'network' | 'workDir'
>;

export type FilledLibreOfficeConvertOptions = Required<LibreOfficeConvertOptions>;

/**
 * libreoffice-convert's defaults, the office pool's own: `processes` bounds the soffice runs at
 * once as it bounds the pool's processes, and the deadlines mean the same.
 */
export const DEFAULT_LIBREOFFICE_CONVERT_OPTIONS: Readonly<
  Omit<FilledLibreOfficeConvertOptions, 'processes' | 'workDir'>
> = Object.freeze({
  conversionTimeoutMs: DEFAULT_OFFICE_POOL_OPTIONS.conversionTimeoutMs,
  queueTimeoutMs: DEFAULT_OFFICE_POOL_OPTIONS.queueTimeoutMs,
  network: DEFAULT_OFFICE_POOL_OPTIONS.network,
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
    ...defined(options),
  };
  const problems = [
    ...positiveIntegerProblems(filled, [
      'processes',
      'conversionTimeoutMs',
      'startTimeoutMs',
      'queueTimeoutMs',
      'maxConversionsPerProcess',
      'queueDepth',
      'maxRssBytes',
    ]),
  ];
  if (
    !['auto', 'system'].includes(filled.allocator) &&
    !(isAbsolute(filled.allocator) && existsSync(filled.allocator))
  )
    // A typo here would otherwise only show as a slower office.
    problems.push(
      `allocator must be auto, system or the path of an existing malloc library (got ${filled.allocator})`,
    );
  problems.push(...networkProblems(filled.network));
  if (problems.length > 0) throw new Error(`invalid office pool options: ${problems.join('; ')}`);
  return filled;
}

/**
 * Fills libreoffice-convert's defaults and checks its options, reporting every problem together.
 * Takes the whole office options (the configuration has one set) and keeps what it uses.
 */
export function fillLibreOfficeConvertOptions(
  options: OfficePoolOptions,
  tmp: string,
): FilledLibreOfficeConvertOptions {
  const { processes, conversionTimeoutMs, queueTimeoutMs, network, workDir } = options;
  const filled: FilledLibreOfficeConvertOptions = {
    ...DEFAULT_LIBREOFFICE_CONVERT_OPTIONS,
    processes: availableParallelism(),
    workDir: tmp,
    ...defined({ processes, conversionTimeoutMs, queueTimeoutMs, network, workDir }),
  };
  const problems = [
    ...positiveIntegerProblems(filled, ['processes', 'conversionTimeoutMs', 'queueTimeoutMs']),
    ...networkProblems(filled.network),
  ];
  if (problems.length > 0)
    throw new Error(`invalid libreoffice-convert options: ${problems.join('; ')}`);
  return filled;
}

/** The options given, without those left undefined (which take their default). */
function defined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(options).filter(([, v]) => v !== undefined),
  ) as Partial<T>;
}

function positiveIntegerProblems<K extends string>(
  values: Record<K, unknown>,
  keys: readonly K[],
): string[] {
  return keys
    .filter((key) => !Number.isSafeInteger(values[key]) || (values[key] as number) <= 0)
    .map((key) => `${key} must be a positive integer (got ${String(values[key])})`);
}

function networkProblems(network: string): string[] {
  return ['auto', 'namespace', 'profile'].includes(network)
    ? []
    : [`network must be auto, namespace or profile (got ${network})`];
}
