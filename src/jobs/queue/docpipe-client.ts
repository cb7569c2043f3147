import { createHash, randomUUID } from 'node:crypto';
import { Job, type JobsOptions, type Queue } from 'bullmq';
import { DocpipeError, type Failure, type FailureDetail } from '../../base/errors/index.js';
import {
  jobInputKey,
  parseStorageKey,
  parseStoredDocumentUrl,
} from '../../render/storage/index.js';
import { failureFromReason, readDocumentSetOutcome } from './document-set-outcome.js';
import { BullmqLayoutError, checkJobHashLayout } from './bullmq-job-hash.js';
import {
  fillClientOptions,
  type DocpipeClientOptions,
  type FilledClientOptions,
} from './client-options.js';
import {
  JOB_SCHEMA_VERSION,
  jobDataProblems,
  type DocumentJobData,
  type DocumentJobResult,
  type DocumentSource,
} from './job-contract.js';
import { openConnections, type ClientConnections } from './client-connections.js';
import { JobWaiter, type JobEnd } from './job-waiter.js';
import { contractInput, type DocumentInput } from './document-input.js';
import { QueueHealth } from './queue-health.js';
import { FairShare } from './fair-share.js';
import { queueNames, type QueueNames } from './queue-names.js';
import { isQueueUnavailableError, QueueUnavailableError } from '../../platform/redis/index.js';

export type { DocumentInput } from './document-input.js';

/** How often the stored state of every job waited for is read, in case an event was lost. */
const SWEEP_INTERVAL_MS = 15_000;

/** One document of a batch. `resumed`: an earlier run of the batch had already finished it. */
export type BatchOutcome =
  | { ok: true; result: DocumentJobResult; resumed: boolean }
  | { ok: false; failure: Failure; resumed: boolean };

export interface RequestOptions {
  /** Give up waiting after this long. @defaultValue the client's timeoutMs */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The same key gives the same job: a retried request does not render twice. */
  idempotencyKey?: string;
  /** The caller's request id, carried in the jobs into the worker's log lines. */
  requestId?: string;
  /**
   * The company the documents are for (an API key's): its jobs take turns with other
   * companies' jobs. @defaultValue the client's `company`
   */
  company?: string;
  /**
   * When the caller stops waiting (ms since 1970), if before the timeout's end: a caller that
   * ends the wait itself through `signal` says when. The jobs carry the earlier of the two
   * (`waitUntil`), so that a worker that takes one after it (the caller gone, the process
   * stopped before it could withdraw them) skips it instead of rendering for nobody.
   */
  waitUntil?: number;
}

/** A job this request created, withdrawn when the request gives up before it starts. */
interface Owned {
  queue: 'documents' | 'document-sets';
  id: string;
  /** The company line a document job waits in. */
  company?: string;
}

/** The request's own deadline passed. */
class WaitTimeout extends Error {}

/**
 * The producer side, for API servers and batch jobs: enqueue documents and wait for their result
 * or typed failure. Fails fast when Redis is down.
 */
export class DocpipeClient {
  private readonly documentWaiter: JobWaiter;
  private readonly documentSetWaiter: JobWaiter;
  private readonly health: QueueHealth;
  private readonly fair: FairShare;
  private watching = false;
  private closed = false;

  private constructor(
    private readonly options: FilledClientOptions,
    private readonly names: QueueNames,
    private conn: ClientConnections,
  ) {
    const connection = () => this.conn.connection;
    this.documentWaiter = new JobWaiter((id) => this.conn.documents.toKey(id), connection);
    this.documentSetWaiter = new JobWaiter((id) => this.conn.documentSets.toKey(id), connection);
    this.documentWaiter.listen(conn.documentEvents);
    this.documentSetWaiter.listen(conn.documentSetEvents);
    this.fair = new FairShare(() => this.conn.connection, names, {
      maxQueued: options.companyMaxQueued,
      maxActive: 0,
    });
    this.health = new QueueHealth(() => this.conn, {
      unreachableMs: options.unreachableMs,
      noWorkerMs: options.noWorkerMs,
      intervalMs: options.healthIntervalMs,
    });
  }

  /** Connects, failing fast with QueueUnavailableError ('redis-unreachable') when Redis is down. */
  static async connect(options: DocpipeClientOptions): Promise<DocpipeClient> {
    const filled = fillClientOptions(options);
    const names = queueNames(filled.prefix);
    const conn = await openConnections(filled.redisUrl, names);
    try {
      await checkJobHashLayout(filled.redisUrl, names.prefix);
    } catch (err) {
      await conn.close();
      if (err instanceof BullmqLayoutError) throw err;
      throw QueueUnavailableError.unreachable(filled.redisUrl, undefined, err);
    }
    return new DocpipeClient(filled, names, conn);
  }

  /** The Redis this client talks to now (it moves when `rediscover` finds another). */
  get redisUrl(): string {
    return this.conn.url;
  }

  /** Renders one document; resolves to its result or rejects with its typed failure. */
  async render(document: DocumentInput, request: RequestOptions = {}): Promise<DocumentJobResult> {
    checkIdempotencyKey(request.idempotencyKey);
    const company = this.companyOf(request);
    const staged: string[] = [];
    try {
      const data = await this.jobData([document], request.requestId, company, staged);
      this.markWaitUntil(data, request);
      await this.requireWorker();
      const id = request.idempotencyKey ?? randomUUID();
      const [priority] = await this.places(company, [id]);
      const job = await this.guard(() =>
        this.conn.documents.add('document', data[0]!, {
          ...this.jobOptions(),
          jobId: id,
          priority,
        }),
      );
      const owned: Owned[] = [{ queue: 'documents', id: job.id!, company }];
      const finished = await this.wait(owned[0]!, 'documents[0]', request, owned);
      return finished as DocumentJobResult;
    } finally {
      await this.unstage(staged);
    }
  }

  /**
   * Renders a document set (documents rendered together) as one flow and answers once: every
   * result, in order, or one failure holding every failing document's details (spec 1, guarantee
   * 2). A failed set leaves no output behind that it alone created.
   */
  async renderDocumentSet(
    documents: DocumentInput[],
    request: RequestOptions = {},
  ): Promise<DocumentJobResult[]> {
    checkIdempotencyKey(request.idempotencyKey);
    const company = this.companyOf(request);
    const staged: string[] = [];
    try {
      return await this.renderSet(documents, request, company, staged);
    } finally {
      await this.unstage(staged);
    }
  }

  private async renderSet(
    documents: DocumentInput[],
    request: RequestOptions,
    company: string | undefined,
    staged: string[],
  ): Promise<DocumentJobResult[]> {
    const data = await this.jobData(documents, request.requestId, company, staged);
    this.markWaitUntil(data, request);
    const key = request.idempotencyKey;
    await this.requireWorker();
    const ids = data.map((_, i) => (key ? `${key}-${i}` : randomUUID()));
    const places = await this.places(company, ids);
    const node = await this.guard(() =>
      this.conn.flows.add({
        name: 'document-set',
        queueName: this.names.documentSets,
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
            jobId: ids[i],
            priority: places[i],
            ignoreDependencyOnFailure: true,
          },
        })),
      }),
    );
    const owned: Owned[] = [
      { queue: 'document-sets', id: node.job.id! },
      ...(node.children ?? []).map((c) => ({
        queue: 'documents' as const,
        id: c.job.id!,
        company,
      })),
    ];
    const outcome = readDocumentSetOutcome(
      await this.wait(owned[0]!, 'documents', request, owned),
      'documents',
    );
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
    const outcomes = new Array<BatchOutcome>(items.length);
    const company = this.companyOf(request);
    const toAdd: { index: number; data: DocumentJobData; jobId: string }[] = [];
    for (const [index, item] of items.entries()) {
      try {
        const [data] = await this.jobData([item.document], request.requestId, company);
        toAdd.push({
          index,
          data: { ...data!, field: `documents[${index}]` },
          jobId: item.jobId ?? randomUUID(),
        });
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
    if (toAdd.length > 0) await this.requireWorker();
    await this.freeFailed(toAdd.map((a) => a.jobId));
    const places = await this.places(
      company,
      toAdd.map((a) => a.jobId),
    );
    const addedAt = Date.now();
    const jobs = await this.guard(() =>
      this.conn.documents.addBulk(
        toAdd.map((a, i) => ({
          name: 'document',
          data: a.data,
          opts: { ...this.jobOptions(), jobId: a.jobId, priority: places[i] },
        })),
      ),
    );
    await Promise.all(
      jobs.map(async (job, i) => {
        const { index } = toAdd[i]!;
        const own: Owned = { queue: 'documents', id: job.id!, company };
        let outcome: { ok: true; result: DocumentJobResult } | { ok: false; failure: Failure };
        try {
          outcome = {
            ok: true,
            result: (await this.wait(own, `documents[${index}]`, request, [
              own,
            ])) as DocumentJobResult,
          };
        } catch (err) {
          if (!(err instanceof DocpipeError)) throw err;
          outcome = { ok: false, failure: err.toFailure() };
        }
        // addBulk hands back a job already known under a stable id as if it were new; only the
        // stored job tells whether it finished before this run added it.
        const stored = await Job.fromId(this.conn.documents, job.id!).catch(() => undefined);
        const finishedOn = stored?.finishedOn;
        outcomes[index] = { ...outcome, resumed: finishedOn !== undefined && finishedOn < addedAt };
        onSettled(index, outcomes[index]);
      }),
    );
    return outcomes;
  }

  /**
   * Frees the stable ids whose jobs failed in an earlier run, so that a rerun tries those
   * documents again (their template, values or library may have been fixed since) and reports
   * that try once: a rerun resumes what finished and retries what failed. Without this, adding
   * the id again hands back the stored failure, reported anew on every run.
   */
  private async freeFailed(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.guard(async () => {
      const failed = this.conn.documents.keys.failed!;
      const pipeline = this.conn.connection.pipeline();
      for (const id of ids) pipeline.zscore(failed, id);
      const scores = (await pipeline.exec()) ?? [];
      const stale = ids.filter((_, i) => scores[i]?.[1] !== null && scores[i]?.[1] !== undefined);
      await Promise.all(stale.map((id) => this.conn.documents.remove(id)));
    });
  }

  /** Ends every wait still under way (it rejects) and disconnects. */
  async close(): Promise<void> {
    this.closed = true;
    const closing = new Error('the docpipe client was closed');
    this.documentWaiter.failAll(closing);
    this.documentSetWaiter.failAll(closing);
    await this.conn.close();
  }

  private jobOptions(): JobsOptions {
    return {
      attempts: this.options.attempts,
      backoff: { type: 'exponential', delay: this.options.backoffMs },
      removeOnComplete: this.options.keepCompleted,
      removeOnFail: this.options.keepFailed,
    };
  }

  /**
   * Job data for each document, checked here as the worker will check it: every problem at once.
   * The keys of the inputs it stored for the jobs go into `staged`, when given, for the caller
   * to remove.
   */
  private async jobData(
    documents: DocumentInput[],
    requestId: string | undefined,
    company: string | undefined,
    staged?: string[],
  ): Promise<DocumentJobData[]> {
    const problems: FailureDetail[] = [];
    const data: DocumentJobData[] = [];
    for (const [i, doc] of documents.entries()) {
      const field = `documents[${i}]`;
      const given = (['content', 'url', 'storageKey', 'documentId', 'template'] as const).filter(
        (k) => doc[k] !== undefined,
      );
      if (given.length !== 1) {
        problems.push({
          field,
          message: `exactly one source: content, url, storageKey, documentId or template (got ${given.join(', ') || 'none'})`,
        });
        continue;
      }
      // A resolved template travels as its bytes and settings, or as its library reference.
      const input = contractInput(doc, field, problems);
      let source: DocumentSource;
      if (input.content !== undefined)
        source = await this.contentSource(input.content, field, problems, staged);
      else if (input.url !== undefined) source = this.urlSource(input.url);
      else if (input.storageKey !== undefined)
        source = storedSource(input.storageKey, field, problems);
      else
        source =
          input.versionId === undefined
            ? { documentId: input.documentId! }
            : { documentId: input.documentId!, versionId: input.versionId };
      const d: DocumentJobData = { v: JOB_SCHEMA_VERSION, field, name: doc.name, source };
      if (doc.tags !== undefined) d.tags = doc.tags;
      if (input.options !== undefined) d.options = input.options;
      if (requestId !== undefined) d.requestId = requestId;
      if (company !== undefined) d.company = company;
      problems.push(...jobDataProblems(d, this.options.contract));
      data.push(d);
    }
    if (documents.length === 0)
      problems.push({ field: 'documents', message: 'at least one document' });
    if (problems.length > 0) throw new DocpipeError('validation-failed', problems);
    return data;
  }

  /**
   * Writes when the request stops waiting into its jobs. Not with an idempotency key: its caller
   * may come back for the job after its wait (a retry finds it by the key), so its answer is
   * read later, as a batch's is.
   */
  private markWaitUntil(data: DocumentJobData[], request: RequestOptions): void {
    if (request.idempotencyKey !== undefined) return;
    const timeoutEnd = Date.now() + (request.timeoutMs ?? this.options.timeoutMs);
    const waitUntil = Math.min(request.waitUntil ?? timeoutEnd, timeoutEnd);
    for (const d of data) d.waitUntil = Math.floor(waitUntil);
  }

  private companyOf(request: RequestOptions): string | undefined {
    return request.company ?? this.options.company;
  }

  /**
   * Each job's place in its company's line (its BullMQ priority), or none when fair sharing is
   * off; refuses the whole request when the company's cap on waiting jobs would be passed.
   */
  private async places(
    company: string | undefined,
    ids: string[],
  ): Promise<(number | undefined)[]> {
    if (!this.options.fairShare) return ids.map(() => undefined);
    return this.guard(() => this.fair.admit(company, ids));
  }

  /** An upload docpipe issued is its stored bytes; any other URL is kept by reference. */
  private urlSource(url: string): DocumentSource {
    const stored =
      this.options.publicUrl === undefined
        ? undefined
        : parseStoredDocumentUrl(url, this.options.publicUrl);
    return stored ? { storageKey: stored.key } : { url };
  }

  private async contentSource(
    content: Uint8Array,
    field: string,
    problems: FailureDetail[],
    staged: string[] | undefined,
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
    // A request that removes its input when its jobs end (`staged`, see unstage) names it by
    // the bytes and itself, so that another request staging the same bytes at once keeps its
    // own; a batch's input is named by the bytes alone, so that a rerun stores it once.
    const hash = createHash('sha256').update(content);
    if (staged) hash.update(randomUUID());
    const key = jobInputKey(hash.digest('hex'));
    staged?.push(key);
    await this.options.storage.put(key, content, 'application/octet-stream');
    return { storageKey: key };
  }

  /**
   * Removes the inputs a request stored for its jobs, once it has their end (or gave up: a job it
   * could not withdraw is running and has read its input). A refused case thus leaves no input
   * behind for retention to find 30 days later. Never throws: retention is the safety net.
   */
  private async unstage(keys: readonly string[]): Promise<void> {
    const storage = this.options.storage;
    if (!storage || keys.length === 0) return;
    await Promise.all(keys.map((k) => storage.delete(k).catch(() => undefined)));
  }

  /**
   * Waits for a job's end, its own deadline, the request's abort, or the queue's end (no Redis,
   * no worker): whichever comes first. A request that gives up withdraws its jobs that have
   * not started; an unavailable queue leaves them queued, for a worker that comes back.
   */
  private async wait(
    job: Owned,
    field: string,
    request: RequestOptions,
    owned: Owned[],
  ): Promise<unknown> {
    const timeoutMs = request.timeoutMs ?? this.options.timeoutMs;
    const waiter = job.queue === 'document-sets' ? this.documentSetWaiter : this.documentWaiter;
    const handle = waiter.wait(job.id);
    this.watch();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new WaitTimeout()), timeoutMs);
      if (!request.signal) return;
      onAbort = () => reject(abortReason(request.signal!));
      if (request.signal.aborted) onAbort();
      else request.signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return endValue(await Promise.race([handle.ended, stopped]), field);
    } catch (err) {
      if (!(err instanceof WaitTimeout) && !request.signal?.aborted) throw err;
      await this.withdraw(owned);
      if (request.signal?.aborted) throw err;
      throw new DocpipeError(
        'document-conversion-failed',
        [{ field, message: `no result within ${timeoutMs} ms` }],
        { retryable: true },
      );
    } finally {
      handle.cancel();
      clearTimeout(timer);
      if (onAbort) request.signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Jobs not started yet are removed; running ones finish and are cleaned up by age. A running
   * job that carries its waiter's time is told the wait is over now: should it come back to the
   * queue (its worker stopping, or dying), the next worker skips it instead of rendering it for
   * nobody.
   */
  private async withdraw(owned: Owned[]): Promise<void> {
    await Promise.all(
      owned.map(async (o) => {
        const queue = o.queue === 'document-sets' ? this.conn.documentSets : this.conn.documents;
        const removed = await queue.remove(o.id).catch(() => 0);
        if (o.queue !== 'documents') return;
        if (removed === 1) await this.fair.withdrawn(o.company, [o.id]).catch(() => undefined);
        else await waiterLeft(queue, o.id).catch(() => undefined);
      }),
    );
  }

  /** Refuses a request before queuing it when no worker would take it. */
  private async requireWorker(): Promise<void> {
    await this.guard(() => this.health.requireWorker());
  }

  /** A call that fails because Redis went away says so, not with ioredis's words. */
  private async guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof DocpipeError || isQueueUnavailableError(err)) throw err;
      if (this.conn.connection.status !== 'ready')
        throw QueueUnavailableError.unreachable(this.conn.url, undefined, err);
      throw err;
    }
  }

  private get waiting(): number {
    return this.documentWaiter.size + this.documentSetWaiter.size;
  }

  /** Looks at Redis and its workers while anything is waited for. */
  private watch(): void {
    if (this.watching) return;
    this.watching = true;
    this.health.reset();
    void this.watchLoop().finally(() => {
      this.watching = false;
      if (!this.closed && this.waiting > 0) this.watch();
    });
  }

  private async watchLoop(): Promise<void> {
    let sweptAt = Date.now();
    for (;;) {
      await new Promise((r) => setTimeout(r, this.options.healthIntervalMs));
      if (this.closed || this.waiting === 0) return;
      const state = await this.health.look();
      if (state.kind === 'failed') {
        this.documentWaiter.failAll(state.error);
        this.documentSetWaiter.failAll(state.error);
        return;
      }
      if (state.kind === 'unreachable') {
        await this.rediscover();
        continue;
      }
      if (state.reconnected || Date.now() - sweptAt > SWEEP_INTERVAL_MS) {
        sweptAt = Date.now();
        await Promise.all([this.documentWaiter.sweep(), this.documentSetWaiter.sweep()]).catch(
          () => undefined,
        );
      }
    }
  }

  /** Switches to where Redis is now, when `rediscover` names another URL that answers. */
  private async rediscover(): Promise<void> {
    const url = await this.options.rediscover?.().catch(() => undefined);
    if (!url || url === this.conn.url) return;
    let next: ClientConnections;
    try {
      next = await openConnections(url, this.names);
    } catch {
      return;
    }
    if (this.closed) return void (await next.close());
    const old = this.conn;
    this.conn = next;
    this.documentWaiter.listen(next.documentEvents);
    this.documentSetWaiter.listen(next.documentSetEvents);
    void old.close();
  }
}

/** Ends the wait written into a job still in Redis (one without it is left as it is). */
async function waiterLeft(queue: Queue, id: string): Promise<void> {
  const job = await Job.fromId(queue, id);
  const data = job?.data as DocumentJobData | undefined;
  if (!job || data?.waitUntil === undefined || (await job.isCompleted())) return;
  await job.updateData({ ...data, waitUntil: Math.min(data.waitUntil, Date.now()) });
}

/**
 * A stored document by reference: only a document docpipe stored (an upload, a render, a job
 * input), so that a caller cannot send the worker to any other object of the storage.
 */
function storedSource(key: string, field: string, problems: FailureDetail[]): DocumentSource {
  const kind = parseStorageKey(key)?.kind;
  if (kind !== 'upload' && kind !== 'render' && kind !== 'job-input')
    problems.push({
      field: `${field}.storageKey`,
      message: 'not the key of a document docpipe stored (an upload, a render or a job input)',
    });
  return { storageKey: key };
}

/** A job's end as the request's answer: its value, or its typed failure. */
function endValue(end: JobEnd, field: string): unknown {
  if (end.ok) return end.value;
  if ('gone' in end)
    throw new DocpipeError(
      'document-conversion-failed',
      [
        {
          field,
          message:
            'the job is no longer in Redis (withdrawn, or lost when Redis restarted before saving it); run it again',
        },
      ],
      { retryable: true },
    );
  throw DocpipeError.fromFailure(failureFromReason(end.reason, field));
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

/** Why a signal aborted, as an Error: AbortSignal's reason may be any value its owner chose. */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error('aborted', { cause: reason });
}
