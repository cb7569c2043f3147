import { createHash } from 'node:crypto';
import { FlowProducer, Queue, QueueEvents, type Job, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { DocpipeError, type Failure, type FailureDetail } from '../errors/index.js';
import type { TagInput } from '../fill/index.js';
import type { Storage } from '../storage/index.js';
import { failureFromReason, type CaseOutcome } from './case-outcome.js';
import {
  DEFAULT_CONTRACT_LIMITS,
  JOB_SCHEMA_VERSION,
  jobDataProblems,
  type ContractLimits,
  type DocumentJobData,
  type DocumentJobResult,
  type DocumentSource,
  type JobRenderOptions,
} from './job-contract.js';
import { queueNames, type QueueNames } from './queue-names.js';
import { createRedis } from './redis-connection.js';

/** One document of a batch. `resumed`: an earlier run of the batch had already finished it. */
export type BatchOutcome =
  | { ok: true; result: DocumentJobResult; resumed: boolean }
  | { ok: false; failure: Failure; resumed: boolean };

/** A case document as an API server has it (spec 2.2): a name and exactly one source. */
export interface DocumentInput {
  name: string;
  /** Bytes of a PDF or a real .docx. */
  content?: Uint8Array;
  /** Kept by reference, not inspected. */
  url?: string;
  /** A library document, with its version. */
  documentId?: string;
  versionId?: string;
  tags?: TagInput[];
  options?: JobRenderOptions;
}

export interface RequestOptions {
  /** Give up waiting after this long. @defaultValue the client's timeoutMs */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The same key gives the same job: a retried request does not render twice. */
  idempotencyKey?: string;
}

export interface DocpipeClientOptions {
  redisUrl: string;
  /** @defaultValue 'docpipe' */
  prefix?: string;
  /** Where content over the inline limit goes; workers must read the same storage. */
  storage?: Storage;
  contract?: ContractLimits;
  /** Tries of a job whose failure is transient. @defaultValue 3 */
  attempts?: number;
  /** First retry delay, doubling after. @defaultValue 1000 ms */
  backoffMs?: number;
  /** Finished jobs are removed after this age or count. @defaultValue { age: 3600 s, count: 1000 } */
  keepCompleted?: { age: number; count: number };
  /** @defaultValue { age: 86 400 s, count: 5000 } */
  keepFailed?: { age: number; count: number };
  /** @defaultValue 120 000 ms */
  timeoutMs?: number;
}

/**
 * The producer side, for API servers and batch jobs: enqueue documents and wait for their result
 * or typed failure. Fails fast when Redis is down.
 */
export class DocpipeClient {
  private constructor(
    private readonly options: Required<Omit<DocpipeClientOptions, 'storage'>> & {
      storage?: Storage;
    },
    private readonly names: QueueNames,
    private readonly connection: Redis,
    private readonly eventsConnections: Redis[],
    private readonly documents: Queue,
    private readonly flows: FlowProducer,
    private readonly documentEvents: QueueEvents,
    private readonly caseEvents: QueueEvents,
  ) {}

  static async connect(options: DocpipeClientOptions): Promise<DocpipeClient> {
    const filled = {
      prefix: 'docpipe',
      contract: DEFAULT_CONTRACT_LIMITS,
      attempts: 3,
      backoffMs: 1000,
      keepCompleted: { age: 3600, count: 1000 },
      keepFailed: { age: 86_400, count: 5000 },
      timeoutMs: 120_000,
      ...options,
    };
    const names = queueNames(filled.prefix);
    const connection = createRedis(filled.redisUrl, 'producer');
    try {
      // Before any queue exists: BullMQ sends commands as soon as one is made, and a producer's
      // connection has no offline queue to hold them.
      await connection.connect();
    } catch (err) {
      connection.disconnect();
      throw new Error(`cannot reach Redis at ${filled.redisUrl}: ${(err as Error).message}`);
    }
    // Waiting for events blocks a connection; BullMQ wants those to retry for ever.
    const eventsConnections = [
      createRedis(filled.redisUrl, 'worker'),
      createRedis(filled.redisUrl, 'worker'),
    ];
    const documents = new Queue(names.documents, { connection, prefix: names.prefix });
    const flows = new FlowProducer({ connection, prefix: names.prefix });
    const documentEvents = new QueueEvents(names.documents, {
      connection: eventsConnections[0]!,
      prefix: names.prefix,
    });
    const caseEvents = new QueueEvents(names.cases, {
      connection: eventsConnections[1]!,
      prefix: names.prefix,
    });
    // Each job being waited for listens on these (and on its queue's 'closing'); a batch waits
    // on hundreds at once.
    for (const emitter of [documentEvents, caseEvents, documents]) emitter.setMaxListeners(0);
    try {
      await Promise.all([
        connection.ping(),
        documentEvents.waitUntilReady(),
        caseEvents.waitUntilReady(),
      ]);
    } catch (err) {
      for (const c of [connection, ...eventsConnections]) c.disconnect();
      throw new Error(`cannot reach Redis at ${filled.redisUrl}: ${(err as Error).message}`);
    }
    return new DocpipeClient(
      filled,
      names,
      connection,
      eventsConnections,
      documents,
      flows,
      documentEvents,
      caseEvents,
    );
  }

  /** Renders one document; resolves to its result or rejects with its typed failure. */
  async render(document: DocumentInput, request: RequestOptions = {}): Promise<DocumentJobResult> {
    checkIdempotencyKey(request.idempotencyKey);
    const data = await this.jobData([document]);
    const job = await this.documents.add('document', data[0]!, {
      ...this.jobOptions(),
      jobId: request.idempotencyKey,
    });
    const finished = await this.wait(job, this.documentEvents, request, [job]);
    return finished as DocumentJobResult;
  }

  /**
   * Renders a case's documents as one flow and answers once: every result, in order, or one
   * failure holding every failing document's details (spec 1, guarantee 2). A failed case leaves
   * no output behind that it alone created.
   */
  async renderCase(
    documents: DocumentInput[],
    request: RequestOptions = {},
  ): Promise<DocumentJobResult[]> {
    checkIdempotencyKey(request.idempotencyKey);
    const data = await this.jobData(documents);
    const key = request.idempotencyKey;
    const node = await this.flows.add({
      name: 'case',
      queueName: this.names.cases,
      data: { v: JOB_SCHEMA_VERSION, documents: data.length },
      opts: {
        jobId: key,
        removeOnComplete: this.options.keepCompleted,
        removeOnFail: this.options.keepFailed,
      },
      children: data.map((d, i) => ({
        name: 'document',
        queueName: this.names.documents,
        data: d,
        opts: {
          ...this.jobOptions(),
          jobId: key ? `${key}-${i}` : undefined,
          ignoreDependencyOnFailure: true,
        },
      })),
    });
    const outcome = (await this.wait(node.job, this.caseEvents, request, [
      node.job,
      ...(node.children ?? []).map((c) => c.job),
    ])) as CaseOutcome;
    if (!outcome.ok) throw DocpipeError.fromFailure(outcome.failure);
    return outcome.results;
  }

  /**
   * Renders many independent documents (batch re-render): each is its own job with a stable id
   * when given, so that a rerun finds the jobs it already added instead of adding them again.
   * Every document settles on its own; `onSettled` reports each as it finishes.
   */
  async renderEach(
    items: { document: DocumentInput; jobId?: string }[],
    onSettled: (index: number, outcome: BatchOutcome) => void = () => undefined,
    request: Omit<RequestOptions, 'idempotencyKey'> = {},
  ): Promise<BatchOutcome[]> {
    const outcomes: BatchOutcome[] = new Array(items.length);
    const toAdd: { index: number; data: DocumentJobData; jobId?: string }[] = [];
    for (const [index, item] of items.entries()) {
      try {
        const [data] = await this.jobData([item.document]);
        toAdd.push({ index, data: { ...data!, field: `documents[${index}]` }, jobId: item.jobId });
      } catch (err) {
        if (!(err instanceof DocpipeError)) throw err;
        // jobData numbered this lone document 0; its place in the batch is `index`.
        const failure = err.toFailure();
        failure.details = failure.details.map((d) => ({
          ...d,
          field: d.field.replace(/^documents\[0\]/, `documents[${index}]`),
        }));
        outcomes[index] = { ok: false, failure, resumed: false };
        onSettled(index, outcomes[index]);
      }
    }
    const addedAt = Date.now();
    const jobs = await this.documents.addBulk(
      toAdd.map((a) => ({
        name: 'document',
        data: a.data,
        opts: { ...this.jobOptions(), jobId: a.jobId },
      })),
    );
    await Promise.all(
      jobs.map(async (job, i) => {
        const { index } = toAdd[i]!;
        let outcome: { ok: true; result: DocumentJobResult } | { ok: false; failure: Failure };
        try {
          outcome = {
            ok: true,
            result: (await this.wait(job, this.documentEvents, request, [
              job,
            ])) as DocumentJobResult,
          };
        } catch (err) {
          if (!(err instanceof DocpipeError)) throw err;
          outcome = { ok: false, failure: err.toFailure() };
        }
        // addBulk hands back a job already known under a stable id as if it were new; only the
        // stored job tells whether it finished before this run added it.
        const finishedOn = await this.connection
          .hget(this.documents.toKey(job.id!), 'finishedOn')
          .catch(() => null);
        outcomes[index] = { ...outcome, resumed: finishedOn !== null && +finishedOn < addedAt };
        onSettled(index, outcomes[index]!);
      }),
    );
    return outcomes;
  }

  async close(): Promise<void> {
    await Promise.all([
      this.documentEvents.close(),
      this.caseEvents.close(),
      this.documents.close(),
      this.flows.close(),
    ]);
    for (const c of [this.connection, ...this.eventsConnections]) c.disconnect();
  }

  private jobOptions(): JobsOptions {
    return {
      attempts: this.options.attempts,
      backoff: { type: 'exponential', delay: this.options.backoffMs },
      removeOnComplete: this.options.keepCompleted,
      removeOnFail: this.options.keepFailed,
    };
  }

  /** Job data for each document, checked here as the worker will check it: every problem at once. */
  private async jobData(documents: DocumentInput[]): Promise<DocumentJobData[]> {
    const problems: FailureDetail[] = [];
    const data: DocumentJobData[] = [];
    for (const [i, doc] of documents.entries()) {
      const field = `documents[${i}]`;
      const given = (['content', 'url', 'documentId'] as const).filter((k) => doc[k] !== undefined);
      if (given.length !== 1) {
        problems.push({
          field,
          message: `exactly one source: content, url or documentId (got ${given.join(', ') || 'none'})`,
        });
        continue;
      }
      let source: DocumentSource;
      if (doc.content !== undefined)
        source = await this.contentSource(doc.content, field, problems);
      else if (doc.url !== undefined) source = { url: doc.url };
      else
        source =
          doc.versionId === undefined
            ? { documentId: doc.documentId! }
            : { documentId: doc.documentId!, versionId: doc.versionId };
      const d: DocumentJobData = { v: JOB_SCHEMA_VERSION, field, name: doc.name, source };
      if (doc.tags !== undefined) d.tags = doc.tags;
      if (doc.options !== undefined) d.options = doc.options;
      problems.push(...jobDataProblems(d, this.options.contract));
      data.push(d);
    }
    if (documents.length === 0)
      problems.push({ field: 'documents', message: 'at least one document' });
    if (problems.length > 0) throw new DocpipeError('validation-failed', problems);
    return data;
  }

  private async contentSource(
    content: Uint8Array,
    field: string,
    problems: FailureDetail[],
  ): Promise<DocumentSource> {
    if (content.byteLength <= this.options.contract.maxInlineBytes)
      return { inline: Buffer.from(content).toString('base64') };
    if (!this.options.storage) {
      problems.push({
        field: `${field}.content`,
        message: `larger than ${this.options.contract.maxInlineBytes} bytes and the client has no storage for it`,
      });
      return { inline: '' };
    }
    // Content-addressed, so that a retried upload is the same object.
    const key = `uploads/${createHash('sha256').update(content).digest('hex')}.bin`;
    await this.options.storage.put(key, content, 'application/octet-stream');
    return { storageKey: key };
  }

  private async wait(
    job: Job,
    events: QueueEvents,
    request: RequestOptions,
    owned: Job[],
  ): Promise<unknown> {
    const timeoutMs = request.timeoutMs ?? this.options.timeoutMs;
    const field = (job.data as { field?: string }).field ?? 'documents';
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      if (!request.signal) return;
      onAbort = () => reject(request.signal!.reason ?? new Error('aborted'));
      if (request.signal.aborted) onAbort();
      else request.signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([job.waitUntilFinished(events, timeoutMs), aborted]);
    } catch (err) {
      const message = (err as Error).message ?? '';
      if (request.signal?.aborted || /timed out before finishing/.test(message)) {
        // Jobs not started yet are withdrawn; running ones finish and are cleaned up by age.
        await Promise.all(owned.map((j) => j.remove().catch(() => undefined)));
        if (request.signal?.aborted) throw err;
        throw new DocpipeError(
          'document-conversion-failed',
          [{ field, message: `no result within ${timeoutMs} ms` }],
          { retryable: true },
        );
      }
      const failure = failureFromReason(message, field);
      throw DocpipeError.fromFailure(failure);
    } finally {
      if (onAbort) request.signal?.removeEventListener('abort', onAbort);
    }
  }
}

/**
 * Idempotency keys become BullMQ job ids, which must not look like integers nor contain ':'. Keys
 * are checked here so that a bad one is a validation failure, not an internal error.
 */
function checkIdempotencyKey(key: string | undefined): void {
  if (key === undefined) return;
  if (!/^[A-Za-z0-9_.-]{1,200}$/.test(key) || /^\d+$/.test(key)) {
    throw new DocpipeError('validation-failed', [
      {
        field: 'idempotencyKey',
        message: 'letters, digits, ".", "_" or "-", at most 200, and not only digits',
      },
    ]);
  }
}
