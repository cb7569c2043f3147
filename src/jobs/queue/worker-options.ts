import type { DocumentLibrary } from '../../document/library/index.js';
import type { Logger } from '../../base/log/index.js';
import type { Renderer, RenderStep } from '../../render/pipeline/index.js';
import type { Storage } from '../../render/storage/index.js';
import { DEFAULT_CONTRACT_LIMITS, type ContractLimits } from './job-contract.js';
import {
  connectionProblems,
  givenOptions,
  nonNegativeInteger,
  positiveDuration,
  positiveInteger,
  refuseProblems,
} from './option-checks.js';
import { DEFAULT_PREFIX } from './queue-names.js';

export interface DocpipeWorkerOptions {
  redisUrl: string;
  /** @defaultValue 'docpipe' */
  prefix?: string;
  /**
   * Jobs at once: more than the office pool takes at once, so that while those convert, the
   * next ones' sniff and fill already run and LibreOffice never waits for them (the CLI uses
   * `workerConcurrency()` from the config).
   */
  concurrency: number;
  /**
   * How long a job's lock lasts; the worker renews it at half this while the job runs, so only a
   * dead worker's jobs ever stall. Longer than any single step, including a conversion deadline.
   * @defaultValue 60 000 ms
   */
  lockDurationMs?: number;
  /** How often stalled jobs are looked for. @defaultValue 30 000 ms */
  stalledIntervalMs?: number;
  renderer: Renderer;
  storage: Storage;
  library: DocumentLibrary;
  /** @defaultValue DEFAULT_CONTRACT_LIMITS */
  contract?: ContractLimits;
  logger?: Logger;
  /**
   * Told of every document job attempt this worker ends, for metrics. Called synchronously; what
   * it throws is logged and ignored. @defaultValue none
   */
  onDocumentJob?: (report: DocumentJobReport) => void;
  /**
   * Documents of one company converted at once across every worker (DOCPIPE_COMPANY_MAX_ACTIVE);
   * a job over it waits in its worker, holding its place, until one of the company's ends.
   * 0 is no cap. @defaultValue 0
   */
  companyMaxActive?: number;
}

/** One document job attempt as a worker ended it: bounded facts only, never names or ids. */
export interface DocumentJobReport {
  /**
   * Milliseconds from the job's enqueueing (after any delay it was given) to the start of its
   * first attempt; undefined on later attempts, whose wait is their retry backoff.
   */
  queueWaitMs: number | undefined;
  /** Milliseconds the attempt ran. */
  durationMs: number;
  /** `skipped`: its waiter had stopped waiting (`waitUntil`) before a worker took it. */
  outcome: 'rendered' | 'cached' | 'url' | 'failed' | 'skipped';
  /** Milliseconds per render step, for a rendered or cached document. */
  timings?: Partial<Record<RenderStep, number>>;
  /** The failure's slug, or 'internal' for one docpipe could not name (retried). */
  failure?: { slug: string; retryable: boolean };
}

export type FilledWorkerOptions = Required<Omit<DocpipeWorkerOptions, 'logger' | 'onDocumentJob'>> &
  Pick<DocpipeWorkerOptions, 'logger' | 'onDocumentJob'>;

/** The worker's defaults, in one place: the configuration reads them from here too. */
export const DEFAULT_WORKER_OPTIONS: Readonly<
  Pick<
    FilledWorkerOptions,
    'prefix' | 'lockDurationMs' | 'stalledIntervalMs' | 'contract' | 'companyMaxActive'
  >
> = Object.freeze({
  prefix: DEFAULT_PREFIX,
  companyMaxActive: 0,
  lockDurationMs: 60_000,
  stalledIntervalMs: 30_000,
  contract: DEFAULT_CONTRACT_LIMITS,
});

/** How long running jobs may finish when a worker closes, unless its caller says otherwise. */
export const DEFAULT_CLOSE_GRACE_MS = 30_000;

/** Fills the worker's defaults and checks every option, reporting every problem together. */
export function fillWorkerOptions(options: DocpipeWorkerOptions): FilledWorkerOptions {
  const filled: FilledWorkerOptions = {
    ...DEFAULT_WORKER_OPTIONS,
    ...givenOptions(options),
  };
  refuseProblems('docpipe worker options', [
    ...connectionProblems(filled),
    positiveInteger('concurrency', filled.concurrency),
    positiveDuration('lockDurationMs', filled.lockDurationMs),
    positiveDuration('stalledIntervalMs', filled.stalledIntervalMs),
    positiveInteger('contract.maxInlineBytes', filled.contract.maxInlineBytes),
    nonNegativeInteger('companyMaxActive', filled.companyMaxActive),
    ...(['renderer', 'storage', 'library'] as const).map((key) =>
      filled[key] ? undefined : `${key} is required`,
    ),
  ]);
  return filled;
}
