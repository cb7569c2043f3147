import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type CounterConfiguration,
} from 'prom-client';
import { methodLabel, routeLabel, slugLabel, statusLabel, stepLabel } from './labels.js';

/** A queue whose jobs are counted by state at scrape time: BullMQ's Queue fits. */
export interface CountedQueue {
  readonly name: string;
  getJobCounts(): Promise<Record<string, number>>;
}

export interface DocpipeMetricsOptions {
  /**
   * Queues whose jobs are counted by state at each scrape, with BullMQ's own counts (one round
   * trip per queue), so the figures are the queue's, whichever process did the work.
   * @defaultValue none
   */
  queues?: readonly CountedQueue[];
  /**
   * The office pool's restarts by cause (OfficePoolStats.restartsByCause), read at each scrape;
   * undefined in a process without an office pool. @defaultValue none
   */
  officeRestarts?: () => Readonly<Record<string, number>> | undefined;
  /** Node's default process metrics (CPU, memory, event loop lag, handles). @defaultValue true */
  processMetrics?: boolean;
}

/** What a worker reports of a document job attempt (the queue's DocumentJobReport fits). */
export interface DocumentJobFacts {
  queueWaitMs: number | undefined;
  durationMs: number;
  outcome: 'rendered' | 'cached' | 'url' | 'failed' | 'skipped';
  timings?: Readonly<Partial<Record<string, number>>>;
  failure?: { slug: string; retryable: boolean };
}

/** Seconds: from a cache hit (a millisecond) to a conversion near its deadline (a minute). */
const STEP_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds: an idle queue answers in milliseconds; a backlog can wait for many minutes. */
const WAIT_BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];
/** Seconds: most requests answer in milliseconds; a synchronous convert waits for its PDFs. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * docpipe's metrics in a registry of their own (never prom-client's global one), so that several
 * apps in one process, as tests build them, never collide. Every label is bounded (see labels.ts).
 */
export class DocpipeMetrics {
  readonly registry = new Registry();
  private readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  private readonly httpDuration: Histogram<'method' | 'route'>;
  private readonly documentJobs: Counter<'outcome'>;
  private readonly failures: Counter<'slug' | 'retryable'>;
  private readonly stepDuration: Histogram<'step'>;
  private readonly queueWait: Histogram;

  constructor(options: DocpipeMetricsOptions = {}) {
    const registers = [this.registry];
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.httpRequests = new Counter({
      name: 'docpipe_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'docpipe_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method and route pattern.',
      labelNames: ['method', 'route'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.documentJobs = new Counter({
      name: 'docpipe_document_jobs_total',
      help: 'Document job attempts this process ended, by outcome (rendered, cached, url, failed; skipped: nobody waited any more).',
      labelNames: ['outcome'],
      registers,
    });
    this.failures = new Counter({
      name: 'docpipe_failures_total',
      help: 'Failed document job attempts, by failure slug and whether the job is retried.',
      labelNames: ['slug', 'retryable'],
      registers,
    });
    this.stepDuration = new Histogram({
      name: 'docpipe_render_step_duration_seconds',
      help: 'Time spent in each render step (cache, sniff, fill, harden, convert, check, store).',
      labelNames: ['step'],
      buckets: STEP_BUCKETS,
      registers,
    });
    this.queueWait = new Histogram({
      name: 'docpipe_queue_wait_seconds',
      help: 'Time from enqueueing a document job to the start of its first attempt.',
      buckets: WAIT_BUCKETS,
      registers,
    });
    jobsByState(registers, options.queues ?? []);
    if (options.officeRestarts) officeRestarts(registers, options.officeRestarts);
  }

  /** The Content-Type of `text()`. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every metric in Prometheus's text format, the scrape-time ones read now. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  recordHttp(method: string, route: string | undefined, status: number, seconds: number): void {
    const labels = { method: methodLabel(method), route: routeLabel(route) };
    this.httpRequests.inc({ ...labels, status: statusLabel(status) });
    this.httpDuration.observe(labels, seconds);
  }

  /** Pass as the worker's `onDocumentJob`: `onDocumentJob: (r) => metrics.recordDocumentJob(r)`. */
  recordDocumentJob(facts: DocumentJobFacts): void {
    this.documentJobs.inc({ outcome: facts.outcome });
    if (facts.queueWaitMs !== undefined) this.queueWait.observe(facts.queueWaitMs / 1000);
    for (const [step, ms] of Object.entries(facts.timings ?? {}))
      if (ms !== undefined) this.stepDuration.observe({ step: stepLabel(step) }, ms / 1000);
    if (facts.failure)
      this.failures.inc({
        slug: slugLabel(facts.failure.slug),
        retryable: String(facts.failure.retryable),
      });
  }
}

/**
 * BullMQ's own job counts by queue and state, read at scrape time; `docpipe_queue_up` says
 * whether they could be read (0 while Redis does not answer: the counts are then left out
 * rather than shown stale).
 */
function jobsByState(registers: Registry[], queues: readonly CountedQueue[]): void {
  const up = new Gauge({
    name: 'docpipe_queue_up',
    help: '1 when the job counts could be read from Redis at this scrape, else 0.',
    registers,
  });
  new Gauge({
    name: 'docpipe_jobs',
    help: "Jobs by queue and state, BullMQ's own counts at scrape time.",
    labelNames: ['queue', 'state'],
    registers,
    async collect() {
      this.reset();
      try {
        const counts = await Promise.all(queues.map((q) => q.getJobCounts()));
        queues.forEach((q, i) => {
          for (const [state, n] of Object.entries(counts[i]!))
            this.set({ queue: q.name, state }, n);
        });
        up.set(1);
      } catch {
        this.reset();
        up.set(0);
      }
    },
  });
}

/** Office process restarts by cause, from the pool's own counters at scrape time. */
function officeRestarts(
  registers: Registry[],
  read: () => Readonly<Record<string, number>> | undefined,
): void {
  const config: CounterConfiguration<'cause'> = {
    name: 'docpipe_office_restarts_total',
    help: 'Office processes replaced, by cause (crashed, timeout, recycled, memory, exited, embedded-fonts).',
    labelNames: ['cause'],
    registers,
    collect() {
      const counts = read();
      this.reset();
      for (const [cause, n] of Object.entries(counts ?? {})) this.inc({ cause }, n);
    },
  };
  new Counter(config);
}
